// JSON bodies on the wire: encoding for publishes, tolerant decoding for deliveries.
export function encodeJson(body: unknown): Buffer {
  // A handler returning nothing still answers: `undefined` travels as JSON null.
  return Buffer.from(JSON.stringify(body ?? null), 'utf8');
}

export type Decoded = { ok: true; value: unknown } | { ok: false; reason: string };

export function decodeJson(content: Buffer): Decoded {
  try {
    return { ok: true, value: JSON.parse(content.toString('utf8')) as unknown };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : 'not JSON' };
  }
}

/** Header on a reply that carries a failure ({name, message}) instead of a result. */
export const ERROR_REPLY_HEADER = 'x-error';

export interface ErrorReply {
  name: string;
  message: string;
}

export function readErrorReply(value: unknown): ErrorReply {
  const { name, message } = (value ?? {}) as Partial<Record<keyof ErrorReply, unknown>>;
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : 'the worker failed',
  };
}
