/* Text the native client sends: a growable buffer, strict UTF-8, the one JSON
 * string printer and Node's path.resolve. Included by webcap-thin.c (which
 * defines fall_back) so it builds with one compiler command. */
#include <stdlib.h>
#include <string.h>

static void fall_back(const char *why);

/* A growable byte buffer; running out of memory is a reason to let Node answer. */
typedef struct { char *p; size_t n, cap; } buf;

static void put(buf *b, const void *data, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = (b->n + n + 1) * 2;
    char *p = realloc(b->p, cap);
    if (!p) fall_back("out of memory");
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, data, n);
  b->n += n;
  b->p[b->n] = 0;
}
static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

/* Strict UTF-8 (no overlongs, surrogates or values past U+10FFFF): what Node
 * would decode without replacing a byte, so both sides hash the same text. */
static int utf8_valid(const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned c = s[i];
    size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!len || i + len > n) return 0;
    unsigned cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
    for (size_t k = 1; k < len; k++) {
      if ((s[i + k] & 0xc0) != 0x80) return 0;
      cp = cp << 6 | (s[i + k] & 0x3f);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return 0;
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return 0;
    i += len;
  }
  return 1;
}

/* The one JSON string printer: byte for byte what JSON.stringify prints for
 * valid UTF-8 (`"` and `\` escaped, \b \f \n \r \t, other control bytes as
 * \u00xx, everything else as is). Invalid UTF-8 is never guessed at. */
static void json_string(buf *b, const char *s, size_t n) {
  if (!utf8_valid((const unsigned char *)s, n)) fall_back("a string that is not valid UTF-8");
  puts_(b, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\f' ? "\\f" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
    char hex[7];
    if (!esc && c < 0x20) { snprintf(hex, sizeof hex, "\\u%04x", c); esc = hex; }
    if (esc) puts_(b, esc); else put(b, &c, 1);
  }
  puts_(b, "\"");
}
static void json_cstr_or_null(buf *b, const char *s) { if (s) json_string(b, s, strlen(s)); else puts_(b, "null"); }

/* Node's path.resolve(cwd, p) without touching the disk: absolute, no `.`/`..`/`//`, no trailing slash. */
static char *resolve_path(const char *cwd, const char *p) {
  buf joined = {0}, out = {0};
  if (p[0] != '/') { puts_(&joined, cwd); puts_(&joined, "/"); }
  puts_(&joined, p);
  size_t *starts = calloc(joined.n + 1, sizeof *starts), depth = 0;
  if (!starts) fall_back("out of memory");
  puts_(&out, "");
  for (char *seg = strtok(joined.p, "/"); seg; seg = strtok(NULL, "/")) {
    if (strcmp(seg, ".") == 0) continue;
    if (strcmp(seg, "..") == 0) { if (depth) out.n = starts[--depth], out.p[out.n] = 0; continue; }
    starts[depth++] = out.n;
    puts_(&out, "/");
    puts_(&out, seg);
  }
  if (!out.n) puts_(&out, "/");
  free(starts);
  free(joined.p);
  return out.p;
}
