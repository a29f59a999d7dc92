import { nextAdmissions, type QueueTask } from './admission';
import { deciderSpec } from '@openq/testing/decider';
import { decide, evolve, liftsFreeze, repoFreeze, type RepoFreezeCommand } from './repo-freeze';

const T0 = Date.UTC(2026, 11, 1);
const at = (s: number) => new Date(T0 + s * 1000);
const { given, history } = deciderSpec(repoFreeze, at);

const freeze = (by = 'alice', why = 'release week'): RepoFreezeCommand => ({
  type: 'freeze',
  repo: 'api',
  by,
  why,
});
const unfreeze = (by = 'bob'): RepoFreezeCommand => ({ type: 'unfreeze', repo: 'api', by });

describe('repo freeze (SPEC §11.3)', () => {
  it('freezing records who and why, trimmed, and publishes pipeline.repo_frozen', () => {
    const events = decide(freeze('alice', '  release week '), null, at(5));
    expect(events).toEqual([
      {
        type: 'pipeline.repo_frozen',
        data: { repo: 'api', by: 'alice', why: 'release week' },
        occurredAt: at(5),
      },
    ]);
    expect(events.reduce(evolve, null)).toEqual({
      repo: 'api',
      by: 'alice',
      why: 'release week',
      frozenAt: at(5),
    });
    expect(liftsFreeze(events)).toBe(false);
  });

  it('freezing a frozen repo changes nothing: the first freeze, its who and why, stands', () => {
    const state = given(history([freeze('alice', 'release week')])).state;
    expect(decide(freeze('carol', 'another reason'), state, at(9))).toEqual([]);
    expect(
      given(history([freeze('alice', 'release week'), freeze('carol', 'another reason')])).state,
    ).toEqual(state);
  });

  it('unfreezing lifts it, says who, and asks for admission to run again', () => {
    const state = given(history([freeze()])).state;
    const events = decide(unfreeze('bob'), state, at(7));
    expect(events).toEqual([
      { type: 'pipeline.repo_unfrozen', data: { repo: 'api', by: 'bob' }, occurredAt: at(7) },
    ]);
    expect(events.reduce(evolve, state)).toBeNull();
    expect(liftsFreeze(events)).toBe(true);
  });

  it('unfreezing a repo that is not frozen changes nothing and publishes nothing', () => {
    expect(decide(unfreeze(), null, at(1))).toEqual([]);
    expect(given(history([freeze(), unfreeze(), unfreeze()])).state).toBeNull();
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
    const frozen = given(history([freeze()])).state;
    expect(nextAdmissions(tasks, { repos: frozen ? [frozen.repo] : [] }, flags)).toEqual(['W1']);
    const lifted = given(history([freeze(), unfreeze()])).state;
    expect(nextAdmissions(tasks, { repos: lifted ? [lifted.repo] : [] }, flags)).toEqual(['A1', 'W1']);
  });
});
