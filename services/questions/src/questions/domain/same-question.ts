import type { Affects } from '@openq/contracts';
/**
 * §12.3 "Ask once": whether two declarations ask the same thing. Pure: the questions service
 * finds candidates in PostgreSQL (`pg_trgm` over `askKey`, docs/decisions.md "Ask once") and this
 * module decides. Same meaning needs overlapping or empty `affects`, a near text once folded (case,
 * accents, plurals, word order, filler words, in Portuguese and English), and no guard firing:
 * a negation on one side only, other numbers, or one content word swapped for another (the
 * near-miss that differs in one entity). A wrong join costs more than a duplicate, so every doubt
 * says "different".
 */

/** The score at or above which two folded texts are near enough (measured: docs/decisions.md). */
export const SAME_QUESTION_THRESHOLD = 0.5;

// Words that carry no meaning of their own in a question: articles, prepositions, pronouns,
// auxiliaries and modals ("deve", "should"), in both languages, written without accents.
const STOP_WORDS = new Set(
  (
    'a o as os um uma uns umas de da do das dos em na no nas nos num numa por pela pelo pelas pelos para pra ' +
    'com e ou que se ao aos a as esse essa este esta isso isto aquele aquela la lo ele ela eles elas nos voce ' +
    'seu sua seus suas nosso nossa nossos nossas meu minha qual quais quando como onde quem ja ainda mais so ' +
    'ser sera serao seja sejam e sao esta estao estar ter tem tera terao vai vao ir deve devem devemos deveria ' +
    'deveriam precisa precisam precisamos preciso pode podem podemos poderia vamos faz fazer favor mesmo ' +
    'necessario necessaria obrigatorio obrigatoria permitido permitida exigido exigida sim ate apos depois ' +
    'antes entao the an of to in on at by for from with and or is are was were be been being am do does did ' +
    'should shall must need needs needed can could would will may might have has had it its this that these ' +
    'those there we our us you your they their them he she his her i me my what which who whom how when where ' +
    'why whether any some all each every as into about than then so also still yes please get got go going ' +
    'allowed required mandatory able kept keep use used using going way ' +
    // Verbs of presence: "show", "display", "appear", "include" ask one thing in other words.
    'mostrar mostra exibir exibido exibida aparecer aparece aparecam entrar incluir incluido incluida ' +
    'show shows shown display displayed appear appears include included includes belong'
  ).split(' '),
);

// Words only Portuguese uses often: with them, "no" and "nos" are "in the", not "no".
const PORTUGUESE = new Set(
  'de da das dos que para com deve devem os um uma na nas ser nao precisa precisam ter tem pelo pela ao aos sao pode podem'.split(
    ' ',
  ),
);

// "not" in both languages: a question and its negation are different questions.
const NEGATIONS = new Set([
  'nao',
  'nunca',
  'jamais',
  'nem',
  'sem',
  'nenhum',
  'nenhuma',
  'not',
  'no',
  'never',
  'none',
  'without',
  'dont',
  'doesnt',
  'isnt',
  'arent',
  'shouldnt',
  'cant',
  'wont',
  'mustnt',
  // Words that turn the usual default around: "optional" against "mandatory", "stop" against "keep".
  'optional',
  'opcional',
  'facultativo',
  'exclude',
  'excluded',
  'hide',
  'hidden',
  'ocultar',
  'oculto',
  'esconder',
  'stop',
  'disable',
  'disabled',
  'desativar',
  'desabilitar',
]);

// One spelling for a few words that agents write several ways.
const SYNONYMS: Readonly<Record<string, string>> = {
  app: 'aplicativo',
  apps: 'aplicativo',
  application: 'aplicativo',
  administrador: 'admin',
  administrator: 'admin',
  pesquisa: 'busca',
  mail: 'email',
  pagamento: 'pagar',
  payment: 'pay',
};

/** Lowercase, no accents, split into words of letters and digits (English contractions kept whole). */
function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/(\w)['’](t|s)\b/g, '$1$2')
    .replace(/e-mail/g, 'email')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Folds plurals (and a few endings) so "decisões" meets "decisão" and "reports" meets "report". */
export function stem(word: string): string {
  if (/^\d+$/.test(word)) return word;
  const folded =
    word.length <= 3
      ? word
      : word
          .replace(/(oes|aes|aos)$/, 'ao')
          .replace(/ais$/, 'al')
          .replace(/eis$/, 'el')
          .replace(/ens$/, 'em')
          .replace(/ies$/, 'y')
          .replace(/([rzl])es$/, '$1')
          .replace(/([^s])s$/, '$1');
  return SYNONYMS[folded] ?? folded;
}

/** A declaration's text, folded: its content words (stemmed) and what the guards read. */
export interface FoldedQuestion {
  /** Content words, stemmed, sorted, unique. */
  tokens: string[];
  numbers: string[];
  negated: boolean;
}

export function fold(question: string): FoldedQuestion {
  const all = words(question);
  const portuguese = all.some((w) => PORTUGUESE.has(w));
  const negation = (w: string) => NEGATIONS.has(w) && !(portuguese && (w === 'no' || w === 'nos'));
  const negated = all.filter(negation).length % 2 === 1;
  const content = all
    .filter((w) => !STOP_WORDS.has(w) && !NEGATIONS.has(w) && (w.length > 1 || /\d/.test(w)))
    .map(stem);
  const tokens = [...new Set(content)].sort();
  const numbers = tokens.filter((t) => /^\d+$/.test(t));
  return { tokens, numbers, negated };
}

/**
 * The text PostgreSQL indexes and compares (`question_view.ask_key`): the content words, folded
 * and sorted (word order does not count).
 */
export function askKey(question: string): string {
  return fold(question).tokens.join(' ');
}

/** The trigrams of a text the way `pg_trgm` takes them: per word, padded with two blanks before and one after. */
function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.split(/[^a-z0-9]+/).filter(Boolean)) {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  }
  return out;
}

/** `pg_trgm`'s `similarity()`: shared trigrams over all trigrams of both texts (0..1). */
export function trigramSimilarity(a: string, b: string): number {
  return similarityOf(trigrams(a), trigrams(b));
}

function similarityOf(ta: ReadonlySet<string>, tb: ReadonlySet<string>): number {
  if (ta.size === 0 || tb.size === 0) return 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared += 1;
  return shared / (ta.size + tb.size - shared);
}

/**
 * MinHash bands: 32 bands of 3 hashes each, over the trigrams that do not start with a blank
 * (measured: docs/decisions.md "Ask once, finished"). The first version took 16 bands of
 * 2 over every trigram; a project's questions then shared a band with 2–8% of the others.
 */
const BANDS = 32;
const ROWS = 3;

/**
 * `Math.imul(h, 0x01000193)` (FNV's prime, 2^24 + 403), as shifts and one exact multiplication: the
 * same 32 bits, as fast here, and not a call of a built-in — under jest's sandbox every call of
 * `Math.imul` measured ~100 × slower, and this is the hottest loop of every test that declares.
 */
function fnvMultiply(h: number): number {
  return ((h << 24) + h * 403) | 0;
}

/** FNV-1a, 32 bits, of a string after a seed: the hash family of the MinHash. */
function fnv(seed: number, text: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) h = fnvMultiply(h ^ text.charCodeAt(i));
  return h >>> 0;
}

/**
 * The trigrams the bands hash: a word's first letters padded with blanks ("  g", " go") are left
 * out — every word starting with "g" shares them, so they made unrelated questions look alike —
 * unless nothing else is left (a key of one- or two-letter words).
 */
function bandTrigrams(key: string): string[] {
  const all = [...trigrams(key)];
  const inner = all.filter((g) => g[0] !== ' ');
  return inner.length > 0 ? inner : all;
}

/**
 * The keys under which a question is found (`question_view.ask_bands`): MinHash of its key's
 * trigrams (`bandTrigrams`) in 32 bands of 3, each band one key, salted with the project. Two keys
 * whose trigram similarity is s share a band with probability 1 − (1 − s³)³²: 0.99 at s = 0.5,
 * 0.58 at 0.3, 0.03 at 0.1 — so the index hands over the near questions and few others, and each
 * key's posting list stays short however many questions the project holds (pg_trgm's `%` reads
 * every posting of every trigram of the probe: hundreds of milliseconds at 100,000 questions),
 * and salted with the key's numbers.
 */
export function askBands(projectId: string, key: string): string[] {
  const grams = bandTrigrams(key);
  if (grams.length === 0) return [];
  // Salted with the key's numbers too: two questions with other numbers are never the same
  // (`differenceOf`), so they need not meet in the index. A project of questions alike but for a
  // number ("case 1", "case 2", …) otherwise matched all of them on every band, and the
  // `BAND_MATCHES` cap could leave the one true duplicate out. A key without numbers keeps the
  // salt it had.
  const numbers = key.split(' ').filter((t) => /^\d+$/.test(t));
  const salt = numbers.length > 0 ? `${projectId}#${numbers.join(' ')}` : projectId;
  // `fnv(seed, gram)` for every seed and gram, unrolled over the gram's three characters: the same
  // values (the stored bands stay valid), about a sixth of the time of the call per pair — this is
  // the hottest function of a declaration, run twice for it (the look-up and the view).
  const codes = new Int32Array(grams.length * 3);
  grams.forEach((g, i) => {
    codes[i * 3] = g.charCodeAt(0);
    codes[i * 3 + 1] = g.charCodeAt(1);
    codes[i * 3 + 2] = g.charCodeAt(2);
  });
  const out: string[] = [];
  const mins = [0, 0, 0];
  for (let band = 0; band < BANDS; band++) {
    for (let row = 0; row < ROWS; row++) {
      const start = 0x811c9dc5 ^ (band * ROWS + row + 1);
      let min = 0xffffffff;
      for (let i = 0; i < codes.length; i += 3) {
        const h =
          fnvMultiply(fnvMultiply(fnvMultiply(start ^ codes[i]!) ^ codes[i + 1]!) ^ codes[i + 2]!) >>> 0;
        if (h < min) min = h;
      }
      mins[row] = min;
    }
    out.push(fnv(0, `${salt}|${band}|${mins.join('.')}`).toString(36));
  }
  return out;
}

/** Why two near texts are still different questions; null when no guard fires. */
export type Difference = 'negation' | 'number' | 'swapped_word' | null;

/**
 * The guards: a negation on one side only; other numbers; or one content word on each side that
 * the other lacks, with nothing else apart (the near-miss that names another entity: "Google" /
 * "GitHub", "semanais" / "mensais", "include" / "exclude"), unless the two words are spellings
 * of one (a shared stem of five letters or more).
 */
export function differenceOf(a: FoldedQuestion, b: FoldedQuestion): Difference {
  if (a.negated !== b.negated) return 'negation';
  if (a.numbers.join(' ') !== b.numbers.join(' ')) return 'number';
  const onlyA = a.tokens.filter((t) => !b.tokens.includes(t));
  const onlyB = b.tokens.filter((t) => !a.tokens.includes(t));
  const unmatchedA = onlyA.filter((x) => !onlyB.some((y) => spellings(x, y)));
  const unmatchedB = onlyB.filter((y) => !onlyA.some((x) => spellings(x, y)));
  if (unmatchedA.length >= 1 && unmatchedB.length >= 1 && unmatchedA.length + unmatchedB.length <= 3)
    return 'swapped_word';
  return null;
}

function spellings(x: string, y: string): boolean {
  const common = commonPrefix(x, y);
  return common >= 5 || (common >= 4 && Math.max(x.length, y.length) - common <= 2);
}

function commonPrefix(x: string, y: string): number {
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

/** §3.1 what a question affects (the contract's `Affects`: the wire's `afeta` in English). */
export type { Affects } from '@openq/contracts';

/** §12.3 overlapping or empty `affects`: either side affects nothing, or both name a common id. */
export function affectsOverlap(a: Affects, b: Affects): boolean {
  const empty = (x: Affects) => x.rules.length + x.stories.length + x.tasks.length === 0;
  if (empty(a) || empty(b)) return true;
  const meets = (xs: readonly string[], ys: readonly string[]) => xs.some((x) => ys.includes(x));
  return meets(a.rules, b.rules) || meets(a.stories, b.stories) || meets(a.tasks, b.tasks);
}

/** How alike two declarations are, and whether that makes them one question. */
export interface Likeness {
  similarity: number;
  difference: Difference | 'affects';
  same: boolean;
}

/** A declaration as `likeness` reads it: its words and what it affects. */
export interface Asking {
  question: string;
  affects: Affects;
}

/** How alike two declarations are (`likeness`, or a `likenessMemo`'s). */
export type Alike = (a: Asking, b: Asking) => Likeness;

/** A text as `likeness` compares it: folded, and the trigrams of its key. */
interface Shape {
  folded: FoldedQuestion;
  grams: ReadonlySet<string>;
}

function shapeOf(question: string): Shape {
  const folded = fold(question);
  return { folded, grams: trigrams(folded.tokens.join(' ')) };
}

function compare(a: Shape, aAffects: Affects, b: Shape, bAffects: Affects): Likeness {
  const similarity = round(similarityOf(a.grams, b.grams));
  const difference = affectsOverlap(aAffects, bAffects) ? differenceOf(a.folded, b.folded) : 'affects';
  return { similarity, difference, same: difference === null && similarity >= SAME_QUESTION_THRESHOLD };
}

/** §12.3 the one rule: near text (≥ `SAME_QUESTION_THRESHOLD`), overlapping `affects`, no guard firing. */
export function likeness(a: Asking, b: Asking): Likeness {
  return compare(shapeOf(a.question), a.affects, shapeOf(b.question), b.affects);
}

/**
 * `likeness` for the many pairs of one group of declarations and their candidates: each text is
 * folded once for the group, not once per pair (a group of declarations in one project compares
 * each with the group's earlier ones; folding was most of a burst's CPU). Same results; the memo
 * lives as long as the function.
 */
export function likenessMemo(): Alike {
  const shapes = new Map<string, Shape>();
  const shape = (question: string) => {
    let s = shapes.get(question);
    if (!s) shapes.set(question, (s = shapeOf(question)));
    return s;
  };
  return (a, b) => compare(shape(a.question), a.affects, shape(b.question), b.affects);
}

const round = (x: number) => Math.round(x * 1000) / 1000;
