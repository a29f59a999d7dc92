import {
  checkAdmission,
  nextAdmissions,
  queueSnapshot,
  type AdmissionFlags,
  type Freezes,
  type QueueTask,
} from './admission';

const PAUSED = new Date(Date.UTC(2026, 5, 17, 10));
const ON: AdmissionFlags = { serialGatePauseEnabled: true };
const OFF: AdmissionFlags = { serialGatePauseEnabled: false };
const NO_FREEZE: Freezes = { repos: [] };
const task = (taskId: string, order: number, over: Partial<QueueTask> = {}): QueueTask => ({
  taskId,
  repo: 'api',
  order,
  deps: [],
  stage: 'created',
  pausedAt: null,
  ...over,
});

describe('per-repo serial gate', () => {
  const candidate = task('B', 2);

  it.each<
    [
      string,
      QueueTask[],
      Freezes,
      AdmissionFlags,
      { admissible: boolean; blockingReason: string; blockedBy?: string[] },
    ]
  >([
    ['first task of the repo', [], NO_FREEZE, ON, { admissible: true, blockingReason: 'none' }],
    [
      'earlier active task blocks',
      [task('A', 1, { stage: 'analysis' })],
      NO_FREEZE,
      ON,
      { admissible: false, blockingReason: 'active_task', blockedBy: ['A'] },
    ],
    [
      'earlier task not yet admitted still blocks (FIFO)',
      [task('A', 1)],
      NO_FREEZE,
      ON,
      { admissible: false, blockingReason: 'active_task', blockedBy: ['A'] },
    ],
    [
      'earlier paused task does not block',
      [task('A', 1, { stage: 'analysis', pausedAt: PAUSED })],
      NO_FREEZE,
      ON,
      { admissible: true, blockingReason: 'none' },
    ],
    [
      'flag off: earlier paused task blocks',
      [task('A', 1, { stage: 'analysis', pausedAt: PAUSED })],
      NO_FREEZE,
      OFF,
      { admissible: false, blockingReason: 'active_task' },
    ],
    [
      'earlier done task does not block',
      [task('A', 1, { stage: 'done' })],
      NO_FREEZE,
      ON,
      { admissible: true, blockingReason: 'none' },
    ],
    [
      'earlier cancelled task does not block',
      [task('A', 1, { stage: 'cancelled' })],
      NO_FREEZE,
      OFF,
      { admissible: true, blockingReason: 'none' },
    ],
    [
      'later pending task does not block',
      [task('C', 3)],
      NO_FREEZE,
      ON,
      { admissible: true, blockingReason: 'none' },
    ],
    [
      'later task already admitted blocks (registered out of order)',
      [task('C', 3, { stage: 'analysis' })],
      NO_FREEZE,
      ON,
      { admissible: false, blockingReason: 'active_task', blockedBy: ['C'] },
    ],
    [
      'later task admitted then paused does not block',
      [task('C', 3, { stage: 'analysis', pausedAt: PAUSED })],
      NO_FREEZE,
      ON,
      { admissible: true, blockingReason: 'none' },
    ],
    [
      'another repo does not block',
      [task('A', 1, { repo: 'web', stage: 'analysis' })],
      NO_FREEZE,
      ON,
      { admissible: true, blockingReason: 'none' },
    ],
    [
      'equal order: the lower task id goes first',
      [task('A', 2)],
      NO_FREEZE,
      ON,
      { admissible: false, blockingReason: 'active_task' },
    ],
    ['frozen repo blocks', [], { repos: ['api'] }, ON, { admissible: false, blockingReason: 'freeze' }],
    [
      'another repo frozen does not',
      [],
      { repos: ['web'] },
      ON,
      { admissible: true, blockingReason: 'none' },
    ],
  ])('%s', (_name, others, freezes, flags, expected) => {
    expect(checkAdmission(candidate, [candidate, ...others], freezes, flags)).toMatchObject(expected);
  });

  describe('dependencies', () => {
    it.each<[string, QueueTask, { admissible: boolean; blockingReason: string; blockedBy?: string[] }]>([
      [
        'a done dependency lets it in',
        task('D', 9, { repo: 'lib', stage: 'done' }),
        { admissible: true, blockingReason: 'none' },
      ],
      [
        'an unfinished dependency blocks',
        task('D', 9, { repo: 'lib', stage: 'analysis' }),
        { admissible: false, blockingReason: 'dependency', blockedBy: ['D'] },
      ],
      [
        'a paused dependency still blocks',
        task('D', 9, { repo: 'lib', stage: 'analysis', pausedAt: PAUSED }),
        { admissible: false, blockingReason: 'dependency' },
      ],
      [
        'a cancelled dependency is not done',
        task('D', 9, { repo: 'lib', stage: 'cancelled' }),
        { admissible: false, blockingReason: 'dependency' },
      ],
    ])('%s', (_name, dep, expected) => {
      const b = task('B', 2, { deps: ['D'] });
      expect(checkAdmission(b, [b, dep], NO_FREEZE, ON)).toMatchObject(expected);
    });

    it('an unknown dependency blocks', () => {
      const b = task('B', 2, { deps: ['ghost'] });
      expect(checkAdmission(b, [b], NO_FREEZE, ON)).toMatchObject({
        blockingReason: 'dependency',
        blockedBy: ['ghost'],
      });
    });
  });

  it.each<[string, Freezes, QueueTask[], string]>([
    [
      'freeze > dependency > active task',
      { repos: ['api'] },
      [task('A', 1, { stage: 'analysis' })],
      'freeze',
    ],
    ['dependency > active task', NO_FREEZE, [task('A', 1, { stage: 'analysis' })], 'dependency'],
    [
      'active task alone',
      NO_FREEZE,
      [task('A', 1, { stage: 'analysis' }), task('D', 0, { repo: 'lib', stage: 'done' })],
      'active_task',
    ],
  ])('precedence: %s', (_name, freezes, others, reason) => {
    const b = task('B', 2, { deps: ['D'] });
    expect(checkAdmission(b, [b, ...others], freezes, ON).blockingReason).toBe(reason);
  });

  it('the freeze check fails closed', () => {
    expect(checkAdmission(candidate, [candidate], { error: 'freeze table unreachable' }, ON)).toEqual({
      admissible: false,
      blockingReason: 'freeze',
      blockedBy: [],
      degraded: true,
      error: 'freeze table unreachable',
    });
    const broken = { repos: null } as unknown as Freezes;
    expect(checkAdmission(candidate, [candidate], broken, ON)).toMatchObject({
      admissible: false,
      blockingReason: 'freeze',
      degraded: true,
    });
  });

  it('the rest of the predicate fails open', () => {
    const malformed = { ...candidate, deps: null } as unknown as QueueTask;
    expect(
      checkAdmission(malformed, [malformed, task('A', 1, { stage: 'analysis' })], NO_FREEZE, ON),
    ).toMatchObject({
      admissible: true,
      blockingReason: 'none',
      degraded: true,
      error: expect.any(String),
    });
  });
});

describe('nextAdmissions', () => {
  it('admits the next task of a repo while the first is paused, never a paused, started or terminal one', () => {
    const tasks = [
      task('A', 1, { stage: 'analysis', pausedAt: PAUSED }),
      task('B', 2),
      task('C', 3),
      task('P', 0, { repo: 'web', pausedAt: PAUSED }),
      task('W', 1, { repo: 'web' }),
      task('X', 0, { repo: 'ops', stage: 'done' }),
    ];
    expect(nextAdmissions(tasks, NO_FREEZE, ON)).toEqual(['W', 'B']);
    expect(nextAdmissions(tasks, NO_FREEZE, OFF)).toEqual([]);
  });
});

describe('queueSnapshot', () => {
  const tasks = [
    task('E', 5, { stage: 'created' }),
    task('A', 1, { stage: 'done' }),
    task('B', 2, { stage: 'analysis', pausedAt: PAUSED }),
    task('C', 3, { stage: 'architecture' }),
    task('D', 4, { stage: 'cancelled' }),
    task('F', 1, { repo: 'web' }),
  ];

  it('gives each task its state and blocking reason, in FIFO order, using the same predicate', () => {
    expect(
      queueSnapshot(tasks, NO_FREEZE, ON, 'api').map((e) => [
        e.taskId,
        e.state,
        e.blockingReason,
        e.blockedBy,
      ]),
    ).toEqual([
      ['A', 'done', 'none', []],
      ['B', 'paused', 'none', []],
      ['C', 'active', 'none', []],
      ['D', 'cancelled', 'none', []],
      ['E', 'waiting', 'active_task', ['C']],
    ]);
    expect(
      queueSnapshot(tasks, { repos: ['web'] }, ON).map((e) => [e.taskId, e.state, e.blockingReason]),
    ).toEqual([
      ['A', 'done', 'none'],
      ['F', 'waiting', 'freeze'],
      ['B', 'paused', 'none'],
      ['C', 'active', 'none'],
      ['D', 'cancelled', 'none'],
      ['E', 'waiting', 'active_task'],
    ]);
  });

  it('shows a task admissible once nothing blocks it', () => {
    const free = [task('A', 1, { stage: 'done' }), task('B', 2)];
    expect(queueSnapshot(free, NO_FREEZE, ON)[1]).toEqual({
      taskId: 'B',
      repo: 'api',
      order: 2,
      stage: 'created',
      state: 'admissible',
      blockingReason: 'none',
      blockedBy: [],
      pausedAt: null,
      degraded: false,
    });
    expect(queueSnapshot(tasks, NO_FREEZE, ON).find((e) => e.taskId === 'B')?.pausedAt).toBe(
      PAUSED.toISOString(),
    );
  });
});
