import { deciderSpec } from '@openq/testing/decider';
import type { Story, StoryStatus } from './story';
import type { ArchiveStory } from './story-archive';
import type { CorrectionActor } from './story-correction';
import { storyDecider } from './story-decider';

const at = (step: number) => new Date(Date.UTC(2026, 10, 5, 10, 0, 0) + step * 1000);
const { given } = deciderSpec(storyDecider, at);

function story(overrides: Partial<Story> = {}): Story {
  return {
    storyId: 'S1',
    status: 'draft',
    archived: false,
    rules: [],
    title: 'Look up an order by code',
    rf: [],
    rnf: [],
    dod: [],
    dor: [],
    ...overrides,
  };
}

const user: CorrectionActor = { kind: 'user', id: 'u1' };
const po: CorrectionActor = { kind: 'agent', id: 'po' };

const archive = (storyId: string, actor: CorrectionActor): ArchiveStory => ({
  type: 'archive',
  storyId,
  actor,
});
/** The story as the handler loaded it (null: none in the project). */
const on = (current: Story | null) => given([], current);

describe('archiving a story (ADR 0214 §8, SPEC §11.3): drafts only, both doors', () => {
  it.each([user, po])('a draft is archived by %o, and story.archived names who', (actor) => {
    const archived = on(story()).when(archive('S1', actor), 3);
    archived.then([{ type: 'story.archived', data: { storyId: 'S1', actor }, occurredAt: at(3) }]);
    expect(archived.state?.archived).toBe(true);
  });

  it.each<StoryStatus>(['ready', 'in_progress', 'done'])(
    'a %s story is refused: historia_nao_draft',
    (status) => {
      on(story({ status })).when(archive('S1', user)).then({ statusCode: 409, reason: 'historia_nao_draft' });
    },
  );

  it('an unknown story is 404 historia_nao_encontrada', () => {
    on(null).when(archive('S9', po)).then({ statusCode: 404, reason: 'historia_nao_encontrada' });
    on(story()).when(archive('S9', po)).then({ reason: 'historia_nao_encontrada' });
  });

  it('archiving an archived story again succeeds without a second event (also once it left draft)', () => {
    on(story({ archived: true }))
      .when(archive('S1', user))
      .then([]);
    on(story({ archived: true, status: 'ready' }))
      .when(archive('S1', po))
      .then([]);
  });
});
