import type { DeliveryFailureClass, Language } from '@openq/contracts';
import {
  guardedRequest,
  operatorAllowsHost,
  OutboundError,
  PUBLIC_ONLY,
  statusClass,
  type OutboundPolicy,
} from '@openq/platform';
import { PermanentSendError, TransientSendError, type ChannelSender, type Notification } from './channel';
import {
  affectsLine,
  agentName,
  blocksOf,
  headline,
  languageOf,
  leadLine,
  isWebLink,
  NOTIFICATION_WORDS,
  shorten,
} from './templates/wording';

/**
 * The Slack channel: a notification as a Block Kit message posted to an incoming webhook.
 * The webhook URL is a secret (whoever has it can post): it is never put in an error or a log
 * line, only its origin (`https://hooks.slack.com/***`).
 */

interface SlackWords {
  accept: string;
  open: string;
  project: (projectId: string) => string;
  more: (n: number) => string;
}

/** The words of the Slack message that are not the notification's own, in every language. */
export const SLACK_WORDS: Readonly<Record<Language, SlackWords>> = {
  en: {
    accept: 'Accept suggestion',
    open: 'Open in openq',
    project: (projectId) => `Project *${projectId}*`,
    more: (n) => `…and ${n} more question${n === 1 ? '' : 's'} in openq.`,
  },
  'pt-BR': {
    accept: 'Aceitar sugestão',
    open: 'Abrir no openq',
    project: (projectId) => `Projeto *${projectId}*`,
    more: (n) => `…e mais ${n} pergunta${n === 1 ? '' : 's'} no openq.`,
  },
};

/** The English words (before issue #30). */
export const SLACK_STRINGS = SLACK_WORDS.en;

/** Slack's own limits (Block Kit reference). */
export const SLACK_LIMITS = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  contextText: 3000,
  buttonText: 75,
  fallbackText: 4000,
} as const;

export interface SlackTarget {
  webhookUrl: string;
}

type Text = { type: 'plain_text'; text: string; emoji?: boolean } | { type: 'mrkdwn'; text: string };
export type SlackBlock =
  | { type: 'header'; text: Text }
  | { type: 'section'; text: Text }
  | { type: 'context'; elements: Text[] }
  | { type: 'actions'; elements: SlackButton[] };
export interface SlackButton {
  type: 'button';
  action_id: string;
  text: { type: 'plain_text'; text: string };
  /** A link button; an interactive one has a `value` instead (Slack calls back `POST /slack/interactions`). */
  url?: string;
  value?: string;
  style?: 'primary';
}

/**
 * Issue #34 (SPEC §12.5) the interactive "Accept suggestion": Slack sends its click to the gateway's
 * `POST /slack/interactions` with this `action_id` and the `value` `{ projectId, questionId }`.
 */
export const SLACK_ACCEPT_ACTION = 'openq_accept_suggestion';
export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

/** Slack's escaping for text it parses (mrkdwn, the fallback `text`): `&`, `<`, `>` and nothing else. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cuts already escaped text to `max` characters without splitting an `&amp;`-style entity. */
function cut(escaped: string, max: number): string {
  if (escaped.length <= max) return escaped;
  return `${escaped.slice(0, max - 1).replace(/&[a-z]{0,3}$/, '')}…`;
}

const mrkdwn = (text: string, max: number): Text => ({ type: 'mrkdwn', text: cut(text, max) });
const plain = (text: string, max: number): Text => ({
  type: 'plain_text',
  text: shorten(text, max),
  emoji: false,
});

/** Every line of `text` as a quote. */
const quoted = (escaped: string) =>
  escaped
    .split('\n')
    .map((line) => `>${line}`)
    .join('\n');

function questionBlocks(q: Notification['questions'][number], language: Language): SlackBlock[] {
  const N = NOTIFICATION_WORDS[language];
  const affects = affectsLine(q.afeta, language);
  const meta = cut(
    [N.askedBy(agentName(q.autor, language)), affects ? `${N.affects}: ${affects}` : null]
      .filter((part): part is string => part !== null)
      .map(escapeSlack)
      .join(' · '),
    1000,
  );
  const suggestion =
    q.sugestao !== null && q.sugestao.trim() !== ''
      ? quoted(`*${escapeSlack(N.suggestion)}:* ${escapeSlack(q.sugestao)}`)
      : `_${escapeSlack(N.noSuggestion)}_`;
  const pergunta = cut(escapeSlack(q.pergunta), SLACK_LIMITS.sectionText - meta.length - 4);
  return [
    { type: 'section', text: mrkdwn(`*${pergunta}*\n${meta}`, SLACK_LIMITS.sectionText) },
    { type: 'context', elements: [mrkdwn(suggestion, SLACK_LIMITS.contextText)] },
  ];
}

/**
 * One notification as a Block Kit message: header, the questions, what they block, the buttons.
 * `interactive`: "Accept suggestion" is a button Slack calls back with (answered in Slack),
 * else a link to the one-tap confirm page.
 */
export function renderSlack(n: Notification, options: { interactive?: boolean } = {}): SlackMessage {
  const title = headline(n);
  const language = languageOf(n);
  const N = NOTIFICATION_WORDS[language];
  const SLACK_STRINGS = SLACK_WORDS[language];
  const head: SlackBlock[] = [
    { type: 'header', text: plain(title, SLACK_LIMITS.headerText) },
    {
      type: 'context',
      elements: [
        mrkdwn(`${SLACK_STRINGS.project(escapeSlack(n.projectId))} · ${escapeSlack(leadLine(n))}`, 3000),
      ],
    },
  ];
  const tail: SlackBlock[] = [];
  const waiting = blocksOf(n);
  if (waiting.length > 0) {
    const blocks = `*${escapeSlack(N.blocks)}:* ${escapeSlack(waiting.join(', '))}`;
    tail.push({ type: 'section', text: mrkdwn(blocks, SLACK_LIMITS.sectionText) });
  }
  const buttons: SlackButton[] = [];
  const first = n.questions[0];
  if (isWebLink(n.links.accept) && options.interactive && first) {
    buttons.push({
      type: 'button',
      action_id: SLACK_ACCEPT_ACTION,
      text: { type: 'plain_text', text: shorten(SLACK_STRINGS.accept, SLACK_LIMITS.buttonText) },
      value: JSON.stringify({ projectId: n.projectId, questionId: first.questionId }),
      style: 'primary',
    });
  } else if (isWebLink(n.links.accept)) {
    buttons.push(button('openq_accept', SLACK_STRINGS.accept, n.links.accept, true));
  }
  if (isWebLink(n.links.open)) buttons.push(button('openq_open', SLACK_STRINGS.open, n.links.open, false));
  if (buttons.length > 0) tail.push({ type: 'actions', elements: buttons });

  const room = SLACK_LIMITS.blocks - head.length - tail.length;
  const perQuestion = 2;
  const fits =
    n.questions.length * perQuestion <= room ? n.questions.length : Math.floor((room - 1) / perQuestion);
  const body = n.questions.slice(0, fits).flatMap((q) => questionBlocks(q, language));
  if (fits < n.questions.length) {
    body.push({
      type: 'context',
      elements: [mrkdwn(escapeSlack(SLACK_STRINGS.more(n.questions.length - fits)), 3000)],
    });
  }
  const fallback =
    first && !title.includes(shorten(first.pergunta, 100)) ? `${title}: ${first.pergunta}` : title;
  return { text: cut(escapeSlack(fallback), SLACK_LIMITS.fallbackText), blocks: [...head, ...body, ...tail] };
}

function button(actionId: string, label: string, url: string, primary: boolean): SlackButton {
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text: shorten(label, SLACK_LIMITS.buttonText) },
    url,
    ...(primary ? { style: 'primary' as const } : {}),
  };
}

/** `https://hooks.slack.com/services/T0/B0/secret` → `https://hooks.slack.com/***`. */
export function redactWebhookUrl(url: string): string {
  try {
    return `${new URL(url).origin}/***`;
  } catch {
    return '***';
  }
}

export type SlackFailureReason = 'webhook_invalido' | 'slack_recusou' | 'slack_limite' | 'slack_indisponivel';

/** `reason`: Slack's own words for the log; `failure`: the class the API shows (issue #27). */
function failure<E extends Error>(
  error: E,
  reason: SlackFailureReason,
  failure: DeliveryFailureClass = 'resposta_invalida',
): E & { reason: SlackFailureReason; failure: DeliveryFailureClass } {
  return Object.assign(error, { reason, failure });
}

/** Slack said 429: try again, not before `retryAfterMs` (from `Retry-After`). */
export class SlackRateLimitedError extends TransientSendError {
  readonly reason = 'slack_limite' as const;
  readonly failure: DeliveryFailureClass = 'http_4xx';
  constructor(
    readonly retryAfterMs: number,
    message: string,
  ) {
    super(message);
    this.name = 'SlackRateLimitedError';
  }
}

/** Without a usable `Retry-After`, wait this long; a longer one is capped at an hour. */
export const DEFAULT_RETRY_AFTER_MS = 30_000;
const MAX_RETRY_AFTER_MS = 3_600_000;

/** `Retry-After` in seconds or as an HTTP date, in ms from `now`. */
export function retryAfterMs(header: string | null, now: Date): number {
  if (header === null || header.trim() === '') return DEFAULT_RETRY_AFTER_MS;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now.getTime();
  if (Number.isNaN(ms)) return DEFAULT_RETRY_AFTER_MS;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/**
 * https only; plain http only to a host or address the operator allows (a local relay, the
 * tests): `OPENQ_NOTIFY_ALLOWED_TARGETS`.
 */
function checkedWebhookUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw failure(
      new PermanentSendError('the Slack webhook URL is not a URL'),
      'webhook_invalido',
      'destino_nao_permitido',
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && operatorAllowsHost(policy, url.hostname))) {
    throw failure(
      new PermanentSendError(`the Slack webhook URL must be https (${redactWebhookUrl(raw)})`),
      'webhook_invalido',
      'destino_nao_permitido',
    );
  }
  return url;
}

/**
 * Posts to a Slack incoming webhook. Slack answers 200 `ok`; 4xx (`invalid_payload`,
 * `no_service`, `channel_not_found`, …) is permanent; 429 is `SlackRateLimitedError` with the
 * delay; 5xx, a timeout or no connection are transient.
 */
export class SlackSender implements ChannelSender<SlackTarget> {
  readonly kind = 'slack' as const;
  private readonly timeoutMs: number;
  private readonly clock: () => Date;
  private readonly policy: OutboundPolicy;
  private readonly interactive: boolean;

  constructor(
    options: { timeoutMs?: number; clock?: () => Date; policy?: OutboundPolicy; interactive?: boolean } = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.clock = options.clock ?? (() => new Date());
    this.policy = options.policy ?? PUBLIC_ONLY;
    this.interactive = options.interactive ?? false;
  }

  async send(target: SlackTarget, notification: Notification): Promise<void> {
    const url = checkedWebhookUrl(target.webhookUrl, this.policy);
    const where = redactWebhookUrl(url.href);
    let response: { status: number; headers: Record<string, string | string[] | undefined>; body: string };
    try {
      response = await guardedRequest(
        url.href,
        {
          // Slack ignores the header; a relay or a test counts deliveries by it (stable across retries).
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'x-openq-delivery-id': notification.id,
          },
          body: JSON.stringify(renderSlack(notification, { interactive: this.interactive })),
          timeoutMs: this.timeoutMs,
        },
        this.policy,
      );
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      const Failure = error.transient ? TransientSendError : PermanentSendError;
      const reason = error.failure === 'destino_nao_permitido' ? 'webhook_invalido' : 'slack_indisponivel';
      throw failure(new Failure(`Slack webhook ${where}: ${error.detail}`), reason, error.failure);
    }
    const said = response.body.replace(/\s+/g, ' ').trim().slice(0, 200);
    if (response.status >= 200 && response.status < 300) return;
    const answer = `${response.status}${said ? ` ${said}` : ''}`;
    if (response.status === 429) {
      const header = response.headers['retry-after'];
      const delay = retryAfterMs(typeof header === 'string' ? header : null, this.clock());
      throw new SlackRateLimitedError(
        delay,
        `Slack webhook ${where} rate-limited (${answer}); retry in ${delay} ms`,
      );
    }
    if (response.status >= 500) {
      throw failure(
        new TransientSendError(`Slack webhook ${where} failed (${answer})`),
        'slack_indisponivel',
        statusClass(response.status),
      );
    }
    throw failure(
      new PermanentSendError(`Slack webhook ${where} refused the message (${answer})`),
      'slack_recusou',
      statusClass(response.status),
    );
  }
}
