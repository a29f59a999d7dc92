import { englishLeft } from '@openq/testing';
import { ENGLISH_ONLY, notificationsIn } from './templates/language-samples';
import { renderSlack } from './slack';

/** What a person reads of a Block Kit message: every `text` in it (not its keys or action ids). */
function readable(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(readable);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === 'text' && typeof v === 'string' ? [v] : readable(v),
  );
}

describe('the Slack message in the recipient’s language (issue #30)', () => {
  it.each(
    notificationsIn('pt-BR').flatMap((n) =>
      [false, true].map(
        (interactive) => [`${n.kind} ${n.gate?.trigger ?? ''} ${interactive}`, n, interactive] as const,
      ),
    ),
  )('says %s in pt-BR with no English word of the en dictionary', (_name, n, interactive) => {
    const text = readable(renderSlack(n, { interactive })).join('\n');
    expect(englishLeft(text, ENGLISH_ONLY)).toEqual([]);
    expect(text).toContain('Abrir no openq');
  });

  it('still says English to an English reader', () => {
    for (const n of notificationsIn('en'))
      expect(englishLeft(readable(renderSlack(n)).join('\n'), ENGLISH_ONLY)).not.toEqual([]);
  });
});
