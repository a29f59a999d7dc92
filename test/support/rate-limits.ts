/**
 * The gateway's rate limits off, for the test stacks and the bench: their suites drive hundreds
 * or thousands of requests from one address, one user and one service token on purpose (the fuzz
 * suite, the access matrix, races, the bench), and the limits would answer 429 instead of what
 * they test. The limits have their own tests (`services/gateway/src/http/rate-limits.int.spec.ts`);
 * a test may turn one back on through its stack's `env`.
 */
export const RATE_LIMITS_OFF: Readonly<Record<string, string>> = {
  GATEWAY_RATE_LIMIT_PER_ADDRESS: '0',
  GATEWAY_RATE_LIMIT_PER_USER: '0',
  GATEWAY_RATE_LIMIT_PER_SERVICE: '0',
  GATEWAY_RATE_LIMIT_AUTH_FAILURES: '0',
};
