import { AgentEvent, STREAMS } from '@openq/contracts';
import type { StackView } from '../../support/processes';
import { readStream } from '../../faults/support/quiet';

/*
 * Per-subject order: JetStream keeps the agent events of one subject (`<type>.<projectId>`) in
 * stream order, and the consumers must apply them in that order whichever replica takes them and
 * whatever the network did (libs/messaging subject-order.ts). The question log's positions are
 * taken as a row is written, and two messages of one subject are written one after the other, so
 * per subject the log's order must be the stream's.
 */

export interface OrderCheck {
  subject: string;
  /** Messages of the load on that subject type, in the stream. */
  messages: number;
  /** Log rows compared. */
  applied: number;
  /** Subjects (one per project) whose log order differs from the stream's, with the first difference. */
  outOfOrder: { project: string; stream: string[]; log: string[] }[];
}

async function compare(
  stack: StackView,
  type: string,
  key: (data: Record<string, unknown>) => string | undefined,
  logQuery: string,
  projects: string[],
): Promise<OrderCheck> {
  const messages = (
    await readStream<Record<string, unknown>>(stack.nc, STREAMS.agentEvents.name, `${type}.*`)
  ).filter((m) => m.envelope && projects.includes(m.envelope.projectId));
  // First stored copy of each key, by stream sequence, per project.
  const streamOrder = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const m of messages.sort((a, b) => a.seq - b.seq)) {
    const k = key(m.envelope!.data);
    if (!k || seen.has(`${m.envelope!.projectId}/${k}`)) continue;
    seen.add(`${m.envelope!.projectId}/${k}`);
    streamOrder.set(m.envelope!.projectId, [...(streamOrder.get(m.envelope!.projectId) ?? []), k]);
  }
  const rows = await stack.sql<{ project_id: string; k: string }>(logQuery, [projects]);
  const logOrder = new Map<string, string[]>();
  for (const r of rows) logOrder.set(r.project_id, [...(logOrder.get(r.project_id) ?? []), r.k]);
  const outOfOrder: OrderCheck['outOfOrder'] = [];
  for (const [project, inStream] of streamOrder) {
    const inLog = logOrder.get(project) ?? [];
    const applied = new Set(inLog);
    const expected = inStream.filter((k) => applied.has(k));
    const first = expected.findIndex((k, i) => inLog[i] !== k);
    if (first >= 0 || expected.length !== inLog.length)
      outOfOrder.push({
        project,
        stream: expected.slice(Math.max(0, first), first + 3),
        log: inLog.slice(Math.max(0, first), first + 3),
      });
  }
  return { subject: `${type}.<project>`, messages: messages.length, applied: rows.length, outOfOrder };
}

/** Declarations and agent answers: per project, applied in the order of their subject in AGENT_EVENTS. */
export async function checkSubjectOrder(stack: StackView, projects: string[]): Promise<OrderCheck[]> {
  return [
    await compare(
      stack,
      AgentEvent.QuestionDeclare,
      (d) => d.toolCallId as string | undefined,
      `SELECT project_id, data->>'toolCallId' AS k FROM questions.question_log
        WHERE type = 'question.declared' AND project_id = ANY($1) AND data->>'toolCallId' NOT LIKE 'qa:%'
        ORDER BY position`,
      projects,
    ),
    await compare(
      stack,
      AgentEvent.QuestionAnswer,
      (d) => d.questionId as string | undefined,
      `SELECT project_id, question_id AS k FROM questions.question_log
        WHERE type = 'question.answered' AND project_id = ANY($1) AND data->>'viaAgente' IS NOT NULL
        ORDER BY position`,
      projects,
    ),
  ];
}
