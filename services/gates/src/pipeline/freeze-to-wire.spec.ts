import { freezeToWire } from './pipeline-transaction';

const at = new Date(Date.UTC(2026, 11, 1));

describe('repo freeze events domain → wire (SPEC §11.3)', () => {
  it('pipeline.repo_frozen carries the why as motivo', () => {
    expect(
      freezeToWire({
        type: 'pipeline.repo_frozen',
        data: { repo: 'api', by: 'alice', why: 'release' },
        occurredAt: at,
      }),
    ).toEqual({
      type: 'pipeline.repo_frozen',
      data: { repo: 'api', by: 'alice', motivo: 'release' },
      occurredAt: at,
    });
  });

  it('pipeline.repo_unfrozen goes out as decided', () => {
    expect(
      freezeToWire({ type: 'pipeline.repo_unfrozen', data: { repo: 'api', by: 'bob' }, occurredAt: at }),
    ).toEqual({ type: 'pipeline.repo_unfrozen', data: { repo: 'api', by: 'bob' }, occurredAt: at });
  });
});
