import type { EntityManager } from 'typeorm';
import { newId } from '@openq/contracts';
import { DeciderTransaction, type OutboxWriter } from '@openq/messaging';
import {
  projectPolicy,
  type ProjectPolicy,
  type ProjectPolicyCommand,
  type ProjectPolicyEvent,
} from './domain/project-policy';
import { PolicyLog, type PolicyWireEvent } from './store/policy-log.store';

/** The policy slice of the decider kit: a change is appended to the log and queued in the outbox. */
export function policyTransaction(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  log = new PolicyLog(manager),
): DeciderTransaction<ProjectPolicyCommand, ProjectPolicy, ProjectPolicyEvent, PolicyWireEvent> {
  return new DeciderTransaction(
    {
      decider: projectPolicy,
      projectOf: () => projectId,
      toWire: (event) => ({ ...event, eventId: newId() }),
      save: (_state, { published }) => log.append(published),
    },
    outbox,
  );
}
