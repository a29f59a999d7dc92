import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.nx/**', 'test/artifacts/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    // Issue #31: no import circles inside a project (relative imports; across projects the Nx
    // boundaries below already forbid a way back).
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            // A service may use the shared libraries, never another service.
            {
              sourceTag: 'type:service',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:sdk', 'type:testing'],
            },
            {
              sourceTag: 'type:infra',
              onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:testing'],
            },
            { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:infra'] },
            // The web inbox (apps/inbox, issue #30) runs in a browser: the contract and nothing else.
            { sourceTag: 'type:ui', onlyDependOnLibsWithTags: ['type:contracts'] },
          ],
        },
      ],
    },
  },
  {
    // Pure domain: no framework, no I/O, no clock.
    files: ['services/*/src/**/domain/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@nestjs/*', 'typeorm', 'nats', 'pg', '@openq/messaging', '@openq/persistence'] },
      ],
      'no-restricted-globals': ['error', 'Date', 'process'],
    },
  },
  {
    // The web inbox: browser code with its own tsconfig (DOM, bundler resolution). It takes the
    // contract's values from its browser-safe entry only (the barrel brings class-validator and
    // Node); types may come from anywhere in it (they are erased).
    files: ['apps/inbox/**/*.ts'],
    languageOptions: {
      parserOptions: { project: './apps/inbox/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@openq/contracts',
              message: 'Import from @openq/contracts/browser (the barrel brings Node code and validators).',
            },
          ],
          patterns: [
            {
              group: ['@openq/*', '!@openq/contracts', '!@openq/contracts/browser'],
              message: 'The inbox depends on the contract only.',
            },
            { group: ['node:*'], message: 'The inbox runs in a browser.' },
          ],
        },
      ],
    },
  },
);
