import { AgentEvent, OpenqEvent, type StoryArchived } from '@openq/contracts';
import { replayContextReadModels } from '../../services/context/src/context/projections/replay';
import { consumedByContext, publishAgentEventAt, story, upsertStory } from '../support/context-helpers';
import { Stack } from '../support/stack';

// SPEC §11.3 / ADR 0214 §8: archiving stays for drafts, through both doors of §6.4.
const P = 'proj-archive';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['context'] });
});
afterAll(() => stack.stop());

type Door = 'user' | 'agent';

function archive(door: Door, storyId: string, role: 'viewer' | 'developer' = 'developer') {
  return door === 'user'
    ? stack.http('POST', `/projects/${P}/stories/${storyId}/archive`, { token: stack.token('dev1', P, role) })
    : stack.http('POST', `/internal/projects/${P}/stories/${storyId}/archive`, { service: true });
}

/** `story.archived` written to the context outbox for the story: the exact count of effects. */
async function written(storyId: string): Promise<StoryArchived[]> {
  const rows: { data: StoryArchived }[] = await stack.service('context').dataSource.query(
    `SELECT envelope->'data' AS data FROM outbox
      WHERE envelope->>'type' = $1 AND envelope->>'projectId' = $2 AND envelope->'data'->>'storyId' = $3 ORDER BY id`,
    [OpenqEvent.StoryArchived, P, storyId],
  );
  return rows.map((r) => r.data);
}

async function archivedFlag(storyId: string): Promise<boolean | undefined> {
  const rows: { archived: boolean }[] = await stack
    .service('context')
    .dataSource.query(`SELECT archived FROM context_story WHERE project_id = $1 AND story_id = $2`, [
      P,
      storyId,
    ]);
  return rows[0]?.archived;
}

describe('context: archiving a story (SPEC §11.3)', () => {
  it('a developer archives a draft: 200, story.archived names who, and again is 200 with no second event', async () => {
    await upsertStory(stack, P, 'D-1');
    expect(await archive('user', 'D-1')).toEqual({ status: 200, body: { archived: true, storyId: 'D-1' } });
    const published = await stack.events.waitForType<StoryArchived>(OpenqEvent.StoryArchived, 1);
    expect(published.find((e) => e.data.storyId === 'D-1')).toMatchObject({
      projectId: P,
      data: { storyId: 'D-1', actor: { kind: 'user', id: 'dev1' } },
    });
    expect(await archivedFlag('D-1')).toBe(true);

    expect(await archive('user', 'D-1')).toEqual({ status: 200, body: { archived: true, storyId: 'D-1' } });
    expect(await archive('agent', 'D-1')).toEqual({ status: 200, body: { archived: true, storyId: 'D-1' } });
    expect(await written('D-1')).toHaveLength(1);

    // An archived story is out of the correction rule's reach (§6.4).
    const correction = await stack.http('POST', `/projects/${P}/stories/D-1/corrections`, {
      token: stack.token('dev1', P, 'developer'),
      body: { changes: { title: 'too late' } },
    });
    expect(correction).toMatchObject({ status: 409, body: { reason: 'historia_arquivada' } });
  });

  it('the agent/po door archives a draft through the internal twin (service token only)', async () => {
    await upsertStory(stack, P, 'D-2');
    expect(await stack.http('POST', `/internal/projects/${P}/stories/D-2/archive`, {})).toMatchObject({
      status: 401,
      body: { reason: 'token_de_servico_invalido' },
    });
    expect(
      await stack.http('POST', `/internal/projects/${P}/stories/D-2/archive`, {
        token: stack.token('dev1', P, 'owner'),
      }),
    ).toMatchObject({ status: 401 });
    expect(await archive('agent', 'D-2')).toEqual({ status: 200, body: { archived: true, storyId: 'D-2' } });
    expect(await written('D-2')).toEqual([{ storyId: 'D-2', actor: { kind: 'agent', id: 'po' } }]);
  });

  it.each<Door>(['user', 'agent'])(
    'the %s door refuses a story that is not a draft (409 historia_nao_draft) and an unknown one (404)',
    async (door) => {
      await upsertStory(stack, P, `R-${door}`, { status: 'ready' });
      const refused = await archive(door, `R-${door}`);
      expect(refused).toEqual({
        status: 409,
        body: { statusCode: 409, reason: 'historia_nao_draft', message: expect.stringContaining('draft') },
      });
      expect(await archivedFlag(`R-${door}`)).toBe(false);
      expect(await written(`R-${door}`)).toEqual([]);

      expect(await archive(door, 'NOPE')).toEqual({
        status: 404,
        body: { statusCode: 404, reason: 'historia_nao_encontrada', message: expect.any(String) },
      });
    },
  );

  it('a viewer gets 403 papel_insuficiente and nothing is archived', async () => {
    await upsertStory(stack, P, 'D-3');
    expect(await archive('user', 'D-3', 'viewer')).toMatchObject({
      status: 403,
      body: { reason: 'papel_insuficiente' },
    });
    expect(await archivedFlag('D-3')).toBe(false);
  });

  it('an older upsert delivered late leaves the archive; a newer one from the engine wins; a replay agrees', async () => {
    const before = new Date(Date.now() - 60_000);
    await upsertStory(stack, P, 'D-4');
    expect(await archive('user', 'D-4')).toMatchObject({ status: 200 });
    const late = await publishAgentEventAt(
      stack,
      AgentEvent.StoryUpserted,
      P,
      story('D-4', { status: 'draft', title: 'late' }),
      before,
    );
    await consumedByContext(stack, late);
    expect(await archivedFlag('D-4')).toBe(true);

    const rebuilt = await replayContextReadModels(stack.service('context').dataSource, stack.nc);
    expect(rebuilt.types[OpenqEvent.StoryArchived].applied).toBeGreaterThanOrEqual(1);
    expect(await archivedFlag('D-4')).toBe(true);
    expect(await archivedFlag('D-1')).toBe(true);
    expect(await archivedFlag('R-user')).toBe(false);

    await upsertStory(stack, P, 'D-4', { archived: false, title: 'restored by the engine' });
    expect(await archivedFlag('D-4')).toBe(false);
  });
});
