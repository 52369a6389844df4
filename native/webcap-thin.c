/* webcap-thin: the native client for a verb (`webcap click e12`) against a
 * warm daemon. Node's own start costs more than a whole verb may, so this
 * small program does what host/cli/thin-client.ts does up to the socket and
 * lets the daemon parse, govern and print (host/daemon/native-op.ts).
 *
 * It decides nothing the Node CLI would decide differently: whenever it cannot
 * answer it has sent nothing that acts and execs `node bin/webcap.js` with the
 * same argv (same pid, so the same caller), and the Node CLI answers as always.
 *
 * Build: cc -O2 -o native/webcap-thin native/webcap-thin.c
 * WEBCAP_THIN_TRACE=1 prints why it falls back; =strict exits 125 instead. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "sha256.c"
#include "text.c"

#define MAX_CONFIG (1024 * 1024) /* loadConfig reads no more */
#define HELLO_WAIT_MS 5000        /* a daemon answers hello at once; anything slower is not one we wait on */
#define MAX_NAMES 4096

static char **args;  /* argv as given, for the fallback */
static int nargs;

/* Hands the command line to the Node CLI. Only called before anything that acts was sent. */
static void fall_back(const char *why) {
  const char *trace = getenv("WEBCAP_THIN_TRACE");
  if (trace && *trace) fprintf(stderr, "webcap-thin: falling back to node: %s\n", why);
  if (trace && strcmp(trace, "strict") == 0) exit(125);
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) { fprintf(stderr, "error: internal: webcap-thin cannot find its own path\n"); exit(127); }
  exe[n] = 0;
  /* <package>/native/webcap-thin -> <package>/bin/webcap.js */
  for (int up = 0; up < 2; up++) { char *slash = strrchr(exe, '/'); if (!slash) exit(127); *slash = 0; }
  char entry[4200];
  snprintf(entry, sizeof entry, "%s/bin/webcap.js", exe);
  char **argv = calloc((size_t)nargs + 2, sizeof *argv);
  if (!argv) exit(127);
  argv[0] = "node";
  argv[1] = entry;
  for (int i = 1; i < nargs; i++) argv[i + 1] = args[i];
  execvp("node", argv);
  fprintf(stderr, "error: internal: webcap-thin could not run node: %s\n", strerror(errno));
  exit(127);
}

/* Reads the config as configContents does; NULL when it cannot be read (Node's null). */
static char *read_config(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  buf b = {0};
  char chunk[65536];
  ssize_t got;
  while ((got = read(fd, chunk, sizeof chunk)) > 0) {
    put(&b, chunk, (size_t)got);
    if (b.n > MAX_CONFIG) fall_back("a config file larger than webcap reads");
  }
  close(fd);
  if (got < 0) { free(b.p); return NULL; } /* a directory, or a read error: Node reads null too */
  puts_(&b, "");
  *len = b.n;
  return b.p;
}

/* callerId() of host/cli/caller-id.ts: WEBCAP_CALLER, else the terminal session, else the parent pid. */
static char *caller_id(void) {
  static char out[256];
  const char *named = getenv("WEBCAP_CALLER");
  if (named) {
    for (const unsigned char *c = (const unsigned char *)named; *c; c++) if (*c >= 0x80) fall_back("a non-ASCII WEBCAP_CALLER");
    const char *end = named + strlen(named);
    while (*named && strchr(" \t\n\v\f\r", *named)) named++; /* String.prototype.trim, for ASCII */
    while (end > named && strchr(" \t\n\v\f\r", end[-1])) end--;
    if (end > named) {
      int len = (int)(end - named) > 200 ? 200 : (int)(end - named);
      snprintf(out, sizeof out, "named:%.*s", len, named);
      return out;
    }
  }
  char stat[1024];
  int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  ssize_t n = fd < 0 ? -1 : read(fd, stat, sizeof stat - 1);
  if (fd >= 0) close(fd);
  if (n > 0) {
    stat[n] = 0;
    /* after the parenthesised name (which may hold spaces): state ppid pgrp session */
    char *p = strrchr(stat, ')');
    char *field = p && p[1] ? p + 2 : NULL;
    for (int i = 0; field && i < 3; i++) { field = strchr(field, ' '); if (field) field++; }
    if (field) {
      size_t len = strspn(field, "0123456789");
      if (len && len < 20 && (field[len] == ' ' || !field[len]) && !(len == 1 && field[0] == '0')) {
        snprintf(out, sizeof out, "sid:%.*s", (int)len, field);
        return out;
      }
    }
  }
  snprintf(out, sizeof out, "ppid:%ld", (long)getppid());
  return out;
}

/* While non-zero: the monotonic time (ms) by which the daemon's hello must be complete. A real daemon
 * answers at once; a peer that trickles bytes or endless names must not keep the command waiting. */
static long long hello_deadline;

static long long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Reads exactly n bytes; 0 on EOF, error or a hello past its deadline. */
static int read_full(int fd, char *p, size_t n) {
  while (n) {
    if (hello_deadline) {
      long long left = hello_deadline - now_ms();
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      if (left <= 0 || poll(&pfd, 1, (int)left) <= 0) return 0;
    }
    ssize_t got = read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return 0;
    p += got;
    n -= (size_t)got;
  }
  return 1;
}

/* One frame header line (`TAG ...\n`, short); 0 when the daemon sent something else. */
static int read_header(int fd, char *line, size_t cap) {
  for (size_t i = 0; i < cap - 1; i++) {
    if (!read_full(fd, line + i, 1)) return 0;
    if (line[i] == '\n') { line[i] = 0; return 1; }
  }
  return 0;
}

/* To the terminal's streams, or (sock) to the daemon: MSG_NOSIGNAL, since a daemon that hung up must
 * mean a fall-back, not a SIGPIPE death (and ignoring SIGPIPE would carry over into node through exec). */
static int write_all(int fd, const char *p, size_t n, int sock) {
  while (n) {
    ssize_t put_ = sock ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);
    if (put_ < 0 && errno == EINTR) continue;
    if (put_ <= 0) return 0;
    p += put_;
    n -= (size_t)put_;
  }
  return 1;
}

/* A frame's length: digits only, bounded, so garbage never becomes a huge read. */
static int parse_len(const char *s, size_t max, size_t *len) {
  if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 10) return 0;
  *len = strtoul(s, NULL, 10);
  return *len <= max;
}

/* The verb's options, as host/cli/thin-args.ts reads them: which take a value, and --config's. */
static const char *VALUED[] = { "config", "session", "mode", "schema", "limit", NULL };
static const char *VERB_NAMES[] = { "open", "snapshot", "click", "fill", "type", "press", "extract", "screenshot", "close", NULL };

static int listed(const char **list, const char *s, size_t n) {
  for (; *list; list++) if (strlen(*list) == n && strncmp(*list, s, n) == 0) return 1;
  return 0;
}

/* Finds --config (NULL: not given) and checks the line is one the thin client may take at all. */
static const char *scan_args(int *has_config) {
  const char *config = NULL;
  int verb = 0;
  *has_config = 0;
  /* bin/webcap.js tries the thin client only when this word is a verb */
  for (int i = 1; i < nargs; i++) {
    if (args[i][0] == '-' || (i > 1 && strcmp(args[i - 1], "--config") == 0)) continue;
    if (!listed(VERB_NAMES, args[i], strlen(args[i]))) fall_back("not a verb");
    break;
  }
  for (int i = 1; i < nargs; i++) {
    const char *a = args[i];
    if (strcmp(a, "--json") == 0 || strcmp(a, "-y") == 0 || strcmp(a, "--yes") == 0) continue;
    if (a[0] == '-' && a[1] == '-' && a[2]) {
      const char *eq = strchr(a, '=');
      size_t flag = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
      if (!listed(VALUED, a + 2, flag)) fall_back("an option the thin client does not take");
      const char *value = eq ? eq + 1 : (i + 1 < nargs ? args[++i] : NULL);
      if (!value) fall_back("an option without its value");
      if (flag == 6 && strncmp(a + 2, "config", 6) == 0) {
        if (*has_config) fall_back("--config twice");
        *has_config = 1;
        config = value;
      }
    } else if (a[0] == '-') fall_back("an option the thin client does not take");
    else if (!verb) verb = 1;
  }
  if (!verb) fall_back("no verb");
  return config;
}

/* The daemon's socket, refused unless it is ours alone (host/daemon/socket.ts checkSocket). */
static int dial(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) fall_back("no daemon socket");
  if (!S_ISSOCK(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077)) fall_back("a daemon socket that is not ours alone");
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen(path) >= sizeof addr.sun_path) fall_back("a socket path too long to dial");
  strcpy(addr.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) fall_back("no daemon answering");
  return fd;
}

int main(int argc, char **argv) {
  args = argv;
  nargs = argc;
  const char *daemon_env = getenv("WEBCAP_DAEMON");
  if (daemon_env && strcmp(daemon_env, "0") == 0) fall_back("WEBCAP_DAEMON=0");
  /* consent prompts on a terminal belong to the Node CLI */
  if (isatty(0) && isatty(2)) fall_back("a terminal to ask on");
  int has_config;
  const char *explicit_config = scan_args(&has_config);

  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) fall_back("no working directory");
  /* configFile(): --config, else $WEBCAP_CONFIG (set but empty: none), else ./agent_config.toml */
  const char *path = has_config ? explicit_config : getenv("WEBCAP_CONFIG");
  struct stat st;
  if (!has_config && !path && stat("agent_config.toml", &st) == 0) path = "agent_config.toml";
  char *file = path && *path ? resolve_path(cwd, path) : NULL;
  size_t contents_len = 0;
  char *contents = file ? read_config(file, &contents_len) : NULL;
  if (contents && !utf8_valid((unsigned char *)contents, contents_len)) fall_back("a config file that is not valid UTF-8");
  if (contents && memchr(contents, 0, contents_len)) fall_back("a config file with a NUL byte");
  /* socketFor(): a config naming its own workspace is left to the Node CLI */
  if (contents && strstr(contents, "workspace")) fall_back("a config that names its workspace");
  buf sock = {0};
  if (file) {
    puts_(&sock, file);
    *strrchr(sock.p, '/') = 0;
    sock.n = strlen(sock.p);
  } else puts_(&sock, cwd);
  puts_(&sock, sock.n && sock.p[sock.n - 1] == '/' ? ".webcap/daemon.sock" : "/.webcap/daemon.sock");

  int fd = dial(sock.p);
  hello_deadline = now_ms() + HELLO_WAIT_MS;
  const char *hello = "{\"op\":\"hello\",\"framing\":\"native\"}\n";
  if (!write_all(fd, hello, strlen(hello), 1)) fall_back("the daemon hung up");
  /* config_id: sha256 of JSON.stringify([configFile, contents, [[name, sha256hex(value) | null], ...]]) */
  buf id = {0};
  puts_(&id, "[");
  json_cstr_or_null(&id, file);
  puts_(&id, ",");
  json_cstr_or_null(&id, contents);
  puts_(&id, ",[");
  for (int names = 0;; names++) {
    char line[64];
    size_t len;
    if (!read_header(fd, line, sizeof line)) fall_back("no hello from the daemon");
    if (strcmp(line, "HELLO 1") == 0) break;
    if (names >= MAX_NAMES) fall_back("a hello with more names than a config has");
    if (strcmp(line, "HELLO 0") == 0) fall_back("the daemon runs commands in-process ([cli] daemon = false)");
    if (strncmp(line, "NAME ", 5) != 0 || !parse_len(line + 5, 1024, &len) || !len) fall_back("a hello that is not the daemon's");
    char name[1025];
    if (!read_full(fd, name, len)) fall_back("a hello cut short");
    name[len] = 0;
    if (memchr(name, 0, len) || memchr(name, '=', len)) fall_back("an environment name C cannot look up as Node does");
    const char *value = getenv(name);
    if (names) puts_(&id, ",");
    puts_(&id, "[");
    json_string(&id, name, len);
    puts_(&id, ",");
    if (value) {
      if (!utf8_valid((const unsigned char *)value, strlen(value))) fall_back("an environment value that is not valid UTF-8");
      sha256_ctx c;
      char hex[65];
      sha256_init(&c);
      sha256_update(&c, value, strlen(value));
      sha256_hex(&c, hex);
      puts_(&id, "\"");
      puts_(&id, hex);
      puts_(&id, "\"");
    } else puts_(&id, "null");
    puts_(&id, "]");
  }
  puts_(&id, "]]");
  sha256_ctx c;
  char config_id[65];
  sha256_init(&c);
  sha256_update(&c, id.p, id.n);
  sha256_hex(&c, config_id);

  buf req = {0};
  puts_(&req, "{\"op\":\"argv\",\"argv\":[");
  for (int i = 1; i < argc; i++) {
    if (i > 1) puts_(&req, ",");
    json_string(&req, argv[i], strlen(argv[i]));
  }
  puts_(&req, "],\"cwd\":");
  json_cstr_or_null(&req, cwd);
  puts_(&req, ",\"config\":");
  json_cstr_or_null(&req, file);
  puts_(&req, ",\"config_id\":\"");
  puts_(&req, config_id);
  puts_(&req, "\",\"caller\":");
  json_cstr_or_null(&req, caller_id());
  puts_(&req, ",\"tty\":false}\n");
  if (!write_all(fd, req.p, req.n, 1)) fall_back("the daemon hung up");

  /* From here the daemon may act: a call runs as long as it takes, and a lost daemon is an error, never a rerun. */
  hello_deadline = 0;
  for (;;) {
    char line[64];
    size_t len;
    if (!read_header(fd, line, sizeof line)) break;
    if (strcmp(line, "FALLBACK") == 0) { close(fd); fall_back("the daemon says the Node CLI must answer"); }
    if (strncmp(line, "EXIT ", 5) == 0 && parse_len(line + 5, 255, &len)) return (int)len;
    int out = strncmp(line, "OUT 1 ", 6) == 0 ? 1 : strncmp(line, "OUT 2 ", 6) == 0 ? 2 : 0;
    if (!out || !parse_len(line + 6, (size_t)1 << 30, &len)) break;
    char chunk[65536];
    while (len) {
      size_t take = len < sizeof chunk ? len : sizeof chunk;
      if (!read_full(fd, chunk, take)) break;
      write_all(out, chunk, take, 0);
      len -= take;
    }
    if (len) break;
  }
  fprintf(stderr, "error: internal: the webcap daemon stopped before answering (it crashed or was stopped); the next command starts a new one\n");
  return 1;
}
