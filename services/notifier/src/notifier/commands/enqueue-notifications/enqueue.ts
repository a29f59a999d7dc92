import { v5 as uuidv5 } from 'uuid';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@openq/contracts';
import { RetryLaterError } from '@openq/messaging';
import type { ChannelKind, Notification, NotificationClock } from '../../adapters/channels/channel';
import { notificationQuestion } from '../../adapters/channels/notification';
import {
  planNotifications,
  type KnownQuestion,
  type NotifierFact,
  type PlannedNotification,
} from '../../domain/recipients';
import { enabledChannels } from '../../store/channels.store';
import { insertDeliveries, type NewDelivery } from '../../store/deliveries.store';
import { loadQuestions } from '../../store/questions.store';

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
 * event older than `maxEventAgeS` (history replayed on a first start) tells nobody. `known`: the
 * fact's questions when the caller has read them already (the answer's close returns its question).
 */
export async function enqueueNotifications(
  m: EntityManager,
  envelope: EventEnvelope,
  fact: NotifierFact,
  settings: EnqueueSettings,
  known?: ReadonlyMap<string, KnownQuestion>,
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
  const questions = known ?? (await loadQuestions(m, envelope.projectId, ids));
  const plan = planNotifications(fact, questions);
  if ('missing' in plan) {
    throw new RetryLaterError(`${fact.type}: questions not declared here yet: ${plan.missing.join(', ')}`);
  }
  return addressToChannels(
    m,
    { projectId: envelope.projectId, eventId: envelope.eventId, occurredAt: envelope.occurredAt },
    plan.notifications,
    settings,
  );
}

/**
 * One delivery row per enabled channel of each planned person, under the delivery id of
 * (event, channel, person): a second insert of the same is a no-op. `source.eventId` is the
 * event's id, or for a clock notice the uuid of its key.
 */
export async function addressToChannels(
  m: EntityManager,
  source: { projectId: string; eventId: string; occurredAt: string },
  planned: readonly (PlannedNotification & { clock?: NotificationClock })[],
  settings: Pick<EnqueueSettings, 'publicUrl' | 'kinds'>,
): Promise<number> {
  if (planned.length === 0) return 0;
  const channels = await enabledChannels(
    m,
    source.projectId,
    planned.map((n) => n.recipientUserId),
    settings.kinds,
  );
  const rows: NewDelivery[] = [];
  for (const plan of planned) {
    for (const channel of channels.filter((c) => c.user_id === plan.recipientUserId)) {
      const notification: Notification = {
        id: deliveryId(source.eventId, channel.kind, plan.recipientUserId),
        kind: plan.kind,
        projectId: source.projectId,
        recipientUserId: plan.recipientUserId,
        occurredAt: source.occurredAt,
        questions: plan.questions.map(notificationQuestion),
        blocks: plan.blocks,
        waits: plan.waits,
        ...(plan.gate ? { gate: plan.gate } : {}),
        links: { open: openLink(settings.publicUrl, source.projectId, plan.questions[0]?.questionId) },
        eventId: source.eventId,
        ...(plan.clock ? { clock: plan.clock } : {}),
      };
      rows.push({ notification, eventId: source.eventId, channel: channel.kind });
    }
  }
  return insertDeliveries(m, rows);
}
