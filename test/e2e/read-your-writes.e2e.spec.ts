import { waitFor } from '@openq/testing';
import { answer, declare, upsertStory } from '../support/context-helpers';
import { askExisting, emitted, publishVerdict } from '../support/gates';
import { Stack } from '../support/stack';

/**
 * SPEC §11.2 (issue #15 item 7): whoever has just been told "declared" or "answered" is never
 * refused by the next call on the grounds that another service's read model has not caught up.
 * Each pair of calls runs back to back, with no wait between them, many times, through the
 * real stack (gateway, questions, gates, context on one NATS and PostgreSQL).
 */
const P = 'proj-ryw';
const ROUNDS = 50;
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates', 'context'] });
});
afterAll(() => stack.stop());

const correct = (storyId: string, questionId: string, dor: string) =>
  stack.http('POST', `/projects/${P}/stories/${storyId}/corrections`, {
    token: stack.token('dev1', P, 'developer'),
    body: { questionId, changes: { dor: [dor] } },
  });

describe('read-your-writes across services (SPEC §11.2)', () => {
  it(`declare → correct at once is "still open", answer → correct at once applies (${ROUNDS} times each)`, async () => {
    await upsertStory(stack, P, 'S-ryw', { status: 'ready' });
    const outcomes: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const questionId = await declare(stack, P, `Round ${i}: lookups case-insensitive?`, {
        historias: ['S-ryw'],
      });
      const early = await correct('S-ryw', questionId, `DoR ${i} (early)`);
      outcomes.push(`${early.status} ${early.body.reason}`);

      await answer(stack, P, questionId, `Yes (${i})`);
      const applied = await correct('S-ryw', questionId, `DoR ${i}`);
      outcomes.push(`${applied.status} ${applied.body.applied}`);
    }
    const expected = Array.from({ length: ROUNDS }, () => ['409 pergunta_nao_respondida', '200 true']).flat();
    expect(outcomes).toEqual(expected);
  });

  it('declare → a verdict citing it at once parks on it; answer → a verdict citing it at once never parks', async () => {
    const tasks: { taskId: string; questionId: string; answered: boolean }[] = [];
    for (let i = 0; i < 20; i++) {
      const questionId = await declare(stack, P, `Verdict ${i}: 404 or 410?`);
      const answered = i % 2 === 1;
      if (answered) await answer(stack, P, questionId, '410 Gone');
      const taskId = `T-ryw-${i}`;
      await publishVerdict(stack, P, taskId, `r-${i}`, [askExisting('rules', questionId)]);
      tasks.push({ taskId, questionId, answered });
    }
    for (const { taskId, questionId, answered } of tasks) {
      const outcome = answered ? 'gate.resumed' : 'gate.rescue_parked';
      const [event] = await waitFor(
        async () => {
          const found = await emitted(stack, outcome, P, taskId);
          return found.length > 0 ? found : false;
        },
        { what: `${outcome} of ${taskId}` },
      );
      expect(event).toMatchObject({ questionIds: [questionId] });
      expect(await emitted(stack, 'gate.verdict_rejected', P, taskId)).toEqual([]);
      // an answered question never parks the cycle, not even for a moment
      if (answered) expect(await emitted(stack, 'gate.rescue_parked', P, taskId)).toEqual([]);
    }
  });
});
