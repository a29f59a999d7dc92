import { nextAdmissions, type QueueTask } from './admission';
import { deciderSpec } from '@openq/testing/decider';
import { liftsFreeze, repoFreeze, type RepoFreezeCommand } from './repo-freeze';
import { at, repoFrozen, repoUnfrozen } from '../__fixtures__/pipeline-events';

const { given } = deciderSpec(repoFreeze, at);

const freeze = (by = 'alice', why = 'release week'): RepoFreezeCommand => ({
  type: 'freeze',
  repo: 'api',
  by,
  why,
});
const unfreeze = (by = 'bob'): RepoFreezeCommand => ({ type: 'unfreeze', repo: 'api', by });

describe('repo freeze (SPEC §11.3)', () => {
  it('freezing records who and why, trimmed, and publishes pipeline.repo_frozen', () => {
    const frozen = given([]).when(freeze('alice', '  release week '), 5);
    frozen.then([repoFrozen(5, 'alice', 'release week')]);
    expect(frozen.state).toEqual({
      repo: 'api',
      by: 'alice',
      why: 'release week',
      frozenAt: at(5),
    });
    expect(liftsFreeze(frozen.events)).toBe(false);
  });

  it('freezing a frozen repo changes nothing: the first freeze, its who and why, stands', () => {
    const frozen = given([repoFrozen(0, 'alice', 'release week')]);
    frozen.when(freeze('carol', 'another reason'), 9).then([]);
    expect(frozen.when(freeze('carol', 'another reason'), 9).state).toEqual(frozen.state);
  });

  it('unfreezing lifts it, says who, and asks for admission to run again', () => {
    const lifted = given([repoFrozen(0)]).when(unfreeze('bob'), 7);
    lifted.then([repoUnfrozen(7, 'bob')]);
    expect(lifted.state).toBeNull();
    expect(liftsFreeze(lifted.events)).toBe(true);
  });

  it('unfreezing a repo that is not frozen changes nothing and publishes nothing', () => {
    given([]).when(unfreeze(), 1).then([]);
    given([repoFrozen(0), repoUnfrozen(1)])
      .when(unfreeze(), 2)
      .then([]);
    expect(given([repoFrozen(0), repoUnfrozen(1)]).when(unfreeze(), 2).state).toBeNull();
  });

  it('a freeze blocks admission of the repo only; lifting it lets the first waiting task in', () => {
    const task = (taskId: string, repo: string, order: number): QueueTask => ({
      taskId,
      repo,
      order,
      deps: [],
      stage: 'created',
      pausedAt: null,
    });
    const tasks = [task('A1', 'api', 1), task('A2', 'api', 2), task('W1', 'web', 1)];
    const flags = { serialGatePauseEnabled: true };
    const frozen = given([repoFrozen(0)]).state;
    expect(nextAdmissions(tasks, { repos: frozen ? [frozen.repo] : [] }, flags)).toEqual(['W1']);
    const lifted = given([repoFrozen(0), repoUnfrozen(1)]).state;
    expect(nextAdmissions(tasks, { repos: lifted ? [lifted.repo] : [] }, flags)).toEqual(['A1', 'W1']);
  });
});
