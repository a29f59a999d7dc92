import { join } from 'node:path';
import { register } from 'tsconfig-paths';

// Compiled entry points (dist/**) resolve the workspace aliases (`@openq/contracts` …) to the
// compiled libraries next to them. Imported first by every entry point; a no-op under jest.
if (__filename.endsWith('.js')) {
  register({ baseUrl: join(__dirname, '..'), paths: { '@openq/*': ['libs/*/src'] }, addMatchAll: false });
}
