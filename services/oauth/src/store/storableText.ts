// What PostgreSQL cannot store: NUL in text, NUL and lone surrogates in jsonb.

/** A key holding NUL names no row: looking it up would only make PostgreSQL fail. */
export const holdsNul = (value: string): boolean => value.includes('\u0000');

/**
 * JSON text (as JSON.stringify writes it) that jsonb refuses: a \u0000 escape, or a lone
 * surrogate (JSON.stringify escapes only unpaired ones). An even run of backslashes before the
 * `u` is an escaped backslash followed by plain text, which is storable.
 */
const UNSTORABLE_ESCAPE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

export const jsonStorable = (json: string): boolean =>
  !json.includes('\\u') || !UNSTORABLE_ESCAPE.test(json);
