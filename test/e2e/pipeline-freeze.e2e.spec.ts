import { AgentEvent, OpenqEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { PipelineDriver } from '../support/pipeline';
import { Stack } from '../support/stack';

// SPEC §11.3 (issue #15 item 4): the freeze axis has doors — a maintainer over HTTP, the engine
// over `agent.repo.freeze` — with who and why, events out, and the queue showing them.
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'gates'] });
});
afterAll(() => stack.stop());

type Role = 'viewer' | 'developer' | 'maintainer' | 'owner';

function freezeRoute(p: PipelineDriver, repo: string, method: 'POST' | 'DELETE', role: Role, body?: unknown) {
  return stack.http(method, `/projects/${p.projectId}/pipeline/repos/${repo}/freeze`, {
    token: stack.token(`${role}-1`, p.projectId, role),
    ...(body === undefined ? {} : { body }),
  });
}

/** The freeze events gates wrote to its outbox for `repo` (committed): the exact count of effects. */
async function freezeEvents(p: PipelineDriver, repo: string) {
  const rows = await p.gatesSql<{ type: string; data: Record<string, unknown> }>(
    `SELECT envelope->>'type' AS type, envelope->'data' AS data FROM outbox
      WHERE envelope->>'type' IN ($1, $2) AND envelope->>'projectId' = $3 AND envelope->'data'->>'repo' = $4 ORDER BY id`,
    [OpenqEvent.PipelineRepoFrozen, OpenqEvent.PipelineRepoUnfrozen, p.projectId, repo],
  );
  return rows;
}

describe('pipeline: freezing a repo over HTTP (maintainer and above)', () => {
  it('freeze holds the repo with who and why, again is 200 unchanged; unfreeze admits the waiting task at once', async () => {
    const p = new PipelineDriver(stack, 'freeze-http');
    const frozen = await freezeRoute(p, 'api', 'POST', 'maintainer', { motivo: '  release week ' });
    expect(frozen).toEqual({
      status: 200,
      body: {
        repo: 'api',
        frozen: true,
        freeze: { repo: 'api', by: 'maintainer-1', motivo: 'release week', frozenAt: expect.any(String) },
        changed: true,
      },
    });
    const published = await stack.events.waitForType(OpenqEvent.PipelineRepoFrozen, 1);
    expect(published.find((e) => e.projectId === p.projectId)).toMatchObject({
      data: { repo: 'api', by: 'maintainer-1', motivo: 'release week' },
    });

    // A task of the frozen repo waits on the freeze; another repo is not touched.
    await p.register('A1', 'api', 1);
    await p.register('W1', 'web', 1);
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'W1');
    expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'A1')).toEqual([]);
    expect(await p.task('A1', 'api')).toMatchObject({ state: 'waiting', blockingReason: 'freeze' });
    expect(await p.queue()).toMatchObject({
      frozenRepos: ['api'],
      freezes: [
        { repo: 'api', by: 'maintainer-1', motivo: 'release week', frozenAt: frozen.body.freeze.frozenAt },
      ],
    });
    expect(await p.queue('web')).toMatchObject({ frozenRepos: [], freezes: [] });

    // Freezing a frozen repo: 200, the first freeze (who, why) stands, no second event.
    expect(await freezeRoute(p, 'api', 'POST', 'owner', { motivo: 'another reason' })).toEqual({
      status: 200,
      body: { repo: 'api', frozen: true, freeze: frozen.body.freeze, changed: false },
    });
    expect(await freezeEvents(p, 'api')).toHaveLength(1);

    // Unfreeze: the waiting task is admitted in the same transaction (no sweep, no other event).
    const lifted = await freezeRoute(p, 'api', 'DELETE', 'owner');
    expect(lifted).toEqual({
      status: 200,
      body: { repo: 'api', frozen: false, freeze: null, changed: true },
    });
    expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'A1')).toHaveLength(1);
    expect((await freezeEvents(p, 'api')).map((e) => e.type)).toEqual([
      OpenqEvent.PipelineRepoFrozen,
      OpenqEvent.PipelineRepoUnfrozen,
    ]);
    const unfrozen = await stack.events.waitForType(OpenqEvent.PipelineRepoUnfrozen, 1);
    expect(unfrozen.find((e) => e.projectId === p.projectId)).toMatchObject({
      data: { repo: 'api', by: 'owner-1' },
    });
    await p.published(OpenqEvent.PipelineTaskAdmitted, 'A1');
    expect(await p.queue()).toMatchObject({ frozenRepos: [], freezes: [] });

    // Unfreezing a repo that is not frozen: 200 unchanged, no event.
    expect(await freezeRoute(p, 'api', 'DELETE', 'maintainer')).toEqual({
      status: 200,
      body: { repo: 'api', frozen: false, freeze: null, changed: false },
    });
    expect(await freezeEvents(p, 'api')).toHaveLength(2);
    await p.expectQueueAgrees();
    p.expectEventsValid();
  });

  it.each<Role>(['developer', 'viewer'])(
    'a %s gets 403 papel_insuficiente on both verbs; nothing changes',
    async (role) => {
      const p = new PipelineDriver(stack, `freeze-${role}`);
      expect(await freezeRoute(p, 'api', 'POST', role, { motivo: 'no' })).toMatchObject({
        status: 403,
        body: { statusCode: 403, reason: 'papel_insuficiente' },
      });
      expect(await freezeRoute(p, 'api', 'DELETE', role)).toMatchObject({
        status: 403,
        body: { statusCode: 403, reason: 'papel_insuficiente' },
      });
      expect(
        await p.gatesSql(`SELECT 1 FROM pipeline_repo_freeze WHERE project_id = $1`, [p.projectId]),
      ).toEqual([]);
    },
  );

  it.each([
    ['no body', undefined, 'corpo_invalido'],
    ['no motivo', {}, 'motivo_invalido'],
    ['a blank motivo', { motivo: '   ' }, 'motivo_invalido'],
    ['a motivo over 500 characters', { motivo: 'm'.repeat(501) }, 'motivo_invalido'],
    ['a made-up author', { motivo: 'x', by: 'someone-else' }, 'corpo_invalido'],
  ])('refuses %s with 400 (its reason), and writes nothing', async (_name, body, reason) => {
    const p = new PipelineDriver(stack, 'freeze-bad');
    const res = await freezeRoute(p, 'api', 'POST', 'maintainer', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, reason });
    expect(
      await p.gatesSql(`SELECT 1 FROM pipeline_repo_freeze WHERE project_id = $1`, [p.projectId]),
    ).toEqual([]);
  });

  it('a repo that is not an id is 400 parametro_invalido', async () => {
    const p = new PipelineDriver(stack, 'freeze-bad-repo');
    expect(await freezeRoute(p, 'a.b', 'POST', 'maintainer', { motivo: 'x' })).toMatchObject({
      status: 400,
      body: { reason: 'parametro_invalido' },
    });
  });
});

describe('pipeline: freezing a repo by the engine (agent.repo.freeze)', () => {
  it('freezes with by agent and motivo, unfreezes and admits; a freeze without motivo is dead-lettered', async () => {
    const p = new PipelineDriver(stack, 'freeze-agent');
    const freeze = await stack.publishAgentEvent(AgentEvent.RepoFreeze, p.projectId, {
      repo: 'svc',
      frozen: true,
      motivo: 'incident 42: hold new analysis',
    });
    await p.processed(freeze);
    await p.register('S1', 'svc', 1);
    expect(await p.task('S1', 'svc')).toMatchObject({ state: 'waiting', blockingReason: 'freeze' });
    expect(await p.queue('svc')).toMatchObject({
      freezes: [{ repo: 'svc', by: 'agent', motivo: 'incident 42: hold new analysis' }],
    });
    await waitFor(
      () =>
        stack.events
          .ofType(OpenqEvent.PipelineRepoFrozen)
          .some((e) => e.projectId === p.projectId && (e.data as { by: string }).by === 'agent'),
      { what: 'pipeline.repo_frozen by agent' },
    );

    // The same envelope again (a redelivery or a retried publish) changes nothing.
    await stack.publishAgentEvent(AgentEvent.RepoFreeze, p.projectId, freeze.data, freeze.eventId);
    // Invalid: a freeze must say why. Dead-lettered, nothing written.
    const invalid = await stack.publishAgentEvent(AgentEvent.RepoFreeze, p.projectId, {
      repo: 'other',
      frozen: true,
    });
    await waitFor(
      async () =>
        (await p.gatesSql(`SELECT 1 FROM dead_letter WHERE message_id = $1`, [invalid.eventId])).length > 0,
      { what: 'the invalid agent.repo.freeze dead-lettered' },
    );
    expect(await freezeEvents(p, 'other')).toEqual([]);

    const unfreeze = await stack.publishAgentEvent(AgentEvent.RepoFreeze, p.projectId, {
      repo: 'svc',
      frozen: false,
    });
    await p.processed(unfreeze);
    expect(await p.written(OpenqEvent.PipelineTaskAdmitted, 'S1')).toHaveLength(1);
    expect(await freezeEvents(p, 'svc')).toEqual([
      {
        type: OpenqEvent.PipelineRepoFrozen,
        data: { repo: 'svc', by: 'agent', motivo: 'incident 42: hold new analysis' },
      },
      { type: OpenqEvent.PipelineRepoUnfrozen, data: { repo: 'svc', by: 'agent' } },
    ]);
    await p.expectQueueAgrees();
    p.expectEventsValid();
  });
});
