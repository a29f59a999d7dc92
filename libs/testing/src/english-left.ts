/**
 * [openq] issue #30 "no English left" for server-rendered texts (e-mails, Slack messages, digests,
 * one-tap pages): the words of an English dictionary that its Portuguese twin never uses, found
 * in a text rendered in Portuguese. A dictionary is any nesting of strings and functions; each
 * function is called with a few sample arguments to collect what it can say.
 */

/** Sample arguments dictionary functions are called with (their outputs are dictionary text). */
const SAMPLE_ARGS: readonly unknown[][] = [
  [],
  ['\u0001', '\u0002'],
  [1, 0],
  [2, 1],
  ...[undefined, 'override', 'withdrawn', 'human', 'answer'].flatMap((trigger) =>
    [1, 2].map((count) => [{ count, firstQuestion: null, gateLabel: '\u0001', trigger, late: [] }]),
  ),
  ['hourly'],
  ['daily'],
];

/** Every text a dictionary can produce. */
export function dictionaryTexts(dictionary: unknown): string[] {
  if (typeof dictionary === 'string') return [dictionary];
  if (typeof dictionary === 'function') {
    const out: string[] = [];
    for (const args of SAMPLE_ARGS) {
      try {
        const said: unknown = (dictionary as (...a: unknown[]) => unknown)(...args);
        if (typeof said === 'string') out.push(said);
      } catch {
        // Not this function's arguments.
      }
    }
    return out;
  }
  if (typeof dictionary === 'object' && dictionary !== null)
    return Object.values(dictionary).flatMap(dictionaryTexts);
  return [];
}

/**
 * Lower-case words of letters (accents kept), HTML tags, entities and URLs left out, and every
 * token with a digit in it: an id or a hash (`3f2dec1a-…`, `T-1`) is not words, and its letters
 * ("dec", "add") must not read as English.
 */
export function wordsOf(text: string): Set<string> {
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/https?:\/\/[^\s"'<>)|]+/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/[A-Za-zÀ-ÖØ-öø-ÿ0-9_-]*[0-9][A-Za-zÀ-ÖØ-öø-ÿ0-9_-]*/g, ' ');
  return new Set((plain.match(/[A-Za-zÀ-ÖØ-öø-ÿ]+(?:'[a-z]+)?/g) ?? []).map((w) => w.toLowerCase()));
}

/** The words `english` says and `portuguese` never does (`shared`: words both may use, names). */
export function englishOnlyWords(
  english: unknown,
  portuguese: unknown,
  shared: readonly string[] = [],
): Set<string> {
  const pt = new Set(dictionaryTexts(portuguese).flatMap((t) => [...wordsOf(t)]));
  const keep = new Set(shared.map((w) => w.toLowerCase()));
  return new Set(
    dictionaryTexts(english)
      .flatMap((t) => [...wordsOf(t)])
      .filter((w) => !pt.has(w) && !keep.has(w)),
  );
}

/** The English-only words found in `rendered`, sorted (`[]`: none left). */
export function englishLeft(rendered: string, englishOnly: ReadonlySet<string>): string[] {
  return [...wordsOf(rendered)].filter((w) => englishOnly.has(w)).sort();
}
