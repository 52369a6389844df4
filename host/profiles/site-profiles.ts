// Reads site-profiles/*.json and checks each file against
// site-profiles/schema.json, so a typo stops start-up with the file and field
// named instead of surfacing later as a selector that never matches. The host
// does this (not the sidecar) while the sidecar process boots, and sends the
// result in its init.
import { readdirSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { WebcapError } from '../../manifests/errors.js';
import type { SiteProfile } from '../../manifests/site-profile.js';
import { MiB, parseJsonSafely, readTextSafelySync } from '../files/safe-read.js';
// site-profiles/schema.json compiled ahead of time (scripts/gen-validators.ts).
import { validate } from './profile-validator.generated.js';

const PROFILE_FILE = { what: 'site profile', maxBytes: MiB };

export function loadProfiles(dir: string): SiteProfile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'schema.json').sort()
    .map((f) => parseProfile(readTextSafelySync(join(dir, f), PROFILE_FILE), `${basename(dir)}/${f}`));
}

/** Parses and validates one profile; `file` (e.g. "site-profiles/x.json") names it in errors. */
function parseProfile(source: string, file: string): SiteProfile {
  // The parser's own message quotes the text: the error names the problem only.
  const data = parseJsonSafely(source, file, 'site profile');
  if (!validate(data)) {
    const { field, message } = describe(validate.errors![0]);
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

