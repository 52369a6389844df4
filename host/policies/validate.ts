// Checks params against the manifest's input_schema (ajv, compiled once per
// manifest at start) and names the offending field and what was expected.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { WebcapError } from '../../manifests/errors.js';
import type { Manifest } from '../../manifests/load.js';
import type { Policy } from './types.js';

export function compileValidators(manifests: Manifest[]): Map<string, ValidateFunction> {
  const ajv = new Ajv({ allErrors: false, strict: false });
  return new Map(manifests.map((m) => [m.id, ajv.compile(m.input_schema)]));
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

export function validatePolicy(validators: Map<string, ValidateFunction>): Policy {
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
