import type { Notification } from '../channel';
import {
  headingHtml,
  htmlDocument,
  leadHtml,
  notificationBodyHtml,
  notificationBodyText,
} from './mail-parts';
import type { Language } from '@openq/contracts';
import { headline, languageOf, leadLine, NOTIFICATION_WORDS } from './wording';

/** The words of the immediate e-mail that are not the notification's own, in every language. */
export const EMAIL_WORDS: Readonly<
  Record<Language, { subjectPrefix: string; project: (id: string) => string; footer: string }>
> = {
  en: {
    subjectPrefix: '[openq]',
    project: NOTIFICATION_WORDS.en.project,
    footer: 'You get this because you asked openq to e-mail you about this project. Change it in openq.',
  },
  'pt-BR': {
    subjectPrefix: '[openq]',
    project: NOTIFICATION_WORDS['pt-BR'].project,
    footer: 'Você recebe isto porque pediu ao openq e-mails sobre este projeto. Mude isso no openq.',
  },
};

/** The English words (before issue #30). */
export const EMAIL_STRINGS = EMAIL_WORDS.en;

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** One notification as an e-mail: subject, an HTML document and its plain-text twin. */
export function renderEmail(n: Notification): RenderedEmail {
  const title = headline(n);
  const lead = leadLine(n);
  const language = languageOf(n);
  const words = EMAIL_WORDS[language];
  const project = words.project(n.projectId);
  const html = htmlDocument(
    title,
    [headingHtml(1, title), leadHtml(`${project}. ${lead}`), notificationBodyHtml(n)].join('\n'),
    words.footer,
    language,
  );
  const text = [title, '', `${project}. ${lead}`, '', notificationBodyText(n), '', '--', words.footer].join(
    '\n',
  );
  return { subject: `${words.subjectPrefix} ${title}`, html, text: `${text}\n` };
}
