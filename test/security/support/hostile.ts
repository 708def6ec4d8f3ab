// fast-check arbitraries for hostile input: unicode edge cases, prototype-pollution keys, wrong
// types, deep nesting, malformed path segments and credential headers.
import fc from 'fast-check';

/**
 * Inputs that trigger the open bugs in known-bugs.test.ts are left out until they are fixed:
 * NUL in any string (PostgreSQL refuses it: 500), raw malformed percent-encoding in a path (500),
 * own `toString`/`valueOf` members (ajv uniqueItems: 500), and dot segments (which reach the
 * oauth issuer's plain-text 404). Set this to false to fuzz them too.
 */
export const AWAITING_FIX: boolean = false;

/** Keys that pollute prototypes when a parser or merge treats them naively. */
export const POLLUTION_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  ...(AWAITING_FIX ? [] : ['toString', 'valueOf']),
];

const clean = (s: string) => !AWAITING_FIX || !s.includes('\u0000');

const EDGE_STRINGS = [
  '',
  ' ',
  ...(AWAITING_FIX ? [] : ['\u0000']),
  '\uFEFF',
  '\u202Eevil',
  '\uD800',
  '\uDFFF',
  'e\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦',
  '𝕿𝖊𝖘𝖙𝖞',
  'ﷺ',
  'A'.repeat(70_000),
  '../../../etc/passwd',
  "'; DROP TABLE platform.licences; --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  'NaN',
  '-1',
  '1e309',
  'true',
  'null',
  '%00',
];

export const hostileString: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(...EDGE_STRINGS),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.constantFrom(...POLLUTION_KEYS),
  )
  .filter(clean);

const hostileKey = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...POLLUTION_KEYS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }).filter(clean) },
  { weight: 1, arbitrary: hostileString },
);

const scalar = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 2 ** 53, -(2 ** 63), 1e308, true, false, null),
);

/** Any JSON value, with hostile keys and strings, a few levels deep. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Raw JSON text nested `depth` deep (arrays or objects), which recursive code may choke on. */
export const deepNesting = fc
  .tuple(fc.integer({ min: 100, max: 100_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? '['.repeat(depth) + ']'.repeat(depth)
      : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  );

/** A valid body with one member replaced or added (often a pollution key), or junk of another type. */
export function mutatedBody(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = [...Object.keys(valid), ...POLLUTION_KEYS];
  const mutation = fc
    .tuple(fc.constantFrom(...keys), hostileJson)
    .map(([key, value]) =>
      JSON.stringify(Object.defineProperty({ ...valid }, key, { value, enumerable: true })),
    );
  return fc.oneof(
    { weight: 4, arbitrary: mutation },
    { weight: 2, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: deepNesting },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"__proto__":{"polluted":"yes"}}',
        '{"constructor":{"prototype":{"polluted":"yes"}}}',
        '{"a":1,"a":2}',
        '{oops',
        '',
        '\uFEFF{}',
        '[]',
        '"string"',
        '12',
      ),
    },
  );
}

/** One path segment: an encoded hostile string, or a raw malformed percent/dot sequence. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  hostileString
    .filter((s) => s.length > 0 && s.length < 5000)
    .map((s) => {
      try {
        return encodeURIComponent(s);
      } catch {
        return encodeURIComponent('\uFFFD');
      }
    }),
  fc.constantFrom(
    ...['%2F', 'x'.repeat(4000)],
    ...(AWAITING_FIX ? [] : ['%', '%ZZ', '%E0%A4%A', '%C0%AF', '%00', '..', '%2e%2e']),
  ),
);

/** A header value fetch can send (Latin-1 without controls), possibly base64 of random bytes. */
export const hostileHeader: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('base64')),
  fc.constantFrom('', '=', 'AAAA', '////', 'A'.repeat(6000), '{"appid":1}', 'null'),
);
