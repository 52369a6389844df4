// JSON Schema of agent_config.toml. Defaults live here (ajv useDefaults), so the
// schema is the one place that says what a key means and what it falls back to.
const strings = { type: 'array', items: { type: 'string' }, default: [] };
const limits = { type: 'object', additionalProperties: { type: 'integer', minimum: 1 }, default: {} };
// Sliding windows of a minute (per_capability, per_domain), an hour and a day; [[mcp.clients]] budgets take the same keys.
const budgetTables = {
  per_capability: limits, per_capability_per_hour: limits, per_capability_per_day: limits,
  per_domain: limits, per_domain_per_hour: limits, per_domain_per_day: limits,
};

export const configSchema = {
  type: 'object',
  additionalProperties: false,
  default: {},
  properties: {
    capabilities: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        browser: {
          type: 'object', additionalProperties: false, default: {},
          properties: {
            enabled: { type: 'boolean', default: true },
            headless: { type: 'boolean', default: true },
            domains_allowlist: { ...strings, default: ['*'] },
            domains_denylist: strings,
            max_actions_per_minute: { type: 'integer', minimum: 1, default: 60 },
            max_concurrent_sessions: { type: 'integer', minimum: 1, maximum: 100, default: 3 },
            auto_accept_cookies: { anyOf: [{ type: 'boolean' }, { const: 'per_site' }], default: false },
            respect_robots: { type: 'boolean', default: true },
            user_agent: { type: 'string', default: 'webcap/0.1 (+https://github.com/webcap/webcap)' },
            executable_path: { type: 'string' },
            remote_endpoint: { type: 'string' },
            remote_kind: { enum: ['playwright', 'cdp'], default: 'playwright' },
            idle_timeout_s: { type: 'integer', minimum: 1, default: 300 },
            default_timeout_ms: { type: 'integer', minimum: 1, default: 30000 },
            viewport_width: { type: 'integer', minimum: 100, maximum: 10000, default: 1920 },
            viewport_height: { type: 'integer', minimum: 100, maximum: 10000, default: 1080 },
            evaluate_enabled: { type: 'boolean', default: false },
            ignore_https_errors: { type: 'boolean', default: false },
            dialogs: { enum: ['dismiss', 'accept'], default: 'dismiss' },   // alert/confirm/prompt; beforeunload is always accepted
            provider: { enum: ['sidecar', 'playwright-mcp'], default: 'sidecar' },  // who drives the browser (host/providers/playwright-mcp)
            session_queue: { enum: ['wait', 'fail'], default: 'wait' },     // web.open over max_concurrent_sessions: wait for a slot, or fail at once
          },
        },
      },
    },
    budgets: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        ...budgetTables,
        jitter_ms: { type: 'integer', minimum: 0, default: 0 },
      },
    },
    robots: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        cache_ttl_s: { type: 'integer', minimum: 0, default: 86400 },
        fetch_timeout_ms: { type: 'integer', minimum: 1, default: 5000 },
      },
    },
    network: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        resolve: { type: 'object', additionalProperties: { type: 'string', pattern: '^(\\[[0-9a-fA-F:.]+\\]|[0-9a-fA-F:.]+)(:[0-9]{1,5})?$' }, default: {} },
        allow_private: strings,
      },
    },
    consent: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        non_interactive: { enum: ['deny', 'approve'], default: 'deny' },
        require: strings,   // capability ids that always ask
        waive: strings,     // capability ids that never ask
        approval_ttl_s: { type: 'integer', minimum: 0, default: 600 },
        gate_requests: { type: 'boolean', default: true },   // hold state-changing requests an action causes (sidecar/guard/effect-gate.ts)
        timeout_s: { type: 'integer', minimum: 1, default: 300 },  // a question only the console can answer waits this long, then is denied
      },
    },
    console: {
      type: 'object', additionalProperties: false, default: {},
      // The person's window (host/console): served by the daemon and `webcap mcp` when enabled, by `webcap run --console`.
      properties: {
        enabled: { type: 'boolean', default: true },
        listen: { type: 'string', default: '127.0.0.1:0' },   // HOST:PORT; not loopback only with --token-env
      },
    },
    handoff: {
      type: 'object', additionalProperties: false, default: {},
      // A CAPTCHA, 2FA prompt or login wall during a plan step: fail (captcha_detected), or ask the person to take over.
      properties: { on_captcha: { enum: ['fail', 'ask'], default: 'fail' } },
    },
    chain: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        path: { type: 'string', default: '.webcap/chain.jsonl' },
        signing_key_env: { type: 'string', minLength: 1 },                   // env var holding an Ed25519 private key (PEM): signed checkpoints
        checkpoint_every: { type: 'integer', minimum: 1, default: 1000 },   // entries between signed checkpoints (one is also written at close)
      },
    },
    plans: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        max_steps: { type: 'integer', minimum: 1, default: 100000 },        // calls + function applications + loop iterations
        max_duration_s: { type: 'integer', minimum: 1, default: 3600 },
        max_bytes: { type: 'integer', minimum: 1, default: 1048576 },       // larger plan files are refused before reading (invalid_params)
      },
    },
    workspace: {
      type: 'object', additionalProperties: false, default: {},
      properties: { path: { type: 'string', default: '.webcap' } },
    },
    logging: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        level: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
        file: { type: 'string', default: '.webcap/webcap.log' },
      },
    },
    cache: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        enabled: { type: 'boolean', default: true },
        ttl_s: { type: 'integer', minimum: 0, default: 86400 },
        max_bytes: { type: 'integer', minimum: 0, default: 1073741824 },
      },
    },
    store: {
      type: 'object', additionalProperties: false, default: {},
      // Shared governance state (host/store): without url, memory + workspace (one host); with it, Redis (many hosts).
      properties: {
        url: { type: 'string' },                       // redis://[user:pass@]host:port/db or rediss:// (TLS)
        prefix: { type: 'string', default: 'webcap:' }, // namespaces every key
        password_env: { type: 'string' },              // env var holding the password (instead of the URL)
      },
    },
    metrics: {
      type: 'object', additionalProperties: false, default: {},
      // Prometheus metrics (host/metrics): recorded unless switched off; the daemon serves them at listen.
      properties: {
        enabled: { type: 'boolean', default: true },
        listen: { type: 'string' },   // HOST:PORT for the daemon's /metrics and /healthz
        token_env: { type: 'string' }, // env var holding the bearer token /metrics asks for (needed off loopback)
      },
    },
    report: {
      type: 'object', additionalProperties: false, default: {},
      // Run reports: a screenshot after every browser step, or only after a failed one.
      properties: {
        screenshots: { enum: ['each_step', 'on_error'], default: 'on_error' },
        trace: { enum: ['off', 'on-failure', 'always'], default: 'off' },   // a Playwright trace per session, in <workspace>/traces
      },
    },
    mcp: {
      type: 'object', additionalProperties: false, default: {},
      // Page-derived text in MCP results goes out between per-call random markers (host/untrusted/untrusted.ts).
      properties: {
        wrap_untrusted: { type: 'boolean', default: true },
        dynamic_tools: { type: 'boolean', default: false },   // page tools listed only while a session is open
        tool_list: { enum: ['lean', 'full'], default: 'lean' },   // lean: the agent-loop tools, compact (host/mcp/lean.ts); full: every capability verbatim
        after_action: { enum: ['diff', 'snapshot', 'none'], default: 'diff' },   // what an action's answer shows of the page (host/mcp/after-action.ts)
        // MCP over HTTP with several principals: each its own token (from an env var) and name; allowlist and budgets only narrow the host's.
        clients: {
          type: 'array', default: [],
          items: {
            type: 'object', additionalProperties: false, required: ['name', 'token_env'],
            properties: {
              name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' },
              token_env: { type: 'string', minLength: 1 },
              domains_allowlist: { type: 'array', items: { type: 'string' } },
              budgets: { type: 'object', additionalProperties: false, properties: budgetTables },
              // Who may answer this client's consent questions: nobody, only the console, or only its own MCP form (absent: every channel the host has).
              consent: { enum: ['deny', 'console', 'mcp_elicitation'] },
            },
          },
        },
      },
    },
    playwright_mcp: {
      type: 'object', additionalProperties: false, default: {},
      // An existing Playwright MCP server as the browser provider: spawned (command) or reached (url).
      properties: {
        command: { type: 'array', items: { type: 'string' }, minItems: 1 },
        url: { type: 'string', pattern: '^https?://' },
      },
    },
    search: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        default_source: { enum: ['serpapi', 'exa', 'auto'], default: 'auto' },
        timeout_ms: { type: 'integer', minimum: 1, default: 15000 },
        breaker_failures: { type: 'integer', minimum: 1, default: 3 },   // consecutive failures that open a provider's circuit
        breaker_open_s: { type: 'integer', minimum: 1, default: 300 },   // how long it then stays open
        serpapi: {
          type: 'object', additionalProperties: false, default: {},
          properties: {
            endpoint: { type: 'string', default: 'https://serpapi.com/search.json' },
            api_key_env: { type: 'string', default: 'SERPAPI_API_KEY' },
            engine: { enum: ['google', 'bing'], default: 'google' },
            daily_quota: { type: 'integer', minimum: 0 },
            monthly_quota: { type: 'integer', minimum: 0 },
          },
        },
        exa: {
          type: 'object', additionalProperties: false, default: {},
          properties: {
            endpoint: { type: 'string', default: 'https://api.exa.ai/search' },
            api_key_env: { type: 'string', default: 'EXA_API_KEY' },
            type: { enum: ['neural', 'keyword', 'auto'], default: 'neural' },
            daily_quota: { type: 'integer', minimum: 0 },
            monthly_quota: { type: 'integer', minimum: 0 },
          },
        },
        apify: {
          type: 'object', additionalProperties: false, default: {},
          properties: {
            endpoint: { type: 'string', default: 'https://api.apify.com/v2' },
            token_env: { type: 'string', default: 'APIFY_TOKEN' },
            timeout_ms: { type: 'integer', minimum: 1, default: 300000 },  // run-sync waits for the whole actor run (Apify stops at 300 s)
            max_results: { type: 'integer', minimum: 1, maximum: 500, default: 20 },
            daily_quota: { type: 'integer', minimum: 0 },
            monthly_quota: { type: 'integer', minimum: 0 },
            actors: {
              type: 'object', additionalProperties: false, default: {},
              properties: {
                google_maps: { type: 'string', default: 'compass~crawler-google-places' },
                yelp: { type: 'string' },
                thefork: { type: 'string' },
              },
            },
            // Actor input per source; string values may hold {query} {city} {country} {location} {max_results}.
            inputs: {
              type: 'object', additionalProperties: false, default: {},
              properties: {
                google_maps: { type: 'object' },
                yelp: { type: 'object' },
                thefork: { type: 'object' },
              },
            },
          },
        },
      },
    },
    cli: {
      type: 'object', additionalProperties: false, default: {},
      properties: { daemon: { type: 'boolean', default: true } },   // webcap call/run through the workspace's daemon
    },
    profiles: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        path: { type: 'string' },                                   // default <workspace>/profiles
        key_env: { type: 'string', default: 'WEBCAP_PROFILE_KEY' }, // env var holding the AES-256-GCM key
        max_age_days: { type: 'integer', minimum: 1, default: 30 }, // older profiles are not restored
      },
    },
    secrets: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        path: { type: 'string' },                                    // default <workspace>/secrets.vault
        key_env: { type: 'string', default: 'WEBCAP_SECRETS_KEY' },  // env var holding the AES-256-GCM key
        dlp: { type: 'boolean', default: true },                     // the network guard refuses a secret sent off its origins
      },
    },
    redaction: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        builtin: { type: 'array', items: { enum: ['email', 'card', 'token'] }, default: ['email', 'card', 'token'] },
        patterns: strings,  // extra regular expressions
      },
    },
  },
} as const;
