import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANALYTICS_REASONS, DELIVERY_FAILURE_WORDS, EDGE_REASONS } from '@openq/contracts';

/**
 * The inbox's dictionaries (public/locale-*.js) are plain ES modules the browser imports. Each
 * language must have the same keys, and every key the page's modules ask for with `t('…')` must
 * be in them: a missing key would show the person the key itself.
 */
const PUBLIC = join(__dirname, 'public');

type Dictionary = { [key: string]: string | Dictionary };

function dictionary(file: string): Dictionary {
  const source = readFileSync(join(PUBLIC, file), 'utf8').replace(/^\s*export default\s*/m, 'return ');
  return new Function(source)() as Dictionary;
}

/** `{ a: { b: 'x' } }` → `['a.b']`. */
function keysOf(d: Dictionary, prefix = ''): string[] {
  return Object.entries(d).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : keysOf(v, `${prefix}${k}.`),
  );
}

const languages = readdirSync(PUBLIC)
  .filter((f) => /^locale-.+\.js$/.test(f))
  .map((f) => ({ file: f, keys: new Set(keysOf(dictionary(f))) }));

/** Base keys without i18next's plural suffixes. */
function base(keys: Set<string>): Set<string> {
  return new Set([...keys].map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')));
}

describe('the inbox dictionaries (public/locale-*.js)', () => {
  it('are English and Portuguese (Brazil) at least', () => {
    expect(languages.map((l) => l.file)).toEqual(expect.arrayContaining(['locale-en.js', 'locale-pt-BR.js']));
  });

  it('have the same keys in every language (plural forms aside)', () => {
    const english = base(languages.find((l) => l.file === 'locale-en.js')!.keys);
    for (const language of languages) {
      expect({ file: language.file, keys: [...base(language.keys)].sort() }).toEqual({
        file: language.file,
        keys: [...english].sort(),
      });
    }
  });

  it('hold every key the page asks for with t(…)', () => {
    const english = base(languages.find((l) => l.file === 'locale-en.js')!.keys);
    const missing: string[] = [];
    for (const file of readdirSync(PUBLIC).filter((f) => f.endsWith('.js') && !f.startsWith('locale-'))) {
      const text = readFileSync(join(PUBLIC, file), 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([^']+)'/g)) {
        if (!english.has(m[1]!)) missing.push(`${file}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('hold a group for every key the page builds (t(`group.${…}`)), and a sentence for every reason code', () => {
    const english = base(languages.find((l) => l.file === 'locale-en.js')!.keys);
    const missing: string[] = [];
    for (const file of readdirSync(PUBLIC).filter((f) => f.endsWith('.js') && !f.startsWith('locale-'))) {
      const text = readFileSync(join(PUBLIC, file), 'utf8');
      for (const m of text.matchAll(/\bt\(\s*`([^`$]+)\$\{/g)) {
        if (![...english].some((k) => k.startsWith(m[1]!))) missing.push(`${file}: ${m[1]}…`);
      }
    }
    const messages = readFileSync(join(PUBLIC, 'messages.js'), 'utf8');
    const reasons = /const REASONS = new Set\(\[([^\]]+)\]\)/.exec(messages)![1]!.match(/'[^']+'/g)!;
    expect(reasons.length).toBeGreaterThan(20);
    for (const r of reasons)
      if (!english.has(`messages.reasons.${r.slice(1, -1)}`)) missing.push(`messages.js: reason ${r}`);
    expect(missing).toEqual([]);
  });

  it('say the reasons of issue #27 in the words libs/contracts defines for them, in both languages', () => {
    for (const [file, lang] of [
      ['locale-en.js', 'en'],
      ['locale-pt-BR.js', 'pt-BR'],
    ] as const) {
      const d = dictionary(file) as {
        messages: { reasons: Record<string, string> };
        settings: { deliveries: { reasons: Record<string, string> } };
      };
      for (const [code, words] of Object.entries({ ...EDGE_REASONS, ...ANALYTICS_REASONS }))
        expect({ file, code, words: d.messages.reasons[code] }).toEqual({ file, code, words: words[lang] });
      for (const [code, words] of Object.entries(DELIVERY_FAILURE_WORDS))
        expect({ file, code, words: d.settings.deliveries.reasons[code] }).toEqual({
          file,
          code,
          words: words[lang],
        });
    }
  });
});
