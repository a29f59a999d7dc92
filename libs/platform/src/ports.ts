/**
 * The HTTP port of each service and the variable that sets it. This file imports nothing, so the
 * container health check (`tools/healthcheck.ts`) can read it without loading the platform.
 */
export const SERVICE_PORTS = {
  gateway: { variable: 'PORT', port: 3000 },
  questions: { variable: 'QUESTIONS_HTTP_PORT', port: 3101 },
  gates: { variable: 'GATES_HTTP_PORT', port: 3102 },
  context: { variable: 'CONTEXT_HTTP_PORT', port: 3103 },
  notifier: { variable: 'NOTIFIER_HTTP_PORT', port: 3104 },
} as const;

export type OpenqServiceName = keyof typeof SERVICE_PORTS;
