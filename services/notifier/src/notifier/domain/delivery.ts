import type { Decider, DomainEvent } from '@openq/contracts';
import { afterFailure, type RetryPolicy } from './backoff';

/*
 * A delivery's life (issue #17) on the decider kit: planned (pending) → each claim is one more
 * attempt → sent, or the failed attempt is tried again later (exponential backoff with jitter,
 * `backoff.ts`; a receiver's `Retry-After` when it said one) or given up (dead-lettered with its
 * reason's class). One decider for a person's notification, a digest and an engine's delivery:
 * the same policy and outcomes, only their rows differ. The random draw comes in the command.
 */

export interface DeliveryState {
  status: 'pending' | 'sent' | 'dead';
  /** Attempts made so far (the claim's lease counts one). */
  attempts: number;
}

export type DeliveryCommand =
  /** The sender took the delivery (its lease): one more attempt. */
  | { type: 'claim' }
  /** The channel accepted it. */
  | { type: 'record_sent' }
  /** The attempt failed: `permanent` gives up at once; `retryAfterMs` is the receiver's own wait. */
  | { type: 'record_failure'; reason: string; permanent: boolean; random: number; retryAfterMs?: number }
  /** Nothing to send it through (the channel was removed, or this process cannot send its kind). */
  | { type: 'give_up'; reason: string };

export type DeliveryAttempted = DomainEvent<'delivery.attempted', { attempt: number }>;
export type DeliverySent = DomainEvent<'delivery.sent', { attempt: number }>;
export type DeliveryRetryScheduled = DomainEvent<
  'delivery.retry_scheduled',
  { attempt: number; delayMs: number; reason: string }
>;
export type DeliveryGivenUp = DomainEvent<'delivery.given_up', { attempt: number; reason: string }>;
export type DeliveryEvent = DeliveryAttempted | DeliverySent | DeliveryRetryScheduled | DeliveryGivenUp;

/** Decides one step of a delivery's life; a delivery that is no longer pending changes no more. */
export function decideDelivery(
  policy: RetryPolicy,
  command: DeliveryCommand,
  state: DeliveryState,
  now: Date,
): DeliveryEvent[] {
  if (state.status !== 'pending') return [];
  const attempt = state.attempts;
  switch (command.type) {
    case 'claim':
      return [{ type: 'delivery.attempted', data: { attempt: attempt + 1 }, occurredAt: now }];
    case 'record_sent':
      return [{ type: 'delivery.sent', data: { attempt }, occurredAt: now }];
    case 'give_up':
      return [{ type: 'delivery.given_up', data: { attempt, reason: command.reason }, occurredAt: now }];
    case 'record_failure': {
      const outcome = afterFailure(policy, attempt, command.permanent, command.random);
      if (outcome.status === 'dead')
        return [{ type: 'delivery.given_up', data: { attempt, reason: command.reason }, occurredAt: now }];
      const delayMs = Math.max(outcome.delayMs, command.retryAfterMs ?? 0);
      return [
        {
          type: 'delivery.retry_scheduled',
          data: { attempt, delayMs, reason: command.reason },
          occurredAt: now,
        },
      ];
    }
  }
}

export function evolveDelivery(state: DeliveryState, event: DeliveryEvent): DeliveryState {
  switch (event.type) {
    case 'delivery.attempted':
      return { ...state, attempts: event.data.attempt };
    case 'delivery.sent':
      return { ...state, status: 'sent' };
    case 'delivery.given_up':
      return { ...state, status: 'dead' };
    case 'delivery.retry_scheduled':
      return state;
  }
}

/** A planned delivery: pending, no attempt yet. */
export const PLANNED: DeliveryState = { status: 'pending', attempts: 0 };

/** The delivery decider under a retry policy (the notifier's settings). */
export function deliveryLife(policy: RetryPolicy): Decider<DeliveryCommand, DeliveryState, DeliveryEvent> {
  return {
    initialState: PLANNED,
    decide: (command, state, now) => decideDelivery(policy, command, state, now),
    evolve: evolveDelivery,
  };
}
