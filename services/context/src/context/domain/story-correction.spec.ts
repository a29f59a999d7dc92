import { deciderSpec } from '@openq/testing/decider';
import type { Story, TaskStatus } from './story';
import {
  canArchive,
  type CitedQuestion,
  type CorrectionActor,
  type CorrectStory,
  type StoryCorrected,
} from './story-correction';
import { storyDecider, type StoryEvent } from './story-decider';

const QID = '0190b000-0000-7000-8000-000000000001';
const at = (step: number) => new Date(Date.UTC(2026, 10, 5, 10, 0, 0) + step * 1000);
const { given } = deciderSpec(storyDecider, at);

function story(overrides: Partial<Story> = {}): Story {
  return {
    storyId: 'S1',
    status: 'ready',
    archived: false,
    rules: ['RN-858'],
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

/**
 * A correction of S1 (a dor change, cited by the answered QID, by agent/po), decided with the
 * facts the handler loads: the story's tasks `todo` and `done`, the cited question answered.
 */
function correct(
  overrides: Partial<Omit<CorrectStory, 'type' | 'taskStatuses' | 'citedQuestion'>> = {},
  facts: { taskStatuses?: TaskStatus[]; citedQuestion?: CitedQuestion | null } = {},
): CorrectStory {
  return {
    type: 'correct',
    storyId: 'S1',
    questionId: QID,
    changes: { dor: ['codes case-insensitive (confirmed 05/11)'] },
    actor: po,
    taskStatuses: facts.taskStatuses ?? ['todo', 'done'],
    citedQuestion:
      facts.citedQuestion === undefined ? { questionId: QID, answered: true } : facts.citedQuestion,
    ...overrides,
  };
}

/** The story as the handler loaded it (null: none in the project). */
const on = (current: Story | null = story()) => given([], current);

/** The fields a decided `story.corrected` names. */
const changesOf = (events: readonly StoryEvent[]) => (events[0] as StoryCorrected | undefined)?.data.changes;

const corrected = (data: StoryCorrected['data'], step = 100): StoryCorrected => ({
  type: 'story.corrected',
  data,
  occurredAt: at(step),
});

describe('the story decider, correct (ADR 0212 revised by ADR 0214 §8): refusals in order', () => {
  it('1. an archived story is refused first, whatever else is wrong', () => {
    on(story({ archived: true, status: 'in_progress' }))
      .when(correct({ questionId: null }, { taskStatuses: ['in_review'] }))
      .then({ statusCode: 409, reason: 'historia_arquivada' });
  });

  it.each(['in_progress', 'in_review'] as const)(
    '2. a task %s refuses next, even for a ready story citing an answered question',
    (taskStatus) => {
      on()
        .when(correct({}, { taskStatuses: ['done', taskStatus] }))
        .then({ statusCode: 409, reason: 'historia_com_tarefa_em_execucao' });
      on(story({ status: 'done' }))
        .when(correct({ questionId: null }, { taskStatuses: [taskStatus] }))
        .then({ statusCode: 409, reason: 'historia_com_tarefa_em_execucao' });
    },
  );

  it('3. a ready story without a cited question is not a draft', () => {
    on()
      .when(correct({ questionId: null }, { citedQuestion: null }))
      .then({ statusCode: 409, reason: 'historia_nao_draft' });
  });

  it.each(['in_progress', 'done'] as const)(
    '3. a %s story is not a draft, even citing an answered question',
    (status) => {
      on(story({ status })).when(correct()).then({ statusCode: 409, reason: 'historia_nao_draft' });
    },
  );

  it('4. a ready story citing an open question: pergunta_nao_respondida', () => {
    on()
      .when(correct({}, { citedQuestion: { questionId: QID, answered: false } }))
      .then({ statusCode: 409, reason: 'pergunta_nao_respondida' });
  });

  it('5. a cited question the project does not know: 404 pergunta_nao_encontrada', () => {
    on()
      .when(correct({}, { citedQuestion: null }))
      .then({ statusCode: 404, reason: 'pergunta_nao_encontrada' });
    on()
      .when(correct({}, { citedQuestion: { questionId: 'another', answered: true } }))
      .then({ statusCode: 404, reason: 'pergunta_nao_encontrada' });
  });

  it('refuses an empty change set (400) and an unknown story (404) before the story rules', () => {
    on(story({ archived: true }))
      .when(correct({ changes: {} }))
      .then({ statusCode: 400, reason: 'correcao_vazia' });
    on(null).when(correct()).then({ statusCode: 404, reason: 'historia_nao_encontrada' });
  });

  it('refusals are results carrying a message, never throws', () => {
    const { refusal } = on().when(correct({ questionId: null }, { citedQuestion: null }));
    expect(refusal.message.length > 0).toBe(true);
  });
});

describe('the story decider, correct: accepted corrections', () => {
  it('a ready story is corrected by an answered question, and story.corrected says who and why', () => {
    const result = on().when(correct());
    expect(result.state?.dor).toEqual(['codes case-insensitive (confirmed 05/11)']);
    expect(result.state?.rf).toEqual(['GET /:codigo returns the order']);
    result.then([
      corrected({
        storyId: 'S1',
        questionId: QID,
        actor: { kind: 'agent', id: 'po' },
        changes: { dor: ['codes case-insensitive (confirmed 05/11)'] },
      }),
    ]);
  });

  it('one rule for both doors: the user gets the same outcome as agent/po', () => {
    for (const actor of [user, po]) {
      on()
        .when(correct({ actor, questionId: null }, { citedQuestion: null }))
        .then({ statusCode: 409, reason: 'historia_nao_draft' });
      expect(on().when(correct({ actor })).events[0]?.data.actor).toEqual(actor);
    }
  });

  it('a draft story is corrected without citing a question', () => {
    const result = on(story({ status: 'draft' })).when(
      correct({ questionId: null, changes: { title: 'New title' } }, { citedQuestion: null }),
    );
    expect(changesOf(result.events)).toEqual({ title: 'New title' });
  });

  it('a draft correction that cites an open question is refused: the citation would be false', () => {
    on(story({ status: 'draft' }))
      .when(correct({}, { citedQuestion: { questionId: QID, answered: false } }))
      .then({ statusCode: 409, reason: 'pergunta_nao_respondida' });
  });

  it('only fields that really change are in the event; a correction already applied publishes nothing', () => {
    const current = story();
    on(current)
      .when(correct({ changes: { title: current.title, dor: [...current.dor] } }))
      .then([]);
    const partly = on(current).when(correct({ changes: { title: current.title, rnf: ['p95 < 200 ms'] } }));
    expect(changesOf(partly.events)).toEqual({ rnf: ['p95 < 200 ms'] });
  });
});

describe('the story decider, correct: fields sent as null', () => {
  it('a null field is "not given" (the edge lets optional fields be null), never a value', () => {
    const nulls = { title: null, rf: null } as unknown as CorrectStory['changes'];
    on()
      .when(correct({ changes: nulls }))
      .then({ statusCode: 400, reason: 'correcao_vazia' });
    const result = on().when(correct({ changes: { ...nulls, rnf: ['p95 < 200 ms'] } }));
    expect(result.state?.title).toBe('Look up an order by code');
    expect(changesOf(result.events)).toEqual({ rnf: ['p95 < 200 ms'] });
  });
});

describe('canArchive', () => {
  it('archiving stays draft-only', () => {
    expect(canArchive({ status: 'draft' })).toBe(true);
    for (const status of ['ready', 'in_progress', 'done'] as const)
      expect(canArchive({ status })).toBe(false);
  });
});
