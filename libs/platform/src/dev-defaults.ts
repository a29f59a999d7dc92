/**
 * Development-only defaults for the secrets of SPEC §10. Outside production they let a laptop
 * run with no setup; in production `loadConfig` refuses to start while any is still in use.
 * This file imports nothing, so `tools/token.ts` can use it from `dist/` without path aliases.
 */
export const DEV_JWT_SECRET = 'openq-dev-jwt-secret-not-for-production';
export const DEV_SERVICE_TOKEN = 'openq-dev-service-token-not-for-production';
export const DEV_LINK_SECRET = 'openq-dev-link-secret-not-for-production';
