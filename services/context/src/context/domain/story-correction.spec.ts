import { isRefusal } from '@openq/contracts';
import type { Story, TaskStatus } from './story';
import {
  canArchive,
  decideStoryCorrection,
  type CitedQuestion,
  type CorrectionActor,
  type StoryCorrectionRequest,
} from './story-correction';

const QID = '0190b000-0000-7000-8000-000000000001';

function story(overrides: Partial<Story> = {}): Story {
  return {
    storyId: 'S1',
    status: 'ready',
    archived: false,
    regras: ['RN-858'],
    title: 'Look up an order by code',
    rf: ['GET /:codigo returns the order'],
    rnf: [],
    dod: ['contract test green'],
    dor: ['codes case-insensitive (not confirmed by the user)'],
    ...overrides,
  };
}

const user: CorrectionActor = { kind: 'user', id: 'u1' };
const po: CorrectionActor = { kind: 'agent', id: 'po' };

function request(overrides: Partial<StoryCorrectionRequest> = {}): StoryCorrectionRequest {
  return {
    storyId: 'S1',
    questionId: QID,
    changes: { dor: ['codes case-insensitive (confirmed 05/11)'] },
    actor: po,
    ...overrides,
  };
}

function decide(
  req: StoryCorrectionRequest,
  facts: { story?: Story | null; taskStatuses?: TaskStatus[]; citedQuestion?: CitedQuestion | null } = {},
) {
  return decideStoryCorrection(req, {
    story: facts.story === undefined ? story() : facts.story,
    taskStatuses: facts.taskStatuses ?? ['todo', 'done'],
    citedQuestion:
      facts.citedQuestion === undefined ? { questionId: QID, answered: true } : facts.citedQuestion,
  });
}

const reasonOf = (result: ReturnType<typeof decide>): string =>
  isRefusal(result) ? `${result.statusCode} ${result.reason}` : 'accepted';

describe('decideStoryCorrection (ADR 0212 revised by ADR 0214 §8): refusals in order', () => {
  it('1. an archived story is refused first, whatever else is wrong', () => {
    const result = decide(request({ questionId: null }), {
      story: story({ archived: true, status: 'in_progress' }),
      taskStatuses: ['in_review'],
    });
    expect(reasonOf(result)).toBe('409 historia_arquivada');
  });

  it.each(['in_progress', 'in_review'] as const)(
    '2. a task %s refuses next, even for a ready story citing an answered question',
    (taskStatus) => {
      expect(reasonOf(decide(request(), { taskStatuses: ['done', taskStatus] }))).toBe(
        '409 historia_com_tarefa_em_execucao',
      );
      expect(
        reasonOf(
          decide(request({ questionId: null }), {
            story: story({ status: 'done' }),
            taskStatuses: [taskStatus],
          }),
        ),
      ).toBe('409 historia_com_tarefa_em_execucao');
    },
  );

  it('3. a ready story without a cited question is not a draft', () => {
    expect(reasonOf(decide(request({ questionId: null }), { citedQuestion: null }))).toBe(
      '409 historia_nao_draft',
    );
  });

  it.each(['in_progress', 'done'] as const)(
    '3. a %s story is not a draft, even citing an answered question',
    (status) => {
      expect(reasonOf(decide(request(), { story: story({ status }) }))).toBe('409 historia_nao_draft');
    },
  );

  it('4. a ready story citing an open question: pergunta_nao_respondida', () => {
    expect(reasonOf(decide(request(), { citedQuestion: { questionId: QID, answered: false } }))).toBe(
      '409 pergunta_nao_respondida',
    );
  });

  it('5. a cited question the project does not know: 404 pergunta_nao_encontrada', () => {
    expect(reasonOf(decide(request(), { citedQuestion: null }))).toBe('404 pergunta_nao_encontrada');
    expect(reasonOf(decide(request(), { citedQuestion: { questionId: 'another', answered: true } }))).toBe(
      '404 pergunta_nao_encontrada',
    );
  });

  it('refuses an empty change set (400) and an unknown story (404) before the story rules', () => {
    expect(reasonOf(decide(request({ changes: {} }), { story: story({ archived: true }) }))).toBe(
      '400 correcao_vazia',
    );
    expect(reasonOf(decide(request(), { story: null }))).toBe('404 historia_nao_encontrada');
  });

  it('refusals are results carrying a message, never throws', () => {
    const result = decide(request({ questionId: null }), { citedQuestion: null });
    expect(isRefusal(result) && result.message.length > 0).toBe(true);
  });
});

describe('decideStoryCorrection: accepted corrections', () => {
  it('a ready story is corrected by an answered question, and story.corrected says who and why', () => {
    const result = decide(request());
    if (isRefusal(result)) throw new Error(result.reason);
    expect(result.story.dor).toEqual(['codes case-insensitive (confirmed 05/11)']);
    expect(result.story.rf).toEqual(['GET /:codigo returns the order']);
    expect(result.event).toEqual({
      storyId: 'S1',
      questionId: QID,
      actor: { kind: 'agent', id: 'po' },
      changes: { dor: ['codes case-insensitive (confirmed 05/11)'] },
    });
  });

  it('one rule for both doors: the user gets the same outcome as agent/po', () => {
    for (const actor of [user, po]) {
      expect(reasonOf(decide(request({ actor, questionId: null }), { citedQuestion: null }))).toBe(
        '409 historia_nao_draft',
      );
      const ok = decide(request({ actor }));
      expect(isRefusal(ok) ? ok.reason : ok.event?.actor).toEqual(actor);
    }
  });

  it('a draft story is corrected without citing a question', () => {
    const result = decide(request({ questionId: null, changes: { title: 'New title' } }), {
      story: story({ status: 'draft' }),
      citedQuestion: null,
    });
    expect(isRefusal(result) ? result.reason : result.event?.changes).toEqual({ title: 'New title' });
  });

  it('a draft correction that cites an open question is refused: the citation would be false', () => {
    const result = decide(request(), {
      story: story({ status: 'draft' }),
      citedQuestion: { questionId: QID, answered: false },
    });
    expect(reasonOf(result)).toBe('409 pergunta_nao_respondida');
  });

  it('only fields that really change are in the event; a correction already applied publishes nothing', () => {
    const current = story();
    const same = decide(request({ changes: { title: current.title, dor: [...current.dor] } }), {
      story: current,
    });
    expect(isRefusal(same) ? same.reason : same.event).toBeNull();
    const partly = decide(request({ changes: { title: current.title, rnf: ['p95 < 200 ms'] } }), {
      story: current,
    });
    expect(isRefusal(partly) ? partly.reason : partly.event?.changes).toEqual({ rnf: ['p95 < 200 ms'] });
  });
});

describe('decideStoryCorrection: fields sent as null', () => {
  it('a null field is "not given" (the edge lets optional fields be null), never a value', () => {
    const nulls = { title: null, rf: null } as unknown as StoryCorrectionRequest['changes'];
    expect(reasonOf(decide(request({ changes: nulls })))).toBe('400 correcao_vazia');
    const result = decide(request({ changes: { ...nulls, rnf: ['p95 < 200 ms'] } }));
    if (isRefusal(result)) throw new Error(result.reason);
    expect(result.story.title).toBe('Look up an order by code');
    expect(result.event?.changes).toEqual({ rnf: ['p95 < 200 ms'] });
  });
});

describe('canArchive', () => {
  it('archiving stays draft-only', () => {
    expect(canArchive({ status: 'draft' })).toBe(true);
    for (const status of ['ready', 'in_progress', 'done'] as const)
      expect(canArchive({ status })).toBe(false);
  });
});
