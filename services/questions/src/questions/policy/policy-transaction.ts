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

/** The slice's domain → wire map: the change is published with the §12.1 payload the log stores. */
export function policyToWire({ type, data, occurredAt }: ProjectPolicyEvent): PolicyWireEvent {
  const { projectId, by, reason, delegation, maintainerOverride, changedAt } = data;
  return {
    type,
    data: {
      projectId,
      by,
      motivo: reason,
      delegacao: delegation,
      overrideDeMantenedor: maintainerOverride,
      changedAt,
    },
    occurredAt,
    eventId: newId(),
  };
}

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
      toWire: policyToWire,
      save: (_state, { published }) => log.append(published),
    },
    outbox,
  );
}
