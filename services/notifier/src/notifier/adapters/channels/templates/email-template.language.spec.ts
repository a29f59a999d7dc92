import { englishLeft } from '@openq/testing';
import { ENGLISH_ONLY, notificationsIn } from './language-samples';
import { renderEmail } from './email-template';

const rendered = (n: ReturnType<typeof notificationsIn>[number]) => {
  const mail = renderEmail(n);
  return `${mail.subject}\n${mail.html}\n${mail.text}`;
};

describe('the immediate e-mail in the recipient’s language (issue #30)', () => {
  it('knows English words to look for', () => {
    expect(ENGLISH_ONLY.size).toBeGreaterThan(60);
    expect(ENGLISH_ONLY).toContain('suggestion');
  });

  it.each(notificationsIn('pt-BR').map((n) => [`${n.kind} ${n.gate?.trigger ?? ''}`, n] as const))(
    'says %s in pt-BR with no English word of the en dictionary',
    (_name, n) => {
      const text = rendered(n);
      expect(englishLeft(text, ENGLISH_ONLY)).toEqual([]);
      expect(text).toContain('<html lang="pt-BR">');
    },
  );

  it('still says English to an English reader (so the check above can fail)', () => {
    for (const n of notificationsIn('en')) expect(englishLeft(rendered(n), ENGLISH_ONLY)).not.toEqual([]);
  });

  it('says a notification without a language, queued before issue #30, as before: in English, its blocks as written', () => {
    const [n] = notificationsIn('pt-BR');
    const { language: _language, waits: _waits, ...old } = n!;
    const mail = renderEmail(old);
    expect(mail.text).toContain('QA gate on T-101');
    expect(mail.html).toContain('<html lang="en">');
  });
});
