// Environment variables read and validated once: each field is its env name, type, default and doc.
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { validate } from '@idv/contracts';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A config definition: keys are environment variable names, values TypeBox schemas with a description. */
export function defineConfig<P extends TProperties>(properties: P): TObject<P> {
  return Type.Object(properties, { additionalProperties: false });
}

function schemaType(schema: TSchema): string | undefined {
  const type = (schema as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

function coerce(raw: string, schema: TSchema): unknown {
  switch (schemaType(schema)) {
    case 'integer':
    case 'number':
      return raw.trim() === '' ? raw : Number(raw);
    case 'boolean':
      if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
      if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
      return raw;
    default:
      return raw;
  }
}

/** Reads `definition` from `env`; throws one ConfigError naming every bad variable. */
export function loadConfig<P extends TProperties>(
  definition: TObject<P>,
  env: Record<string, string | undefined> = process.env,
): Static<TObject<P>> {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(definition.properties)) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') values[name] = coerce(raw, schema);
  }
  const result = validate(definition, values);
  if (result.ok) return result.value;
  const problems = result.issues.map(
    (issue) => `${issue.path.slice(1) || 'config'} ${issue.message}`,
  );
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}

/** Rows for the configuration table of docs/configuration.md. */
export function describeConfig(
  definition: TObject,
): { name: string; default: string; doc: string }[] {
  return Object.entries(definition.properties).map(([name, schema]) => {
    const { default: fallback, description } = schema as {
      default?: unknown;
      description?: string;
    };
    return {
      name,
      default: fallback === undefined ? '' : String(fallback),
      doc: description ?? '',
    };
  });
}
