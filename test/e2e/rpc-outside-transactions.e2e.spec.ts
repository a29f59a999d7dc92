import type { Msg, Subscription } from 'nats';
import { AgentEvent, Commands, OpenqEvent, newId } from '@openq/contracts';
import { decodeJson, encodeJson, RpcClient } from '@openq/messaging';
import { waitFor } from '@openq/testing';
import { ask, gatesOf, publishVerdict, startGate } from '../support/gates';
import { analystPackage, BEFORE, PipelineDriver, Q_AT } from '../support/pipeline';
import { Stack } from '../support/stack';

/**
 * Issue #14: no pooled connection is held across a call to another service. The gates and
 * context services run here with ONE pooled connection each, and the questions service is a
 * stand-in on the real broker that holds its replies until the test lets them go. While a
 * verdict waits on `openq.questions.declare` (and a correction on `openq.questions.status`),
 * the same service still serves other work, which needs that one connection: with the call
 * made inside the transaction it would wait for the connection until the call timed out (5 s).
 * So does the analyst's declare, which would also hold the project's pipeline lock.
 */
const P = 'rpcpool';
/** Well under the 5 s RPC timeout a held connection would be released after. */
const PROMPTLY_MS = 2_000;

let stack: Stack;
let rpc: RpcClient;

/** A questions service that answers `subject` only when the test releases each request. */
class HeldOwner {
  readonly held: Msg[] = [];
  private readonly sub: Subscription;

  constructor(subject: string) {
    this.sub = stack.nc.subscribe(subject, {
      queue: 'questions',
      callback: (_err, msg) => this.held.push(msg),
    });
  }

  payload(i: number): Record<string, unknown> {
    const decoded = decodeJson(this.held[i]!.data);
    return (decoded.ok ? decoded.value : {}) as Record<string, unknown>;
  }

  reply(i: number, data: unknown): void {
    this.held[i]!.respond(encodeJson({ ok: true, data }));
  }

  stop(): void {
    this.sub.unsubscribe();
  }
}

beforeAll(async () => {
  stack = await Stack.start({ services: ['gates', 'context'], poolSize: { gates: 1, context: 1 } });
  rpc = new RpcClient(stack.nc, PROMPTLY_MS);
  await stack.nc.flush();
});
afterAll(() => stack?.stop());

describe('a call to the questions service holds no pooled connection', () => {
  it('gates: while the verdict waits on the declare, the one connection serves other work', async () => {
    const owner = new HeldOwner(Commands.questions.declare.type);
    try {
      await startGate(stack, P, 'T1');
      await publishVerdict(stack, P, 'T1', 'r1', [ask('rules', 'Archived codes: 404 or 410?', '410')]);
      await waitFor(async () => owner.held.length > 0, { what: 'the verdict declaring its question' });

      // A request (the gate list: one read) and an agent event (a cycle started: one transaction)
      // each need the service's only connection while the declare is still unanswered.
      const started = Date.now();
      const list = await rpc.request(Commands.gates.list.service, Commands.gates.list.verb, {
        projectId: P,
        taskId: 'T1',
      });
      expect(list).toMatchObject({ ok: true, data: [expect.objectContaining({ state: 'running' })] });
      expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
      await startGate(stack, P, 'T2');
      expect(owner.held).toHaveLength(1);

      // The questions service answers: the round parks on the question it declared.
      const questionId = newId();
      expect(owner.payload(0)).toMatchObject({
        projectId: P,
        declaration: {
          toolCallId: 'qa:T1:qa:r1:rules',
          autor: 'qa-agent',
          pergunta: 'Archived codes: 404 or 410?',
        },
      });
      owner.reply(0, { questionId, created: true });
      await waitFor(async () => (await gatesOf(stack, P, 'T1')).body[0]?.waitingForYou === true, {
        what: 'T1 parked on the decision',
      });
      expect((await gatesOf(stack, P, 'T1')).body[0]).toMatchObject({
        state: 'parked',
        parkedReason: 'user_decision',
        questionIds: [questionId],
      });
      const parked = await stack.events.waitForType(OpenqEvent.GateRescueParked, 1);
      expect(parked[0]?.data).toMatchObject({
        taskId: 'T1',
        reason: 'user_decision',
        questionIds: [questionId],
      });
      // Declared once: nothing retried the call while the first one waited.
      expect(owner.held).toHaveLength(1);
    } finally {
      owner.stop();
    }
  });

  it('gates: while the analyst declares its questions, the project pipeline lock is free', async () => {
    const owner = new HeldOwner(Commands.questions.declare.type);
    const p = new PipelineDriver(stack, 'rpcpool-pipe');
    try {
      await p.register('A1', 'R', 1);
      await p.published(OpenqEvent.PipelineTaskAdmitted, 'A1');
      await p.finishAnalysis('A1', 'R', {
        package: analystPackage(Q_AT, BEFORE),
        questions: [{ pergunta: 'Keep the legacy export?', sugestao: 'no' }],
      });
      await waitFor(async () => owner.held.length > 0, { what: 'the analysis declaring its question' });

      // Registering a task of the same project takes its pipeline lock and the one connection:
      // both free while the declare is unanswered.
      const started = Date.now();
      await p.register('A2', 'R', 2);
      expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
      expect(owner.held).toHaveLength(1);

      const questionId = newId();
      expect(owner.payload(0)).toMatchObject({
        projectId: 'rpcpool-pipe',
        declaration: { autor: 'analyst', pergunta: 'Keep the legacy export?' },
      });
      owner.reply(0, { questionId, created: true });
      const [needsInput] = await p.published(OpenqEvent.PipelineNeedsInput, 'A1');
      expect(needsInput!.data).toEqual({ taskId: 'A1', repo: 'R', questionIds: [questionId] });
      // Declared once: nothing retried the call while the first one waited.
      expect(owner.held).toHaveLength(1);
    } finally {
      owner.stop();
    }
  });

  it('context: while a correction asks the owner about its question, the one connection serves other work', async () => {
    const owner = new HeldOwner(Commands.questions.status.type);
    try {
      const questionId = newId();
      const correction = rpc.request(
        Commands.context.correctStory.service,
        Commands.context.correctStory.verb,
        {
          projectId: P,
          storyId: 'S1',
          questionId,
          changes: { title: 'A title' },
          actor: { kind: 'user', id: 'ana' },
        },
        { timeoutMs: 15_000 },
      );
      await waitFor(async () => owner.held.length > 0, { what: 'the correction asking the owner' });
      expect(owner.payload(0)).toEqual({ projectId: P, questionIds: [questionId] });

      const started = Date.now();
      const turn = await rpc.request(
        Commands.context.turnContext.service,
        Commands.context.turnContext.verb,
        {
          projectId: P,
          role: 'po',
        },
      );
      expect(turn).toMatchObject({ ok: true, data: expect.objectContaining({ decisoesTotal: 0 }) });
      expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
      // An agent event the context consumes (a story upserted) is applied meanwhile too.
      await stack.publishAgentEvent(AgentEvent.StoryUpserted, P, {
        storyId: 'S2',
        status: 'draft',
        archived: false,
        title: 'Other story',
        rf: [],
        rnf: [],
        dod: [],
        dor: [],
        regras: [],
        taskIds: [],
      });
      await waitFor(
        async () =>
          (
            (await stack
              .service('context')
              .dataSource.query(`SELECT 1 FROM context_story WHERE project_id = $1 AND story_id = 'S2'`, [
                P,
              ])) as unknown[]
          ).length === 1,
        { what: 'the story upserted while the correction waits' },
      );

      owner.reply(0, { items: [{ questionId, status: 'absent', decisionEventId: null, answeredAt: null }] });
      expect(await correction).toMatchObject({ ok: false, error: { statusCode: 404 } });
    } finally {
      owner.stop();
    }
  });
});
