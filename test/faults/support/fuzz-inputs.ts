import fc from 'fast-check';

/*
 * Generated request parts for the fuzz test: ids that are valid, nearly valid or junk; bodies that
 * are valid, mutated (wrong types, missing and extra fields, huge strings, unicode, nested junk),
 * oversized (> 64 KiB) or not JSON at all.
 */

const nasty = [
  '',
  ' ',
  'a b',
  '../etc',
  '..',
  '%00',
  '\u0000',
  'x'.repeat(65),
  '*',
  '>',
  'a.b',
  'ü',
  '😀',
  '<script>',
  "' OR 1=1 --",
  'null',
  'undefined',
  '{}',
  '[]',
  '0',
  '-1',
  'NaN',
];

/** A path segment as it goes into the URL (encoded, or raw percent junk). */
export function idSegment(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(valid) },
    { weight: 2, arbitrary: fc.constantFrom(...nasty).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constantFrom('%E0%A4%A', '%', '%%', '%FF', '%C0%AF') },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }).map(encodeURIComponent) },
  );
}

export function uuidSegment(valid: () => string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(null).map(valid) },
    { weight: 1, arbitrary: fc.uuid().map((u) => u) },
    { weight: 2, arbitrary: idSegment('0') },
  );
}

const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1e309 === Infinity ? 1e308 : 0,
    '',
    ' ',
    '\u0000',
    '\u202e',
    '𝕏'.repeat(100),
    [],
    {},
    { $ne: 1 },
    ['a'],
    { __proto__: { admin: true } },
  ),
  fc.integer({ min: 1000, max: 5000 }).map((n) => 'ä'.repeat(n)),
  fc.constantFrom('Which one?\u0000', 'a\u0000b', 'line\nbreak\ttab', '\ud800', 'zero\u200bwidth'),
);

/** Deep nesting: `{"a":{"a":…}}` `depth` levels down. */
const nested = fc
  .integer({ min: 50, max: 3000 })
  .map((depth) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown);

/** A valid body changed: one field replaced, removed, or a field added. */
export function mutated(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  return fc.oneof(
    fc.tuple(fc.constantFrom(...keys), junk).map(([k, v]) => ({ ...valid, [k]: v })),
    fc.subarray(keys).map((kept) => Object.fromEntries(kept.map((k) => [k, valid[k]]))),
    fc.tuple(fc.string({ maxLength: 12 }), junk).map(([k, v]) => ({ ...valid, [k || 'extra']: v })),
    fc.constant(valid),
  );
}

export type FuzzBody = { json: unknown } | { raw: string; contentType?: string };

/** What one request carries as body. */
export function body(valid: Record<string, unknown> | null): fc.Arbitrary<FuzzBody> {
  return fc.oneof(
    { weight: 6, arbitrary: (valid ? mutated(valid) : junk).map((json) => ({ json })) },
    { weight: 2, arbitrary: junk.map((json) => ({ json })) },
    { weight: 1, arbitrary: nested.map((json) => ({ json })) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }).map((raw) => ({ raw: `{${raw}` })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', 'null', '{', '{"a":', '[1,2', '\u0000', 'true', '"x"')
        .map((raw) => ({ raw })),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 66_000, max: 90_000 })
        .map((n) => ({ json: { ...(valid ?? {}), pergunta: 'x'.repeat(n) } })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml')
        .map((contentType) => ({ raw: 'a=1', contentType })),
    },
  );
}

/** A query string: the route's own parameters with junk values, and stray ones. */
export function query(params: Record<string, string[]>): fc.Arbitrary<string> {
  const entries = Object.entries(params);
  return fc
    .tuple(
      fc
        .subarray(entries)
        .chain((chosen) =>
          fc.tuple(
            ...chosen.map(([k, good]) =>
              fc
                .oneof(
                  fc.constantFrom(...good),
                  fc.string({ unit: 'binary', maxLength: 20 }),
                  fc.constantFrom('-1', '0', '51', '1e3', '%', ''),
                )
                .map((v) => [k, v] as const),
            ),
          ),
        ),
      fc.option(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))),
    )
    .map(([pairs, stray]) => {
      const all = [...pairs, ...(stray ? [stray] : [])];
      return all.length === 0
        ? ''
        : `?${all.map(([k, v]) => `${encodeURIComponent(k)}=${v === '%' ? '%' : encodeURIComponent(v)}`).join('&')}`;
    });
}

/** Junk on an agent-event subject: raw bytes, non-JSON, non-envelopes, envelopes with junk data. */
export function agentMessage(
  type: string,
  projectId: string,
  validData: Record<string, unknown>,
  eventId: () => string,
): fc.Arbitrary<Uint8Array> {
  const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  const envelope = (data: unknown, over: Record<string, unknown> = {}) => ({
    eventId: eventId(),
    type,
    schemaVersion: 1,
    occurredAt: new Date().toISOString(),
    projectId,
    correlationId: 'fuzz',
    causationId: null,
    data,
    ...over,
  });
  return fc.oneof(
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'binary', maxLength: 100 }).map((s) => new TextEncoder().encode(s)),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(enc) },
    { weight: 5, arbitrary: mutated(validData).map((data) => enc(envelope(data))) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'eventId',
            'type',
            'schemaVersion',
            'occurredAt',
            'projectId',
            'correlationId',
            'data',
          ),
          junk,
        )
        .map(([k, v]) => enc(envelope(validData, { [k]: v }))),
    },
    { weight: 1, arbitrary: nested.map((deep) => enc(envelope({ ...validData, extra: deep }))) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...Object.keys(validData)).map((k) =>
        enc(
          envelope({
            ...validData,
            [k]: typeof validData[k] === 'string' ? `${String(validData[k])}\u0000` : validData[k],
          }),
        ),
      ),
    },
  );
}
