import { isRefusal } from '@openq/contracts';
import type { Story, StoryStatus } from './story';
import { decideStoryArchive } from './story-archive';
import type { CorrectionActor } from './story-correction';

function story(overrides: Partial<Story> = {}): Story {
  return {
    storyId: 'S1',
    status: 'draft',
    archived: false,
    regras: [],
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

describe('archiving a story (ADR 0214 §8, SPEC §11.3): drafts only, both doors', () => {
  it.each([user, po])('a draft is archived by %o, and story.archived names who', (actor) => {
    expect(decideStoryArchive({ storyId: 'S1', actor }, story())).toEqual({
      event: { storyId: 'S1', actor },
    });
  });

  it.each<StoryStatus>(['ready', 'in_progress', 'done'])(
    'a %s story is refused: historia_nao_draft',
    (status) => {
      const decision = decideStoryArchive({ storyId: 'S1', actor: user }, story({ status }));
      expect(isRefusal(decision) && decision).toMatchObject({
        statusCode: 409,
        reason: 'historia_nao_draft',
      });
    },
  );

  it('an unknown story is 404 historia_nao_encontrada', () => {
    const decision = decideStoryArchive({ storyId: 'S9', actor: po }, null);
    expect(isRefusal(decision) && decision).toMatchObject({
      statusCode: 404,
      reason: 'historia_nao_encontrada',
    });
    const other = decideStoryArchive({ storyId: 'S9', actor: po }, story());
    expect(isRefusal(other) && other.reason).toBe('historia_nao_encontrada');
  });

  it('archiving an archived story again succeeds without a second event (also once it left draft)', () => {
    expect(decideStoryArchive({ storyId: 'S1', actor: user }, story({ archived: true }))).toEqual({
      event: null,
    });
    expect(
      decideStoryArchive({ storyId: 'S1', actor: po }, story({ archived: true, status: 'ready' })),
    ).toEqual({
      event: null,
    });
  });
});
