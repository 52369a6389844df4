// JSON Schema of agent_config.toml. Defaults live here (ajv useDefaults), so the
// schema is the one place that says what a key means and what it falls back to.
const strings = { type: 'array', items: { type: 'string' }, default: [] };

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
          },
        },
      },
    },
    budgets: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        per_capability: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 }, default: {} },
        per_domain: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 }, default: {} },
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
        resolve: { type: 'object', additionalProperties: { type: 'string' }, default: {} },
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
      },
    },
    chain: {
      type: 'object', additionalProperties: false, default: {},
      properties: { path: { type: 'string', default: '.webcap/chain.jsonl' } },
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
    redaction: {
      type: 'object', additionalProperties: false, default: {},
      properties: {
        builtin: { type: 'array', items: { enum: ['email', 'card', 'token'] }, default: ['email', 'card', 'token'] },
        patterns: strings,  // extra regular expressions
      },
    },
  },
} as const;
