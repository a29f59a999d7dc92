import { AgentEvent, STREAMS, eventSubject, type EventEnvelope } from '@openq/contracts';
import { durableName, encodeJson } from '@openq/messaging';
import { waitFor } from '@openq/testing';
import type { Stack } from './stack';

/** The engine's side of a gate cycle, and what the tests read back about it. */

export const EXEC_AUTHOR = 'ana';

export type VerdictItem = Record<string, unknown> & { subspecialty: string; veredito: string };

export const ask = (subspecialty: string, pergunta: string, sugestao?: string): VerdictItem => ({
  subspecialty,
  veredito: 'needs_user_decision',
  resumo: `${subspecialty} needs the user`,
  itens: [],
  pergunta,
  ...(sugestao ? { sugestao } : {}),
});

export const askExisting = (subspecialty: string, openQuestionId: string): VerdictItem => ({
  subspecialty,
  veredito: 'needs_user_decision',
  resumo: `${subspecialty} needs the user`,
  itens: [],
  openQuestionId,
});

export const changes = (subspecialty: string, item: string): VerdictItem => ({
  subspecialty,
  veredito: 'changes_requested',
  resumo: `${subspecialty}: ${item}`,
  itens: [item],
});

export async function startGate(stack: Stack, projectId: string, taskId: string, gate = 'qa'): Promise<void> {
  await stack.publishAgentEvent(AgentEvent.GateStarted, projectId, {
    taskId,
    gate,
    sessionId: `exec-${taskId}`,
    sessionAuthorId: EXEC_AUTHOR,
  });
  await waitFor(async () => (await gatesOf(stack, projectId, taskId)).status === 200, {
    what: `gate cycle of ${taskId}`,
  });
}

export function publishVerdict(
  stack: Stack,
  projectId: string,
  taskId: string,
  roundId: string,
  verdicts: VerdictItem[],
): Promise<EventEnvelope> {
  return stack.publishAgentEvent(AgentEvent.QaVerdict, projectId, {
    roundId,
    taskId,
    gate: 'qa',
    sessionId: `qa-${taskId}`,
    sessionAuthorId: EXEC_AUTHOR,
    verdicts,
  });
}

/** The same envelope again, past JetStream's dedupe window (a new message id): a redelivery. */
export async function redeliver(stack: Stack, envelope: EventEnvelope): Promise<void> {
  await stack.nc.jetstream().publish(eventSubject(envelope.type, envelope.projectId), encodeJson(envelope));
}

/** The task's gates as `viewer` sees them (§12.1 `waitingForYou` is personal: by default the session author). */
export function gatesOf(stack: Stack, projectId: string, taskId: string, viewer = EXEC_AUTHOR) {
  return stack.http('GET', `/projects/${projectId}/tasks/${taskId}/gates`, {
    token: stack.token(viewer, projectId, 'viewer'),
  });
}

export function resume(
  stack: Stack,
  projectId: string,
  taskId: string,
  role: 'viewer' | 'developer' = 'developer',
) {
  return stack.http('POST', `/projects/${projectId}/tasks/${taskId}/gates/qa/resume`, {
    token: stack.token('dev-1', projectId, role),
  });
}

/** Waits until the gates service has handled (and acked) every message of `type` published so far. */
export async function drained(stack: Stack, type: string): Promise<void> {
  const jsm = await stack.nc.jetstreamManager();
  const stream = type.startsWith('agent.') ? STREAMS.agentEvents.name : STREAMS.openqEvents.name;
  await waitFor(
    async () => {
      const info = await jsm.consumers.info(stream, durableName('gates', type));
      return info.num_pending === 0 && info.num_ack_pending === 0;
    },
    { what: `gates consumer of ${type} drained` },
  );
}

/** Events of `type` about the task the gates service wrote to its outbox (the only way out). */
export async function emitted(
  stack: Stack,
  type: string,
  projectId: string,
  taskId: string,
): Promise<unknown[]> {
  const rows: { data: unknown }[] = await stack.service('gates').dataSource.query(
    `SELECT envelope->'data' AS data FROM outbox
      WHERE envelope->>'type' = $1 AND envelope->>'projectId' = $2 AND envelope->'data'->>'taskId' = $3
      ORDER BY id`,
    [type, projectId, taskId],
  );
  return rows.map((r) => r.data);
}
