import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ANALYTICS_MAX_DAYS } from './analytics';
import { DELIVERY_FAILURE_CLASSES } from './edge-reasons';
import { QUESTIONS_FILE_REASONS } from './analyst-questions-file';
import {
  LANGUAGES,
  REFUSALS,
  REFUSAL_REASONS,
  isRefusalReason,
  refusalSentence,
  refusalStatus,
  type RefusalReason,
} from './refusals';
import { PARKED_REASONS } from './vocabulary';

const ROOT = join(__dirname, '..', '..', '..');

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** Sentences that are the same in both languages on purpose (none today). */
const SAME_IN_BOTH: readonly RefusalReason[] = [];

describe('the refusal catalog (refusals.ts)', () => {
  it.each(REFUSAL_REASONS.flatMap((reason) => LANGUAGES.map((language) => [reason, language] as const)))(
    '%s has a sentence in %s: not empty, not the code, a whole sentence',
    (reason, language) => {
      const sentence = REFUSALS[reason][language];
      expect(sentence.trim()).not.toBe('');
      expect(sentence).not.toContain(reason);
      expect(sentence).toMatch(/^[A-Z0-9“a-zÀ-ÖØ-öø-ÿ]/u);
      expect(sentence).toMatch(/[.!?)]$/);
      expect(refusalSentence(reason, language)).toBe(sentence);
    },
  );

  it.each(REFUSAL_REASONS)(
    '%s says something else in pt-BR than in en, with the same placeholders',
    (reason) => {
      const { en, 'pt-BR': pt } = REFUSALS[reason];
      if (!SAME_IN_BOTH.includes(reason)) expect(pt).not.toBe(en);
      expect(placeholders(pt)).toEqual(placeholders(en));
    },
  );

  it('gives every code an HTTP error status (0 only for the page’s own, never on the wire)', () => {
    for (const reason of REFUSAL_REASONS) {
      const status = refusalStatus(reason);
      if (status === 0) expect(['sem_conexao', 'erro_desconhecido']).toContain(reason);
      else expect({ reason, status: status >= 400 && status <= 599 }).toEqual({ reason, status: true });
    }
  });

  it('codes are snake_case Portuguese-on-the-wire words, each once', () => {
    for (const reason of REFUSAL_REASONS) expect(reason).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
    expect(new Set(REFUSAL_REASONS).size).toBe(REFUSAL_REASONS.length);
  });

  it('fills placeholders, falls back to English for a language it does not speak, and says an unknown code as given', () => {
    expect(refusalSentence('pergunta_retirada', 'fr')).toBe(REFUSALS.pergunta_retirada.en);
    expect(refusalSentence('nao_existe', 'pt-BR')).toBe('nao_existe');
    expect(refusalSentence('nao_existe', 'pt-BR', {}, 'Algo.')).toBe('Algo.');
    expect(isRefusalReason('pergunta_retirada')).toBe(true);
    expect(isRefusalReason('toString')).toBe(false);
  });

  it('says the analytics window’s maximum as ANALYTICS_MAX_DAYS', () => {
    for (const language of LANGUAGES)
      expect(REFUSALS.periodo_invalido[language]).toContain(` ${ANALYTICS_MAX_DAYS} `);
  });

  it('imports nothing, so the inbox can bundle it in a browser', () => {
    const source = readFileSync(join(__dirname, 'refusals.ts'), 'utf8');
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).not.toMatch(/\brequire\(/);
  });

  it('leaves vocabulary.ts browser-safe too: it imports types only', () => {
    const source = readFileSync(join(__dirname, 'vocabulary.ts'), 'utf8');
    for (const line of source.match(/^\s*import\s.*$/gm) ?? []) expect(line).toMatch(/^\s*import type /);
  });
});

/**
 * Every reason code the source writes where a refusal is made, found without running anything:
 * the first string argument of the refusal helpers, `reason: '…'` in an object, a DTO's
 * `@FieldReasons`, `validateAs`'s reason, and the name→code tables (`…Reason = { … }`).
 */
export function reasonLiterals(source: string): string[] {
  const found: string[] = [];
  const code = `'([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+)'`;
  const patterns = [
    new RegExp(
      `\\b(?:refusal|errorReply|httpError|forwardedHttpError|LinkRefusal)\\(\\s*[^,()]+,\\s*${code}`,
      'g',
    ),
    new RegExp(`\\breason\\s*:\\s*${code}`, 'g'),
    new RegExp(`\\bvalidateAs\\([^()]*,\\s*${code}\\s*\\)`, 'g'),
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]!);
  const tables = /(?:@FieldReasons\(\{|\b[A-Za-z]*Reasons?\s*=\s*\{|\b[A-Z_]*REASONS\s*=\s*\{)([^}]*)\}/g;
  for (const m of source.matchAll(tables))
    for (const v of m[1]!.matchAll(/:\s*'([a-z][a-z0-9_]*)'/g)) found.push(v[1]!);
  return found;
}

/** Words called `reason` that are other vocabularies, not refusals. */
const NOT_REFUSALS = new Set<string>([
  ...PARKED_REASONS, // why a gate parked
  ...QUESTIONS_FILE_REASONS, // a line of an analyst's questions file (a lint, not an answer)
  ...DELIVERY_FAILURE_CLASSES, // why a delivery failed (`lastError`)
  'malformed', // signature.ts: why a signature header does not verify (said as assinatura_invalida)
  'stale',
  'mismatch',
  'cap', // metric labels of refused live streams
  'unavailable',
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'public'].includes(entry.name) ? [] : sources(path);
    return entry.name.endsWith('.ts') && !/\.(int|e2e)?\.?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('the reason codes the services and libraries write', () => {
  it('finds codes where refusals are made (the scan itself)', () => {
    expect(
      reasonLiterals(`
        return refusal(409, 'codigo_novo', 'x');
        throw httpError(
          403,
          'outro_codigo',
          'y',
        );
        return { statusCode: 503, reason: 'mais_um', message: 'z' };
        @FieldReasons({ email: 'canal_x_invalido' })
        export const LinkReason = { expired: 'link_y' } as const;
        validateAs(Dto, body, 'corpo_z')
      `),
    ).toEqual(['codigo_novo', 'outro_codigo', 'mais_um', 'corpo_z', 'canal_x_invalido', 'link_y']);
  });

  it('are all in the catalog: adding a code is one catalog row plus its use', () => {
    const files = [...sources(join(ROOT, 'services')), ...sources(join(ROOT, 'libs'))];
    expect(files.length).toBeGreaterThan(100);
    const unknown: string[] = [];
    let seen = 0;
    for (const file of files) {
      for (const code of reasonLiterals(readFileSync(file, 'utf8'))) {
        seen++;
        if (!isRefusalReason(code) && !NOT_REFUSALS.has(code))
          unknown.push(`${relative(ROOT, file)}: ${code}`);
      }
    }
    expect(seen).toBeGreaterThan(80);
    expect(unknown).toEqual([]);
  });

  it('answer with the catalog’s status where the source writes the status as a number', () => {
    const files = [...sources(join(ROOT, 'services')), ...sources(join(ROOT, 'libs'))];
    const call = /\b(?:refusal|errorReply|httpError|LinkRefusal)\(\s*(\d{3})\s*,\s*'([a-z][a-z0-9_]*)'/g;
    const other: string[] = [];
    let seen = 0;
    for (const file of files)
      for (const m of readFileSync(file, 'utf8').matchAll(call)) {
        seen++;
        const [, status, code] = m;
        if (isRefusalReason(code) && refusalStatus(code) !== Number(status))
          other.push(`${relative(ROOT, file)}: ${code} ${status} (catalog: ${refusalStatus(code)})`);
      }
    expect(seen).toBeGreaterThan(50);
    expect(other).toEqual([]);
  });
});
