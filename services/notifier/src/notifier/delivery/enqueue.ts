import { v5 as uuidv5 } from 'uuid';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@openq/contracts';
import { RetryLaterError } from '@openq/messaging';
import type { ChannelKind, Notification } from '../../channels/channel';
import { planNotifications, type NotifierFact } from '../domain/recipients';
import { enabledChannels } from '../store/channels.store';
import { insertDeliveries, type NewDelivery } from '../store/deliveries.store';
import { loadQuestions } from '../store/questions.store';

/** Namespace of the delivery ids: uuidv5(eventId/channel/recipient), the same however often computed. */
const DELIVERY_NAMESPACE = 'a7d3c1e2-5b4f-4e8a-9c6d-2f1e0b9a8c7d';

export function deliveryId(eventId: string, channel: ChannelKind, recipientUserId: string): string {
  return uuidv5(`${eventId}/${channel}/${recipientUserId}`, DELIVERY_NAMESPACE);
}

export interface EnqueueSettings {
  publicUrl: string;
  maxEventAgeS: number;
  /** The channel kinds this process can send. */
  kinds: readonly ChannelKind[];
  now: Date;
}

/** The inbox card of the notification's first question (the page opens the project's queue). */
export function openLink(publicUrl: string, projectId: string, questionId: string | undefined): string {
  const base = `${publicUrl}/?project=${encodeURIComponent(projectId)}`;
  return questionId ? `${base}#q-${questionId}` : base;
}

/**
 * Inside the event's inbox transaction: who is told (the pure plan), through which of their
 * channels, and one delivery row each. A fact that names a question whose declaration has not
 * reached the notifier yet is retried later (the consumers of different types run apart); an
 * event older than `maxEventAgeS` (history replayed on a first start) tells nobody.
 */
export async function enqueueNotifications(
  m: EntityManager,
  envelope: EventEnvelope,
  fact: NotifierFact,
  settings: EnqueueSettings,
): Promise<number> {
  const ageS = (settings.now.getTime() - new Date(envelope.occurredAt).getTime()) / 1000;
  if (ageS > settings.maxEventAgeS) return 0;
  const ids =
    fact.type === 'question.answered'
      ? [fact.data.questionId]
      : fact.type === 'question.declared'
        ? []
        : [
            ...fact.data.questionIds,
            ...(fact.type === 'gate.resumed' ? (fact.data.withdrawnQuestionIds ?? []) : []),
          ];
  const known = await loadQuestions(m, envelope.projectId, ids);
  const plan = planNotifications(fact, known);
  if ('missing' in plan) {
    throw new RetryLaterError(`${fact.type}: questions not declared here yet: ${plan.missing.join(', ')}`);
  }
  if (plan.notifications.length === 0) return 0;
  const channels = await enabledChannels(
    m,
    envelope.projectId,
    plan.notifications.map((n) => n.recipientUserId),
    settings.kinds,
  );
  const rows: NewDelivery[] = [];
  for (const planned of plan.notifications) {
    for (const channel of channels.filter((c) => c.user_id === planned.recipientUserId)) {
      const notification: Notification = {
        id: deliveryId(envelope.eventId, channel.kind, planned.recipientUserId),
        kind: planned.kind,
        projectId: envelope.projectId,
        recipientUserId: planned.recipientUserId,
        occurredAt: envelope.occurredAt,
        questions: planned.questions,
        blocks: planned.blocks,
        ...(planned.gate ? { gate: planned.gate } : {}),
        links: { open: openLink(settings.publicUrl, envelope.projectId, planned.questions[0]?.questionId) },
        eventId: envelope.eventId,
      };
      rows.push({ notification, eventId: envelope.eventId, channel: channel.kind });
    }
  }
  return insertDeliveries(m, rows);
}
