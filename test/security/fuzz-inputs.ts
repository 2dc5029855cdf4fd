import fc from 'fast-check';

/**
 * Hostile inputs: the strings, numbers and bodies an attacker or a broken client sends. Built to
 * be mostly invalid, with enough valid-shaped values mixed in to reach past validation.
 */
const HOSTILE_STRINGS = [
  '{}',
  ':',
  '::1',
  '/',
  '\\',
  '..',
  '\u0000',
  'a\u0000b',
  '%00',
  '%',
  '%2F',
  "' OR 1=1 --",
  "'; DROP TABLE players; --",
  "]] redis.call('FLUSHALL') --",
  "\"); redis.call('FLUSHDB'",
  '$1',
  '*',
  '?',
  '#',
  '&',
  '=',
  '[]',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-Infinity',
  ' ',
  '\t',
  '\n',
  '\u202e',
  '\ud83d',
  '😀🏆',
  'é',
  'ß'.repeat(40),
  'a'.repeat(65),
  'a'.repeat(129),
  'x'.repeat(5000),
  '<script>alert(1)</script>',
];

/** Numbers at the edges of doubles, and the same as strings (a score may be sent as a decimal string). */
export const HUGE_NUMBERS = [1e308, -1e308, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_SAFE_INTEGER + 2, -0];
const NUMBER_STRINGS = [
  ...HUGE_NUMBERS.map(String),
  '9007199254740993',
  '1e309',
  '-1e309',
  '0x10',
  '1_000',
  ' 12 ',
  '1e',
  '.',
  '-',
  '+5',
  '05',
  '1.5',
  '-1',
  '0',
  '1'.repeat(400),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBER_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 8 })).map(([a, b]) => a + b) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...HUGE_NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any JSON value an attacker could put in a field, valid or not. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.array(hostileNumber, { maxLength: 3 }) },
);

/** An object with the endpoint's own keys (each maybe absent) holding hostile values. */
export function hostileObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(fields, { requiredKeys: [] });
}

/** What goes on the wire: a content type (or none) and the body's exact text (or no body). */
export interface WireBody {
  contentType?: string;
  text?: string;
  /** Sent as a JSON object this many bytes long (kept short here so counterexamples stay readable). */
  oversized?: number;
}

const RAW_TEXTS = ['{', '{"score": 1e400}', '{"score": -1e400}', '[1,2', 'NaN', "{'a': 1}", '\u0000', '{"a":1}{"b":2}', '""', 'null'];

export function wireBody(object?: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<WireBody> {
  const json = (value: fc.Arbitrary<unknown>) =>
    value.map((v): WireBody => ({ contentType: 'application/json', text: JSON.stringify(v) ?? 'null' }));
  const others: fc.WeightedArbitrary<WireBody>[] = [
    { weight: 2, arbitrary: json(fc.jsonValue({ maxDepth: 3 })) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_TEXTS).map((text): WireBody => ({ contentType: 'application/json', text })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((text): WireBody => ({ contentType: 'application/json', text })) },
    {
      weight: 1,
      arbitrary: fc.record({
        contentType: fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
          'application/xml',
        ),
        text: fc.constantFrom('score=1', '<a/>', '{"name":"x"}'),
      }),
    },
    { weight: 1, arbitrary: fc.constant<WireBody>({ contentType: 'application/json', oversized: 70 * 1024 }) },
    { weight: 1, arbitrary: fc.constant<WireBody>({}) },
  ];
  return object ? fc.oneof({ weight: 6, arbitrary: json(object) }, ...others) : fc.oneof(...others);
}

/** Hostile values, with real ones (when there are any) mixed in. */
function withKnown<T>(hostile: fc.Arbitrary<T>, known: T[], knownWeight: number): fc.Arbitrary<T> {
  return known.length > 0
    ? fc.oneof({ weight: knownWeight, arbitrary: fc.constantFrom(...known) }, { weight: 5, arbitrary: hostile })
    : hostile;
}

/** Percent-encodes the UTF-8 bytes of any string, lone surrogates included (as U+FFFD). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/**
 * A path segment: a hostile or known value, encoded, or raw text that is itself the attack. Empty
 * and dot segments are left out: they make the request another route's, not a value of this one.
 */
export function pathSegment(known: string[]): fc.Arbitrary<string> {
  const hostile = fc.oneof(
    { weight: 5, arbitrary: hostileString.map(percentEncode) },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/) },
    { weight: 1, arbitrary: fc.constantFrom('%00', '%', '%E0%A4%A', '%2F', '%FF', '%C0%AF', '{}', ':id', '%7B%7D', "'%20OR%201=1%20--") },
  );
  return withKnown(hostile, known.map(percentEncode), 3).filter((segment) => !/^(\.|%2e){0,2}$/i.test(segment));
}

/** A query value, or several (a repeated parameter). */
export function queryValue(known: string[] = []): fc.Arbitrary<string | string[]> {
  const single = withKnown(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...NUMBER_STRINGS, 'true', 'false', '1', '0', 'yes', '', 'clans', 'players') },
      { weight: 3, arbitrary: hostileString },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 2000 }).map(String) },
    ),
    known,
    4,
  );
  return fc.oneof({ weight: 5, arbitrary: single }, { weight: 1, arbitrary: fc.array(single, { minLength: 2, maxLength: 3 }) });
}

export function queryString(query: Record<string, string | string[]>): string {
  const pairs = Object.entries(query).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `${percentEncode(key)}=${percentEncode(v)}`),
  );
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

/** Header text Node lets through: tabs, printable ASCII and Latin-1. */
const headerChar = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)),
  fc.constant('\t'),
);
const oddHeaderText = fc.oneof(
  fc.string({ unit: headerChar, maxLength: 60 }),
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'pk_',
    'sk_',
    'tpk_',
    'null',
    "' OR 1=1 --",
    'e30=',
    'eyJ1c2VyX2lkIjoiYSJ9',
    'x'.repeat(300),
    'x'.repeat(5000),
  ),
);

/** One credential header: absent, the valid value, an odd string, or the valid value spoiled. */
export type HeaderChoice =
  { kind: 'absent' } | { kind: 'valid' } | { kind: 'odd'; text: string } | { kind: 'spoiled'; prefix: string; suffix: string };

const spoiler = fc.string({ unit: fc.constantFrom('x', 'A', '0', '=', '.', '!', 'é'), minLength: 1, maxLength: 3 });

export const headerChoice: fc.Arbitrary<HeaderChoice> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<HeaderChoice>({ kind: 'absent' }) },
  { weight: 2, arbitrary: fc.constant<HeaderChoice>({ kind: 'valid' }) },
  { weight: 3, arbitrary: oddHeaderText.map((text): HeaderChoice => ({ kind: 'odd', text })) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      spoiler.map((suffix): HeaderChoice => ({ kind: 'spoiled', prefix: '', suffix })),
      spoiler.map((prefix): HeaderChoice => ({ kind: 'spoiled', prefix, suffix: '' })),
    ),
  },
);
