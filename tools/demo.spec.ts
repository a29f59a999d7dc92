import { demoOptionsFromEnv } from './demo';

describe('npm run demo’s options (issue #34)', () => {
  it('plays each run in a project of its own, so a second run starts fresh; --project names one', () => {
    const now = jest.spyOn(Date, 'now');
    now.mockReturnValue(Date.UTC(2026, 11, 3, 8, 0, 0));
    const first = demoOptionsFromEnv([], {}).projectId;
    now.mockReturnValue(Date.UTC(2026, 11, 3, 8, 5, 0));
    const second = demoOptionsFromEnv([], {}).projectId;
    now.mockRestore();
    expect(first).toMatch(/^demo-[0-9a-z]+$/);
    expect(second).toMatch(/^demo-[0-9a-z]+$/);
    expect(second).not.toBe(first);
    expect(demoOptionsFromEnv(['--project', 'p1'], {}).projectId).toBe('p1');
  });
});
