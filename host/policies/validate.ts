// Checks params against the manifest's input_schema (ajv, compiled once per
// manifest, on its first call) and names the offending field and what was expected.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { WebcapError } from '../../manifests/errors.js';
import type { Manifest } from '../../manifests/load.js';
import type { Policy } from './types.js';

/**
 * One validator per manifest, compiled when its capability is first called: compiling all of them
 * costs the start of every process (`webcap mcp`'s first answer, each CLI command) for tools it may never call.
 */
export function compileValidators(manifests: Manifest[]): Pick<Map<string, ValidateFunction>, 'get'> {
  const ajv = new Ajv({ allErrors: false, strict: false });
  const schemas = new Map(manifests.map((m) => [m.id, m.input_schema]));
  const compiled = new Map<string, ValidateFunction>();
  return {
    get(id: string) {
      let check = compiled.get(id);
      const schema = schemas.get(id);
      if (!check && schema) compiled.set(id, (check = ajv.compile(schema)));
      return check;
    },
  };
}

function describeAjvError(err: ErrorObject): { field: string; message: string } {
  const base = err.instancePath.split('/').filter(Boolean).join('.');
  const p = err.params as Record<string, unknown>;
  if (err.keyword === 'required') {
    const field = [base, p.missingProperty].filter(Boolean).join('.');
    return { field, message: `missing required field "${field}"` };
  }
  if (err.keyword === 'additionalProperties') {
    const field = [base, p.additionalProperty].filter(Boolean).join('.');
    return { field, message: `unknown field "${field}"` };
  }
  const field = base || '(params)';
  const expected = err.keyword === 'enum' ? `one of ${JSON.stringify(p.allowedValues)}` : err.message;
  return { field, message: `field "${field}" must be ${String(expected).replace(/^must (be )?/, '')}` };
}

export function validatePolicy(validators: Pick<Map<string, ValidateFunction>, 'get'>): Policy {
  return async (call, next) => {
    const check = validators.get(call.capability)!;
    if (!check(call.params)) {
      const { field, message } = describeAjvError(check.errors![0]);
      throw new WebcapError('invalid_params', `${call.capability}: ${message}`, { field });
    }
    const urlParam = call.manifest.url_param;
    if (urlParam && typeof call.params[urlParam] === 'string') {
      try {
        call.url = new URL(call.params[urlParam] as string);
      } catch {
        throw new WebcapError('invalid_params', `${call.capability}: field "${urlParam}" must be an absolute URL`, { field: urlParam });
      }
    }
    return next();
  };
}
