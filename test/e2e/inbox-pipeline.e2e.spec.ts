import { AgentEvent, OpenqEvent } from '@openq/contracts';
import { useInboxStack } from '../support/inbox-harness';
import { PipelineDriver } from '../support/pipeline';

/**
 * The pipeline's freeze axis in the inbox (SPEC §11.3): frozen repos with who, why and what waits;
 * a maintainer freezes and unfreezes there, a developer sees it live but has no door.
 */
const P = 'freezes';
const harness = useInboxStack();

const text = async (locator: { innerText(): Promise<string> }) =>
  (await locator.innerText()).replace(/\s+/g, ' ').trim();

describe('frozen repos in the inbox', () => {
  it('a maintainer freezes with a reason; a developer sees who and why live; unfreezing admits the waiting task', async () => {
    const stack = harness.stack;
    const pipeline = new PipelineDriver(stack, P);
    await pipeline.register('API-1', 'api', 1);
    await pipeline.published(OpenqEvent.PipelineTaskAdmitted, 'API-1');
    await pipeline.register('API-2', 'api', 2);

    const mara = await harness.person('mara', P, 'maintainer');
    const dev = await harness.person('dave', P, 'developer');
    const panel = (b: typeof mara) => b.page.locator('.pipeline');
    await panel(dev).getByText('No repo is frozen.').waitFor();
    expect(await text(panel(dev).locator('.freeze-note'))).toBe(
      'i Freezing a repo needs the maintainer role on this project; you are a developer.',
    );
    expect(await panel(dev).getByRole('button', { name: 'Freeze', exact: true }).count()).toBe(0);

    // An empty reason is refused before anything is sent.
    await mara.page.getByLabel('Repo', { exact: true }).fill('api');
    await mara.page.getByRole('button', { name: 'Freeze', exact: true }).click();
    expect(await text(panel(mara).locator('.error'))).toBe(
      'Say why the repo is frozen, in 1 to 500 characters.',
    );
    expect(await pipeline.gatesSql(`SELECT 1 FROM pipeline_repo_freeze WHERE project_id = $1`, [P])).toEqual(
      [],
    );

    await mara.page.getByLabel('Why', { exact: true }).fill('Release week: API-2 waits until Friday');
    await mara.page.getByRole('button', { name: 'Freeze', exact: true }).click();
    const frozen = (b: typeof mara) => panel(b).locator('.task.frozen[data-repo="api"]');
    await frozen(mara).waitFor();
    // The developer's page follows live (pipeline.repo_frozen on the stream).
    await frozen(dev).waitFor();
    expect(await text(frozen(dev))).toBe(
      'api Frozen Frozen by mara just now “Release week: API-2 waits until Friday” 1 task waits on it.',
    );
    expect(await frozen(dev).getByRole('button', { name: 'Unfreeze' }).count()).toBe(0);
    await mara.screenshot('inbox-frozen-repo-maintainer');
    await dev.screenshot('inbox-frozen-repo-developer');

    // API-1 finishes: API-2 would enter now, but the freeze holds it.
    const done = await pipeline.status('API-1', { status: 'done' });
    await pipeline.processed(done);
    expect(await pipeline.task('API-2', 'api')).toMatchObject({ state: 'waiting', blockingReason: 'freeze' });
    expect(await pipeline.written(OpenqEvent.PipelineTaskAdmitted, 'API-2')).toEqual([]);

    await frozen(mara).getByRole('button', { name: 'Unfreeze' }).click();
    await panel(mara).getByText('No repo is frozen.').waitFor();
    await panel(dev).getByText('No repo is frozen.').waitFor();
    expect(await pipeline.written(OpenqEvent.PipelineTaskAdmitted, 'API-2')).toEqual([
      { taskId: 'API-2', repo: 'api' },
    ]);
  });

  it('a freeze by the engine reads "Frozen by the engine", with its reason', async () => {
    const stack = harness.stack;
    const viewer = await harness.person('vera', 'engine-freeze', 'viewer');
    await stack.publishAgentEvent(AgentEvent.RepoFreeze, 'engine-freeze', {
      repo: 'billing',
      frozen: true,
      motivo: 'Incident 42: hold new analysis',
    });
    const frozen = viewer.page.locator('.pipeline .task.frozen[data-repo="billing"]');
    await frozen.waitFor();
    expect(await text(frozen)).toBe(
      'billing Frozen Frozen by the engine just now “Incident 42: hold new analysis” No task waits on it.',
    );
    expect(await text(viewer.page.locator('.pipeline .freeze-note'))).toContain('you are a viewer');
    await viewer.screenshot('inbox-frozen-repo-engine');
  });
});
