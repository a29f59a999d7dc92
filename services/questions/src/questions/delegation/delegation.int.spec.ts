import type { DataSource } from 'typeorm';
import { isRefusal } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { waitFor } from '@openq/testing';
import {
  answerQuestion,
  type AnswerDecision,
  type AnswerInput as AnswerCommand,
} from '../commands/answer-question/answer-question.handler';
import { listQuestions } from '../queries/list-open-questions.query';
import { declareIn } from '../testing/declare-in';
import { useQuestionsDatabase } from '../testing/questions-database';
import { DelegationLog } from './store/delegation-log.store';
import { delegationTransaction } from './delegation-transaction';
import { grantDelegation } from './commands/grant-delegation/grant-delegation.handler';
import { revokeDelegation } from './commands/revoke-delegation/revoke-delegation.handler';
import { listDelegations } from './queries/list-delegations.query';
import { changePolicies } from '../policy/commands/change-policies/change-policies.handler';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened), { poolSize: 8 });

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const byBia: AnswerCommand = { by: 'user', userId: 'bia', resposta: 'Yes' };

function answer(projectId: string, questionId: string, command: AnswerCommand): Promise<AnswerDecision> {
  return withOutbox(ds, {}, (m, outbox) =>
    answerQuestion(m, outbox, projectId, questionId, command, new Date()),
  );
}

/** §12.1 delegation is off by default: the project turns it on (again: a change of nothing) first. */
async function grantId(projectId: string, to = 'bia'): Promise<string> {
  await changePolicies(ds, { projectId, by: 'mia', motivo: 'we answer for each other', delegacao: true });
  const reply = await grantDelegation(ds, { projectId, from: 'ana', to, until: inDays(3) });
  if (isRefusal(reply)) throw new Error(reply.reason);
  return reply.grantId;
}

describe('delegation grants in the questions service (§11.6)', () => {
  it('a grant is a log row and an outbox row under one id; the delegate’s answer records both people', async () => {
    const q = (await declareIn(ds, 'd1', { pergunta: 'Ship on Friday?', toolCallId: 'tc-d1' })).questionId;
    const id = await grantId('d1');
    const [outboxed]: { n: string }[] = await ds.query(
      `SELECT count(*) AS n FROM outbox o JOIN delegation_log l ON l.event_id = o.event_id
        WHERE l.grant_id = $1 AND o.subject = 'delegation.granted.d1'`,
      [id],
    );
    expect(Number(outboxed!.n)).toBe(1);

    const listed = await listQuestions(ds.manager, {
      projectId: 'd1',
      userId: 'bia',
      status: 'open',
      limit: 50,
    });
    expect(!isRefusal(listed) && listed.items[0]).toMatchObject({
      canAnswer: true,
      answeringAs: { userId: 'ana', grantId: id },
    });

    expect(await answer('d1', q, byBia)).toMatchObject({
      kind: 'answered',
      answered: { respondidaPor: 'ana', answeredBy: 'bia', grantId: id },
    });
    const logged: { type: string; data: Record<string, unknown> }[] = await ds.query(
      `SELECT type, data FROM question_log WHERE question_id = $1 AND type <> 'question.declared' ORDER BY position`,
      [q],
    );
    expect(logged).toEqual([
      { type: 'question.answered', data: expect.objectContaining({ answeredBy: 'bia', grantId: id }) },
      { type: 'decision.recorded', data: expect.objectContaining({ answeredBy: 'bia', grantId: id }) },
    ]);
    // The list's answered item says who clicked for whom.
    const answered = await listQuestions(ds.manager, {
      projectId: 'd1',
      userId: 'ana',
      status: 'answered',
      limit: 50,
    });
    expect(!isRefusal(answered) && answered.items[0]).toMatchObject({
      respondidaPor: 'ana',
      answeredBy: 'bia',
      grantId: id,
    });
  });

  it('the delegation log refuses UPDATE and DELETE', async () => {
    await grantId('d2');
    await expect(ds.query(`UPDATE delegation_log SET data = '{}'::jsonb`)).rejects.toThrow(/append-only/);
    await expect(ds.query(`DELETE FROM delegation_log`)).rejects.toThrow(/append-only/);
  });

  it('an answer racing a revocation waits for it on the pair lock, then sees it: delegacao_revogada', async () => {
    const q = (await declareIn(ds, 'd3', { pergunta: 'Drop the v1 API?', toolCallId: 'tc-d3' })).questionId;
    const id = await grantId('d3');
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const revoking = withOutbox(ds, {}, async (m, outbox) => {
      const log = new DelegationLog(m);
      await log.lockPairs([{ projectId: 'd3', from: 'ana', to: 'bia' }]);
      const decided = await delegationTransaction(m, outbox, log).decide(
        { type: 'revoke', projectId: 'd3', grantId: id, by: 'ana' },
        await log.load(id),
        new Date(),
      );
      locked();
      await held;
      return decided;
    });
    await isLocked;
    const answering = answer('d3', q, byBia);
    await waitFor(
      async () => {
        const [row]: { n: string }[] = await ds.query(
          `SELECT count(*) AS n FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        return Number(row!.n) > 0;
      },
      { what: 'the answer to wait on the pair lock' },
    );
    release();
    expect(isRefusal(await revoking)).toBe(false);
    expect(await answering).toMatchObject({ statusCode: 403, reason: 'delegacao_revogada' });
  });

  it('lists the grants from and to me, newest first, with where each stands', async () => {
    const first = await grantId('d4', 'bia');
    const second = await grantId('d4', 'caio');
    expect(await revokeDelegation(ds, { projectId: 'd4', grantId: first, by: 'ana' })).toMatchObject({
      status: 'revoked',
      revokedBy: 'ana',
    });
    expect(await revokeDelegation(ds, { projectId: 'd4', grantId: first, by: 'ana' })).toMatchObject({
      reason: 'delegacao_ja_revogada',
    });
    expect(await revokeDelegation(ds, { projectId: 'other', grantId: second, by: 'ana' })).toMatchObject({
      reason: 'delegacao_nao_encontrada',
    });
    const mine = await listDelegations(ds, 'd4', 'ana');
    expect(mine.given.map((g) => [g.grantId, g.status])).toEqual([
      [second, 'active'],
      [first, 'revoked'],
    ]);
    expect(mine.received).toEqual([]);
    expect((await listDelegations(ds, 'd4', 'bia')).received.map((g) => g.grantId)).toEqual([first]);
  });
});
