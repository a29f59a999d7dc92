/**
 * [openq] issue #17 the words of notifications that the API shows and the inbox names: channels,
 * e-mail modes, what a delivery told, its states, and the clock's refusals. Plain data, no
 * validators: a browser imports this module (issue #30).
 */
import type { RefusalReason } from './refusals';

/** The channels a person may be notified on. */
export const NOTIFICATION_CHANNELS = ['email', 'slack', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** How e-mails go out: one per notification, or a digest per hour / day. */
export const EMAIL_MODES = ['immediate', 'hourly', 'daily'] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

/**
 * What a delivery tells: a question or a gate's news (an event), or the clock of a question (a
 * project's policy, told by the notifier's own tick).
 */
export const NOTIFICATION_KINDS = [
  'question_declared',
  'question_answered',
  'gate_parked',
  'gate_resumed',
  'question_reminder',
  'question_due',
  'question_escalated',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * The states of a delivery (one row per event, channel and recipient). `skipped`: a reminder, due
 * notice or escalation whose question was answered or withdrawn before it went out (its
 * `lastError` says which: `pergunta_respondida`, `pergunta_retirada`).
 */
export const DELIVERY_STATUSES = ['pending', 'sent', 'dead', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const DELIVERY_LIST_FILTERS = [...DELIVERY_STATUSES, 'all'] as const;
export type DeliveryListFilter = (typeof DELIVERY_LIST_FILTERS)[number];

/**
 * Issue #17 the refusals (400, with `details.field`) of a project's question clock and of a
 * person's working hours. Each is a code of the refusal catalog (refusals.ts).
 */
export const CLOCK_REASONS = [
  'politica_invalida',
  'lembretes_fora_de_ordem',
  'lembrete_no_prazo',
  'escalonamento_antes_do_prazo',
  'escalonamento_antes_de_lembrete',
  'horario_invalido',
  'fuso_horario_desconhecido',
  'silencio_cobre_o_expediente',
] as const satisfies readonly RefusalReason[];
export type ClockReason = (typeof CLOCK_REASONS)[number];

/**
 * Issue #30 the clock's refusal codes by name, as the notifier writes them (no string literals
 * there): a name whose code is not one of CLOCK_REASONS — and so of the catalog — does not compile.
 */
export const ClockReason = {
  invalidPolicy: 'politica_invalida',
  remindersOutOfOrder: 'lembretes_fora_de_ordem',
  reminderAtDue: 'lembrete_no_prazo',
  escalationBeforeDue: 'escalonamento_antes_do_prazo',
  escalationBeforeReminder: 'escalonamento_antes_de_lembrete',
  invalidHours: 'horario_invalido',
  unknownTimeZone: 'fuso_horario_desconhecido',
  quietCoversWorkingHours: 'silencio_cobre_o_expediente',
} as const satisfies Record<string, ClockReason>;

/** Fails to compile when a code of CLOCK_REASONS has no name in ClockReason. */
const everyClockReasonNamed: Record<
  Exclude<ClockReason, (typeof ClockReason)[keyof typeof ClockReason]>,
  never
> = {};
void everyClockReasonNamed;
