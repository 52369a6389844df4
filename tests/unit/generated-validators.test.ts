// The config's and the site profiles' validators are generated from their
// schemas (scripts/gen-validators.ts); a schema edited without regenerating
// fails here, and the generated config validator fills defaults as the schema says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { generatedValidator, VALIDATORS } from '../../scripts/gen-validators.js';
import { loadConfig } from '../../host/config/load.js';
import { projectRoot } from '../../manifests/load.js';

it.each(VALIDATORS.map((t) => [t.path, t] as const))('%s matches its schema (npm run types)', (path, target) => {
  expect(readFileSync(join(projectRoot(), path), 'utf8')).toBe(generatedValidator(target));
});

it('a schema change shows in the generated code (the check above can fail)', () => {
  const [config] = VALIDATORS;
  const changed = { ...config, schema: () => ({ ...(config.schema() as Record<string, unknown>), required: ['extra_section'] }) };
  expect(generatedValidator(changed)).not.toBe(generatedValidator(config));
});

it('the generated config validator fills defaults and names an unknown key with its line', () => {
  expect(loadConfig({}).capabilities.browser.max_concurrent_sessions).toBeGreaterThan(0);
  expect(() => loadConfig({ capabilities: { browser: { max_concurent_sessions: 2 } } })).toThrow(/unknown key "capabilities\.browser\.max_concurent_sessions"/);
});
