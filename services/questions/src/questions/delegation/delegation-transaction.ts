import type { EntityManager } from 'typeorm';
import { newId } from '@openq/contracts';
import { DeciderTransaction, type OutboxWriter } from '@openq/messaging';
import {
  delegation,
  type Delegation,
  type DelegationCommand,
  type DelegationEvent,
} from './domain/delegation';
import { DelegationLog, type DelegationWireEvent } from './store/delegation-log.store';

/** The slice's domain → wire map: every delegation event is published, with the payload the log stores. */
export function delegationToWire(event: DelegationEvent): DelegationWireEvent {
  return { ...event, eventId: newId() } as DelegationWireEvent;
}

export type DelegationTransaction = DeciderTransaction<
  DelegationCommand,
  Delegation | null,
  DelegationEvent,
  DelegationWireEvent
>;

/** The delegation slice of the decider kit: decided events are appended to the log and queued in the outbox. */
export function delegationTransaction(
  manager: EntityManager,
  outbox: OutboxWriter,
  log = new DelegationLog(manager),
): DelegationTransaction {
  return new DeciderTransaction(
    {
      decider: delegation,
      projectOf: (d) => d?.granted.projectId ?? null,
      toWire: delegationToWire,
      save: (_state, { published }) => log.append(published),
    },
    outbox,
  );
}
