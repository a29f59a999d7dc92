import { blockingQuestions, type ParkedOnQuestions, type QueuedTask } from './blocking';

const at = (h: number) => `2026-12-01T${String(h).padStart(2, '0')}:00:00.000Z`;
const parked = (taskId: string, questionIds: string[], since: string): ParkedOnQuestions => ({
  taskId,
  gate: 'qa',
  questionIds,
  since,
});
const task = (taskId: string, over: Partial<QueuedTask> = {}): QueuedTask => ({
  taskId,
  repo: 'api',
  questionIds: [],
  pausedAt: null,
  blockedBy: [],
  ...over,
});

describe('blockingQuestions (issue #18)', () => {
  it('lists what waits on each question: parked gates, the Needs Input analysis, the tasks queued behind it', () => {
    const items = blockingQuestions(
      [parked('T-101', ['q1'], at(8))],
      [
        task('T-20', { questionIds: ['q2'], pausedAt: null }),
        task('T-21', { blockedBy: ['T-20'] }),
        task('T-22', { blockedBy: ['T-20', 'T-21'] }),
        task('T-30', { repo: 'web' }),
      ],
    );
    expect(items).toEqual([
      {
        questionId: 'q2',
        blocks: [
          { kind: 'analysis', taskId: 'T-20', repo: 'api', since: null },
          { kind: 'queued', taskId: 'T-21', repo: 'api', behindTaskId: 'T-20', since: null },
          { kind: 'queued', taskId: 'T-22', repo: 'api', behindTaskId: 'T-20', since: null },
        ],
        since: null,
      },
      {
        questionId: 'q1',
        blocks: [{ kind: 'gate', taskId: 'T-101', gate: 'qa', since: at(8) }],
        since: at(8),
      },
    ]);
  });

  it('orders blocking most first, then waiting longest (unknown last), then by id', () => {
    const items = blockingQuestions(
      [
        parked('T-1', ['late'], at(10)),
        parked('T-2', ['early'], at(6)),
        parked('T-3', ['both'], at(9)),
        parked('T-4', ['both', 'b-id'], at(9)),
        parked('T-5', ['a-id'], at(9)),
      ],
      [task('T-6', { questionIds: ['unknown'] })],
    );
    expect(items.map((i) => i.questionId)).toEqual(['both', 'early', 'a-id', 'b-id', 'late', 'unknown']);
    expect(items[0]?.since).toBe(at(9));
  });

  it('lists nothing when nothing waits (an open question alone blocks nothing)', () => {
    expect(blockingQuestions([], [task('T-1'), task('T-2', { blockedBy: ['T-1'] })])).toEqual([]);
  });
});
