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

/**
 * How deep arrays and objects may nest in a validated value. Deeper values are refused before ajv
 * sees them: JSON.stringify, structuredClone and ajv's own deep equality (uniqueItems) recurse and
 * throw RangeError far below what a 1 MB body can nest (about 500,000 levels).
 */
export const MAX_JSON_DEPTH = 32;

/** The first member nested past MAX_JSON_DEPTH, found without recursion. */
function tooDeep(value: unknown): ValidationIssue | undefined {
  const stack: [unknown, number, string][] = [[value, 0, '']];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [member, depth, path] = next;
    if (member === null || typeof member !== 'object') continue;
    if (depth === MAX_JSON_DEPTH)
      return { path, message: `nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` };
    for (const [key, inner] of Object.entries(member))
      stack.push([inner, depth + 1, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
  }
  return undefined;
}

/** Validates (and fills defaults into) `value`; never throws on bad input. */
export function validate<S extends TSchema>(schema: S, value: unknown): Validation<Static<S>> {
  const deep = tooDeep(value);
  if (deep) return { ok: false, issues: [deep] };
  const fn = compile(schema);
  if (fn(value)) return { ok: true, value: value as Static<S> };
  return { ok: false, issues: (fn.errors ?? []).map(describe) };
}

export { ajv };
