import { AgentEvent, eventSubject, makeEnvelope, type EventEnvelope } from '@openq/contracts';
import { durableOf, encodeJson } from '@openq/messaging';
import { waitFor } from '@openq/testing';
import { TestEngine, type Declaration } from './engine';
import type { Stack } from './stack';

/** The session author who answers by click in these tests. */
export const AUTHOR = 'ana';

export interface Afeta {
  regras?: string[];
  historias?: string[];
  tarefas?: string[];
}

/** Who asks, when not `AUTHOR`'s session and the PO: the session author and the asking agent. */
export interface Asker {
  author?: string;
  autor?: string;
}

/** Declares a question through the engine's internal route (the SDK's client); returns its id. */
export async function declare(
  stack: Stack,
  projectId: string,
  pergunta: string,
  afeta: Afeta = {},
  sugestao: string | null = null,
  asker: Asker = {},
): Promise<string> {
  return new TestEngine(stack.baseUrl).declare(projectId, {
    sessionId: asker.author ? `s-${asker.author}` : 's1',
    sessionAuthorId: asker.author ?? AUTHOR,
    autor: (asker.autor ?? 'po') as Declaration['autor'],
    pergunta,
    sugestao,
    afeta,
  });
}

/** The session author answers by click; returns the decision's id. */
export async function answer(
  stack: Stack,
  projectId: string,
  questionId: string,
  resposta: string,
): Promise<string> {
  const res = await stack.http('POST', `/projects/${projectId}/open-questions/${questionId}/answer`, {
    token: stack.token(AUTHOR, projectId, 'viewer'),
    body: { resposta },
  });
  if (res.status !== 200) throw new Error(`answer failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.decisionEventId as string;
}

export interface StoryFields {
  status?: 'draft' | 'ready' | 'in_progress' | 'done';
  archived?: boolean;
  title?: string;
  rf?: string[];
  rnf?: string[];
  dod?: string[];
  dor?: string[];
  regras?: string[];
  taskIds?: string[];
}

export function story(storyId: string, fields: StoryFields = {}) {
  return {
    storyId,
    status: 'draft',
    archived: false,
    title: `Story ${storyId}`,
    rf: ['FR-1 lookup by code'],
    rnf: [],
    dod: ['tests pass'],
    dor: ['FR-1 not confirmed by the user'],
    regras: [],
    taskIds: [],
    ...fields,
  };
}

/** Acts as the engine with an envelope of a chosen instant (an old fact delivered late). */
export async function publishAgentEventAt<T>(
  stack: Stack,
  type: string,
  projectId: string,
  data: T,
  occurredAt: Date,
): Promise<EventEnvelope<T>> {
  const envelope = makeEnvelope(type, projectId, data, { occurredAt });
  await stack.nc
    .jetstream()
    .publish(eventSubject(type, projectId), encodeJson(envelope), { msgID: envelope.eventId });
  return envelope;
}

/** Resolves once the context service has committed the effect of this event (its inbox row). */
export async function consumedByContext(
  stack: Stack,
  envelope: Pick<EventEnvelope, 'eventId' | 'type'>,
): Promise<void> {
  const consumer = durableOf('context', envelope.type);
  await waitFor(
    async () => {
      const rows: unknown[] = await stack
        .service('context')
        .dataSource.query(`SELECT 1 FROM inbox WHERE consumer = $1 AND message_id = $2`, [
          consumer,
          envelope.eventId,
        ]);
      return rows.length > 0;
    },
    { what: `${envelope.type} ${envelope.eventId} consumed by context` },
  );
}

/** Publishes the story (now) and waits until the context service has applied it. */
export async function upsertStory(
  stack: Stack,
  projectId: string,
  storyId: string,
  fields: StoryFields = {},
) {
  const envelope = await stack.publishAgentEvent(AgentEvent.StoryUpserted, projectId, story(storyId, fields));
  await consumedByContext(stack, envelope);
  return envelope;
}

/** Publishes a task's status (now) and waits until the context service has applied it. */
export async function taskStatus(
  stack: Stack,
  projectId: string,
  data: { taskId: string; storyId?: string; status?: string; stage?: string },
) {
  const envelope = await stack.publishAgentEvent(AgentEvent.TaskStatus, projectId, data);
  await consumedByContext(stack, envelope);
  return envelope;
}
