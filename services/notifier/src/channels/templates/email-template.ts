import type { Notification } from '../channel';
import {
  headingHtml,
  htmlDocument,
  leadHtml,
  notificationBodyHtml,
  notificationBodyText,
} from './mail-parts';
import { headline, leadLine, NOTIFICATION_STRINGS } from './wording';

/** The words of the immediate e-mail that are not the notification's own. */
export const EMAIL_STRINGS = {
  subjectPrefix: '[openq]',
  project: NOTIFICATION_STRINGS.project,
  footer: 'You get this because you asked openq to e-mail you about this project. Change it in openq.',
};

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** One notification as an e-mail: subject, an HTML document and its plain-text twin. */
export function renderEmail(n: Notification): RenderedEmail {
  const title = headline(n);
  const lead = leadLine(n);
  const project = EMAIL_STRINGS.project(n.projectId);
  const html = htmlDocument(
    title,
    [headingHtml(1, title), leadHtml(`${project}. ${lead}`), notificationBodyHtml(n)].join('\n'),
    EMAIL_STRINGS.footer,
  );
  const text = [
    title,
    '',
    `${project}. ${lead}`,
    '',
    notificationBodyText(n),
    '',
    '--',
    EMAIL_STRINGS.footer,
  ].join('\n');
  return { subject: `${EMAIL_STRINGS.subjectPrefix} ${title}`, html, text: `${text}\n` };
}
