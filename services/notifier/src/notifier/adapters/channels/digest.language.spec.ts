import { englishLeft } from '@openq/testing';
import { ENGLISH_ONLY, notificationsIn } from './templates/language-samples';
import { renderDigest } from './digest';

describe('the digest in the recipient’s language (issue #30)', () => {
  it.each(['hourly', 'daily'] as const)(
    'says a %s digest in pt-BR with no English word of the en dictionary',
    (mode) => {
      const all = notificationsIn('pt-BR');
      for (const maxItems of [50, 3]) {
        const digest = renderDigest(all, { mode, maxItems });
        const text = `${digest.subject}\n${digest.html}\n${digest.text}`;
        expect(englishLeft(text, ENGLISH_ONLY)).toEqual([]);
        expect(digest.html).toContain('<html lang="pt-BR">');
      }
    },
  );

  it('still says English to an English reader', () => {
    const digest = renderDigest(notificationsIn('en'), { mode: 'daily', maxItems: 3 });
    expect(englishLeft(`${digest.subject}\n${digest.html}`, ENGLISH_ONLY)).not.toEqual([]);
  });
});
