// One ajv instance for the whole process: every schema is compiled once and cached by identity.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Static, TSchema } from '@sinclair/typebox';

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM interop.
const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule;

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: false });
addFormats(ajv);

const compiled = new WeakMap<TSchema, ValidateFunction>();

export interface ValidationIssue {
  /** JSON pointer of the offending member, '' for the root */
  path: string;
  message: string;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

function compile(schema: TSchema): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

function describe(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  const member = typeof params.missingProperty === 'string' ? `/${params.missingProperty}` : '';
  const extra =
    typeof params.additionalProperty === 'string' ? ` (${params.additionalProperty})` : '';
  return {
    path: `${error.instancePath}${member}`,
    message: `${error.message ?? 'is invalid'}${extra}`,
  };
}

/** Validates (and fills defaults into) `value`; never throws on bad input. */
export function validate<S extends TSchema>(schema: S, value: unknown): Validation<Static<S>> {
  const fn = compile(schema);
  if (fn(value)) return { ok: true, value: value as Static<S> };
  return { ok: false, issues: (fn.errors ?? []).map(describe) };
}

export { ajv };
