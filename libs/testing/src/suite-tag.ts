/**
 * The running jest suite's tag (OPENQ_TEST_SUITE, set by test/jest/environment.js), as environment
 * to pass to a process spawned with an environment of its own: the leak check finds every process
 * that carries it after the suite. Empty outside jest.
 */
export function suiteTagEnv(): Record<string, string> {
  const tag = process.env.OPENQ_TEST_SUITE;
  return tag ? { OPENQ_TEST_SUITE: tag } : {};
}
