import fc from 'fast-check';
import { selectDecisions, type CandidateDecision } from './decision-selection';

let seq = 0;
type Overrides = Partial<Omit<CandidateDecision, 'affects'>> & {
  affects?: Partial<CandidateDecision['affects']>;
};

function decision(overrides: Overrides = {}): CandidateDecision {
  seq += 1;
  const n = String(seq).padStart(12, '0');
  return {
    decisionEventId: `0190a000-0000-7000-8000-${n}`,
    questionId: `0190b000-0000-7000-8000-${n}`,
    pergunta: `question ${seq}?`,
    resposta: `answer ${seq}`,
    respondidaPor: 'u1',
    viaAgente: null,
    decidedAt: `2026-11-05T10:00:${String(seq % 60).padStart(2, '0')}.000Z`,
    ...overrides,
    affects: { rules: [], stories: [], tasks: [], ...overrides.affects },
  };
}

const task = { taskId: 'T1', storyId: 'S1' };
const story = { storyId: 'S1', rules: ['RN-858', 'RN-860'] };
const ids = (views: { decisionEventId: string }[]): string[] => views.map((v) => v.decisionEventId);

describe('selectDecisions: linking (SPEC §6)', () => {
  it('links a decision whose afeta.tarefas holds the task', () => {
    const d = decision({ affects: { tasks: ['T9', 'T1'] } });
    expect(ids(selectDecisions(task, story, [d]))).toEqual([d.decisionEventId]);
  });

  it('links a decision whose afeta.historias holds the task’s story', () => {
    const d = decision({ affects: { stories: ['S1'] } });
    expect(ids(selectDecisions(task, story, [d]))).toEqual([d.decisionEventId]);
  });

  it('links a decision whose afeta.regras meets the story’s rules', () => {
    const d = decision({ affects: { rules: ['RN-001', 'RN-860'] } });
    expect(ids(selectDecisions(task, story, [d]))).toEqual([d.decisionEventId]);
  });

  it('leaves out decisions about other tasks, stories and rules', () => {
    const other = decision({ affects: { tasks: ['T2'], stories: ['S2'], rules: ['RN-001'] } });
    const none = decision();
    expect(selectDecisions(task, story, [other, none])).toEqual([]);
  });

  it('a task without a story is linked only through afeta.tarefas', () => {
    const byTask = decision({ affects: { tasks: ['T1'] } });
    const byRule = decision({ affects: { rules: ['RN-858'] } });
    expect(ids(selectDecisions({ taskId: 'T1', storyId: null }, null, [byTask, byRule]))).toEqual([
      byTask.decisionEventId,
    ]);
  });

  it('returns the wire view (no afeta)', () => {
    const d = decision({ affects: { tasks: ['T1'] }, viaAgente: 'po' });
    expect(selectDecisions(task, story, [d])).toEqual([
      {
        decisionEventId: d.decisionEventId,
        questionId: d.questionId,
        pergunta: d.pergunta,
        resposta: d.resposta,
        respondidaPor: 'u1',
        viaAgente: 'po',
        decidedAt: d.decidedAt,
      },
    ]);
  });
});

describe('selectDecisions: order and one per question', () => {
  it('is newest first, comparing instants (offsets and fraction digits included), not strings', () => {
    const older = decision({ affects: { tasks: ['T1'] }, decidedAt: '2026-11-05T12:00:00Z' });
    const newer = decision({ affects: { tasks: ['T1'] }, decidedAt: '2026-11-05T10:00:00-03:00' });
    const newest = decision({ affects: { tasks: ['T1'] }, decidedAt: '2026-11-05T13:00:00.5Z' });
    expect(ids(selectDecisions(task, story, [older, newest, newer]))).toEqual(
      [newest, newer, older].map((d) => d.decisionEventId),
    );
  });

  it('breaks a tie on the instant by decisionEventId, descending', () => {
    const at = '2026-11-05T10:00:00.000Z';
    const a = decision({
      affects: { tasks: ['T1'] },
      decidedAt: at,
      decisionEventId: '0190a000-0000-7000-8000-00000000000a',
    });
    const b = decision({
      affects: { tasks: ['T1'] },
      decidedAt: '2026-11-05T10:00:00Z',
      decisionEventId: '0190a000-0000-7000-8000-00000000000b',
    });
    expect(ids(selectDecisions(task, story, [a, b]))).toEqual([b.decisionEventId, a.decisionEventId]);
  });

  it('keeps one decision per question, the newest; the superseded one never appears', () => {
    const first = decision({ affects: { stories: ['S1'] }, decidedAt: '2026-11-05T09:00:00Z' });
    const second = decision({
      ...first,
      decisionEventId: '0190a000-0000-7000-8000-ffffffffffff',
      resposta: 'changed my mind',
      decidedAt: '2026-11-05T11:00:00Z',
    });
    const views = selectDecisions(task, story, [second, first]);
    expect(views).toHaveLength(1);
    expect(views[0]?.resposta).toBe('changed my mind');
  });

  it('gives the same result whatever the input order', () => {
    const pool = Array.from({ length: 8 }, (_, i) =>
      decision({
        affects: { tasks: ['T1'] },
        questionId: `q-${i % 5}`,
        decidedAt: `2026-11-05T10:00:0${i % 3}Z`,
      }),
    );
    const expected = selectDecisions(task, story, pool);
    fc.assert(
      fc.property(
        fc.shuffledSubarray(pool, { minLength: pool.length, maxLength: pool.length }),
        (shuffled) => {
          expect(selectDecisions(task, story, shuffled)).toEqual(expected);
        },
      ),
    );
    expect(new Set(expected.map((d) => d.questionId)).size).toBe(expected.length);
  });
});
