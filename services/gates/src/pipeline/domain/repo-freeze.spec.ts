import { nextAdmissions, type QueueTask } from './admission';
import {
  decideRepoFreeze,
  evolveRepoFreeze,
  liftsFreeze,
  type RepoFreeze,
  type RepoFreezeCommand,
} from './repo-freeze';

const T0 = Date.UTC(2026, 11, 1);
const at = (s: number) => new Date(T0 + s * 1000);

function given(commands: readonly RepoFreezeCommand[]): RepoFreeze | null {
  return commands.reduce<RepoFreeze | null>(
    (state, command, i) => decideRepoFreeze(command, state, at(i)).reduce(evolveRepoFreeze, state),
    null,
  );
}

const freeze = (by = 'alice', motivo = 'release week'): RepoFreezeCommand => ({
  type: 'freeze',
  repo: 'api',
  by,
  motivo,
});
const unfreeze = (by = 'bob'): RepoFreezeCommand => ({ type: 'unfreeze', repo: 'api', by });

describe('repo freeze (SPEC §11.3)', () => {
  it('freezing records who and why, trimmed, and publishes pipeline.repo_frozen', () => {
    const events = decideRepoFreeze(freeze('alice', '  release week '), null, at(5));
    expect(events).toEqual([
      {
        type: 'pipeline.repo_frozen',
        data: { repo: 'api', by: 'alice', motivo: 'release week' },
        occurredAt: at(5),
      },
    ]);
    expect(events.reduce(evolveRepoFreeze, null)).toEqual({
      repo: 'api',
      by: 'alice',
      motivo: 'release week',
      frozenAt: at(5),
    });
    expect(liftsFreeze(events)).toBe(false);
  });

  it('freezing a frozen repo changes nothing: the first freeze, its who and why, stands', () => {
    const state = given([freeze('alice', 'release week')]);
    expect(decideRepoFreeze(freeze('carol', 'another reason'), state, at(9))).toEqual([]);
    expect(given([freeze('alice', 'release week'), freeze('carol', 'another reason')])).toEqual(state);
  });

  it('unfreezing lifts it, says who, and asks for admission to run again', () => {
    const state = given([freeze()]);
    const events = decideRepoFreeze(unfreeze('bob'), state, at(7));
    expect(events).toEqual([
      { type: 'pipeline.repo_unfrozen', data: { repo: 'api', by: 'bob' }, occurredAt: at(7) },
    ]);
    expect(events.reduce(evolveRepoFreeze, state)).toBeNull();
    expect(liftsFreeze(events)).toBe(true);
  });

  it('unfreezing a repo that is not frozen changes nothing and publishes nothing', () => {
    expect(decideRepoFreeze(unfreeze(), null, at(1))).toEqual([]);
    expect(given([freeze(), unfreeze(), unfreeze()])).toBeNull();
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
    const frozen = given([freeze()]);
    expect(nextAdmissions(tasks, { repos: frozen ? [frozen.repo] : [] }, flags)).toEqual(['W1']);
    const lifted = given([freeze(), unfreeze()]);
    expect(nextAdmissions(tasks, { repos: lifted ? [lifted.repo] : [] }, flags)).toEqual(['A1', 'W1']);
  });
});
