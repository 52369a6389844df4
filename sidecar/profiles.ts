// Site profiles: per-domain named selectors, consent buttons, polite delays and
// tasks (site-profiles/*.json). Each file is checked against
// site-profiles/schema.json when loaded, so a typo stops start-up with the file
// and field named instead of surfacing later as a selector that never matches.
// The sidecar picks the profile whose domains match the page's hostname.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { WebcapError } from '../manifests/errors.js';
import { projectRoot } from '../manifests/load.js';
import { hostRuleMatches } from '../manifests/net/hostname.js';

export interface ConsentRules {
  banner?: string; accept?: string; reject?: string;
  iframe?: string; shadow_host?: string;
  /** What policy auto picks when auto_accept_cookies = "per_site". */
  default?: 'accept' | 'reject';
}

export interface TaskStep { call: string; args?: Record<string, unknown>; as?: string; description?: string }

export interface SiteTask {
  description?: string;
  needs: string[];
  inputs?: Record<string, { type: 'string' | 'number' | 'integer' | 'boolean'; description?: string; default?: unknown }>;
  steps: TaskStep[];
  returns?: string;
}

export interface SiteProfile {
  name: string;
  description?: string;
  verified?: boolean;
  note?: string;
  domains: string[];
  selectors?: Record<string, string>;
  consent?: ConsentRules;
  rate?: { min_delay_ms?: number; jitter_ms?: number; max_per_minute?: number };
  scroll?: { max_scrolls?: number; stop_when_no_new_items?: boolean; item_selector?: string; by?: number };
  pagination?: { next?: string; max_pages?: number };
  tasks?: Record<string, SiteTask>;
}

let validator: ValidateFunction | undefined;

/** The schema always comes from the project, so a user's profiles folder needs no copy of it. */
function validate(): ValidateFunction {
  if (!validator) {
    const schema = JSON.parse(readFileSync(join(projectRoot(), 'site-profiles', 'schema.json'), 'utf8'));
    validator = new Ajv({ allErrors: false, strict: false }).compile(schema);
  }
  return validator;
}

export function loadProfiles(dir: string): SiteProfile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'schema.json').sort()
    .map((f) => parseProfile(readFileSync(join(dir, f), 'utf8'), `${basename(dir)}/${f}`));
}

/** Parses and validates one profile; `file` (e.g. "site-profiles/x.json") names it in errors. */
export function parseProfile(source: string, file: string): SiteProfile {
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (err) {
    throw new WebcapError('invalid_params', `${file}: not valid JSON: ${(err as Error).message}`, { file });
  }
  const check = validate();
  if (!check(data)) {
    const { field, message } = describe(check.errors![0]);
    throw new WebcapError('invalid_params', `${file}: ${message}`, { file, field });
  }
  const profile = data as SiteProfile;
  // "profile:NAME" must find the file without guessing.
  const stem = basename(file, '.json');
  if (profile.name !== stem) {
    throw new WebcapError('invalid_params', `${file}: field "name" must be "${stem}" (the file name), not "${profile.name}"`, { file, field: 'name' });
  }
  return profile;
}

function describe(err: ErrorObject): { field: string; message: string } {
  const path = err.instancePath.split('/').slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
  const join2 = (a: string, b: string) => (a ? `${a}.${b}` : b);
  const p = err.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  const named = (err as ErrorObject & { propertyName?: string }).propertyName;
  if (named !== undefined) return { field: join2(path, named), message: `name "${named}" in field "${path}" ${err.message}` };
  if (p.missingProperty) return { field: join2(path, p.missingProperty), message: `field "${join2(path, p.missingProperty)}" is required` };
  if (p.additionalProperty) return { field: join2(path, p.additionalProperty), message: `unknown field "${join2(path, p.additionalProperty)}"` };
  const allowed = p.allowedValues ? `: ${p.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return { field: path, message: `field "${path || '(root)'}" ${err.message}${allowed}` };
}

export function profileFor(profiles: SiteProfile[], url: string): SiteProfile | undefined {
  let host: string;
  try { host = new URL(url).hostname; } catch { return undefined; }
  return profiles.find((p) => p.domains.some((d) => hostRuleMatches(host, d)));
}

export function profileNamed(profiles: SiteProfile[], name: string): SiteProfile {
  const profile = profiles.find((p) => p.name === name);
  if (!profile) {
    throw new WebcapError('invalid_params', `no site profile named "${name}" (have: ${profiles.map((p) => p.name).join(', ') || 'none'})`, { profile: name });
  }
  return profile;
}
