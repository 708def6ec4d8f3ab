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

interface Frame {
  member: object;
  depth: number;
  key: string;
  parent: Frame | undefined;
}

/** A frame's JSON Pointer, built only for the one member reported. */
function pointerOf(frame: Frame): string {
  const keys: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent)
    keys.push(`/${f.key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  return keys.reverse().join('');
}

/**
 * The first member nested past MAX_JSON_DEPTH, found without recursion. validate() applies it; JSON
 * read from outside and kept or passed on without a schema (a provider's answer or callback) is
 * held to it on its own before anything serialises it again.
 */
export function jsonNestingIssue(value: unknown): ValidationIssue | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Frame[] = [{ member: value, depth: 0, key: '', parent: undefined }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (frame.depth === MAX_JSON_DEPTH)
      return {
        path: pointerOf(frame),
        message: `nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`,
      };
    for (const [key, inner] of Object.entries(frame.member))
      if (inner !== null && typeof inner === 'object')
        stack.push({ member: inner as object, depth: frame.depth + 1, key, parent: frame });
  }
  return undefined;
}

/** Validates (and fills defaults into) `value`; never throws on bad input. */
export function validate<S extends TSchema>(schema: S, value: unknown): Validation<Static<S>> {
  const deep = jsonNestingIssue(value);
  if (deep) return { ok: false, issues: [deep] };
  const fn = compile(schema);
  if (fn(value)) return { ok: true, value: value as Static<S> };
  return { ok: false, issues: (fn.errors ?? []).map(describe) };
}

export { ajv };
