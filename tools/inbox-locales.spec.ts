import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AFFECTS_KEYS,
  ANALYTICS_FIELDS,
  CLOCK_REASONS,
  DELIVERY_STATUSES,
  EMAIL_MODES,
  GATES,
  LANGUAGES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  PROJECT_POLICIES,
  PROJECT_ROLES,
  QUESTION_AUTHORS,
  QUESTION_LIST_SORTS,
  QUESTION_WHO_FILTERS,
  READINESS_ACTIONS,
  VEREDITOS,
} from '@openq/contracts';
import { INBOX_SOURCE, loadInboxModule } from './build-inbox';

/**
 * The inbox's dictionaries (apps/inbox/src/locale-*.ts). Each language must have the same keys,
 * and every key the page's modules ask for with `t('…')` must be in them: a missing key would show
 * the person the key itself. The words of the contract's own codes (reasons, delivery failures)
 * are libs/contracts' (issue #30): the dictionaries spread them in, so no spec compares copies.
 */
type Dictionary = { [key: string]: string | Dictionary };

/** `{ a: { b: 'x' } }` → `['a.b']`. */
function keysOf(d: Dictionary, prefix = ''): string[] {
  return Object.entries(d).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : keysOf(v, `${prefix}${k}.`),
  );
}

const languages = readdirSync(INBOX_SOURCE)
  .filter((f) => /^locale-.+\.ts$/.test(f))
  .map((f) => ({
    file: f,
    keys: new Set(keysOf(loadInboxModule(f.replace(/\.ts$/, '')).default as Dictionary)),
  }));

/** Base keys without i18next's plural suffixes. */
function base(keys: Set<string>): Set<string> {
  return new Set([...keys].map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')));
}

const english = base(languages.find((l) => l.file === 'locale-en.ts')!.keys);
const pageModules = readdirSync(INBOX_SOURCE).filter(
  (f) => f.endsWith('.ts') && !f.startsWith('locale-') && !f.endsWith('.spec.ts'),
);

describe('the inbox dictionaries (apps/inbox/src/locale-*.ts)', () => {
  it('are English and Portuguese (Brazil) at least', () => {
    expect(languages.map((l) => l.file)).toEqual(expect.arrayContaining(['locale-en.ts', 'locale-pt-BR.ts']));
  });

  it('have the same keys in every language (plural forms aside)', () => {
    for (const language of languages) {
      expect({ file: language.file, keys: [...base(language.keys)].sort() }).toEqual({
        file: language.file,
        keys: [...english].sort(),
      });
    }
  });

  it('hold every key the page asks for with t(…)', () => {
    const missing: string[] = [];
    for (const file of pageModules) {
      const text = readFileSync(join(INBOX_SOURCE, file), 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([^']+)'/g)) {
        if (!english.has(m[1]!)) missing.push(`${file}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('hold a group for every key the page builds (t(`group.${…}`))', () => {
    const missing: string[] = [];
    for (const file of pageModules) {
      const text = readFileSync(join(INBOX_SOURCE, file), 'utf8');
      for (const m of text.matchAll(/\bt\(\s*`([^`$]+)\$\{/g)) {
        if (![...english].some((k) => k.startsWith(m[1]!))) missing.push(`${file}: ${m[1]}…`);
      }
    }
    expect(missing).toEqual([]);
  });

  // Issue #30: the page takes these lists from libs/contracts; each of their words needs its name.
  const named: [string, readonly string[], string?][] = [
    ['messages.agents', QUESTION_AUTHORS],
    ['messages.roles', PROJECT_ROLES],
    ['messages.rolesWithArticle', PROJECT_ROLES],
    ['filters.who', QUESTION_WHO_FILTERS],
    ['queue.sort', QUESTION_LIST_SORTS],
    ['queue.affects', AFFECTS_KEYS],
    ['panels.readiness.actions', READINESS_ACTIONS],
    ['language.names', LANGUAGES],
    ['gates.names', GATES],
    ['gates.verdicts', VEREDITOS],
    ['settings.channels', NOTIFICATION_CHANNELS],
    ['settings.channels.email.modes', EMAIL_MODES],
    ['settings.deliveries.channels', NOTIFICATION_CHANNELS],
    ['settings.deliveries.kinds', NOTIFICATION_KINDS],
    ['settings.deliveries.status', DELIVERY_STATUSES],
    ['settings.policies', PROJECT_POLICIES, '.label'],
    ['clock.reasons', CLOCK_REASONS],
    ['analytics.fields', ANALYTICS_FIELDS.filter((f) => f !== 'key')],
  ];
  it.each(named)(
    'name every word of the contract the page shows under %s, in every language',
    (group, words, leaf = '') => {
      for (const language of languages) {
        const keys = base(language.keys);
        const missing = words.filter(
          (w) =>
            ![...keys].some((k) => k === `${group}.${w}${leaf}` || k.startsWith(`${group}.${w}${leaf}.`)),
        );
        expect({ file: language.file, group, missing }).toEqual({ file: language.file, group, missing: [] });
      }
    },
  );
});
