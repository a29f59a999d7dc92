import type { NatsConnection } from 'nats';
import { isRefusal, type Reply } from '@openq/contracts';
import { decodeJson, encodeJson, isRetryLater } from '@openq/messaging';
import type { QuestionRequest } from '../../domain/gate-cycle';
import { QuestionDeclarer } from '../../adapters/question-declarer';
import { declareQaQuestions, qaToolCallId } from './qa-question-declarer';

const QUESTION_ID = '01890a5d-ac96-774b-bcce-b302099a8057';

/** A NATS connection whose requests get `replies` in turn, and that remembers what was asked. */
function natsAnswering(...replies: Reply<unknown>[]) {
  const sent: { subject: string; payload: unknown }[] = [];
  const nc = {
    request: async (subject: string, data: Uint8Array) => {
      const decoded = decodeJson(data);
      sent.push({ subject, payload: decoded.ok ? decoded.value : null });
      const reply = replies.shift();
      if (!reply) throw new Error('no reply left');
      return { data: encodeJson(reply) };
    },
  };
  return { nc: nc as unknown as NatsConnection, sent };
}

const request = (question = 'Archived codes: 404 or 410?'): QuestionRequest => ({
  roundId: 'r1',
  sessionAuthorId: 'ana',
  role: 'qa-agent',
  origin: 'qa_verdict',
  affects: { rules: [], stories: [], tasks: ['T1'] },
  declare: [{ key: 'r1:rules', subspecialty: 'rules', question, suggestion: '410 Gone' }],
  link: [],
});
const origin = { taskId: 'T1', gate: 'qa' as const, sessionId: 'qa-s1', correlationId: 'c1' };

describe('declareQaQuestions', () => {
  it('declares the question as qa-agent, for the execution session author, with a stable toolCallId', async () => {
    const { nc, sent } = natsAnswering({ ok: true, data: { questionId: QUESTION_ID, created: true } });
    expect(await declareQaQuestions(new QuestionDeclarer(nc), 'p1', origin, request())).toEqual([
      QUESTION_ID,
    ]);
    expect(sent).toEqual([
      {
        subject: 'openq.questions.declare',
        payload: {
          projectId: 'p1',
          declaration: {
            sessionId: 'qa-s1',
            sessionAuthorId: 'ana',
            autor: 'qa-agent',
            origin: 'qa_verdict',
            pergunta: 'Archived codes: 404 or 410?',
            sugestao: '410 Gone',
            afeta: { regras: [], historias: [], tarefas: ['T1'] },
            toolCallId: 'qa:T1:qa:r1:rules',
          },
        },
      },
    ]);
  });

  it.each([
    [503, true],
    [504, true],
    [500, false],
  ])(
    'throws on a %i reply, so the verdict is retried (until the service is back: %s)',
    async (statusCode, untilBack) => {
      const { nc } = natsAnswering({ ok: false, error: { statusCode, reason: 'x', message: 'down' } });
      const error: unknown = await declareQaQuestions(
        new QuestionDeclarer(nc),
        'p1',
        origin,
        request(),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(isRetryLater(error)).toBe(untilBack);
    },
  );

  it('returns a 4xx reply as a refusal (retrying would be refused again)', async () => {
    const { nc } = natsAnswering({
      ok: false,
      error: { statusCode: 400, reason: 'corpo_invalido', message: 'bad' },
    });
    const outcome = await declareQaQuestions(new QuestionDeclarer(nc), 'p1', origin, request());
    expect(isRefusal(outcome) && outcome).toMatchObject({ statusCode: 400, reason: 'corpo_invalido' });
  });

  it('refuses an invalid declaration before calling anyone', async () => {
    const { nc, sent } = natsAnswering();
    const outcome = await declareQaQuestions(
      new QuestionDeclarer(nc),
      'p1',
      origin,
      request('x'.repeat(501)),
    );
    expect(isRefusal(outcome) && outcome).toMatchObject({ statusCode: 400, reason: 'pergunta_invalida' });
    expect(sent).toHaveLength(0);
  });

  it('keeps toolCallIds within 200 characters, deterministically', () => {
    const long = qaToolCallId('t'.repeat(64), 'secops', `${'r'.repeat(64)}:${'s'.repeat(64)}`);
    expect(long).toMatch(/^qa:sha256:[0-9a-f]{64}$/);
    expect(qaToolCallId('t'.repeat(64), 'secops', `${'r'.repeat(64)}:${'s'.repeat(64)}`)).toBe(long);
  });
});
