// Lint rules for the whole monorepo: typescript-eslint's recommended set plus a few that keep
// handlers honest (no floating promises in routes, no unused values).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '.local/**',
      'test-artifacts/**',
      '**/.scratch/**',
      'services/capture-page/dist/**',
      'services/console/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // scripts served to browsers as they are (the sign-in pages' passkeys)
    files: ['services/*/src/pages/assets/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        ['window', 'document', 'navigator', 'atob', 'btoa', 'HTMLFormElement'].map((name) => [
          name,
          'readonly',
        ]),
      ),
    },
  },
  {
    // CommonJS helpers (the mocha reporter) run in Node with its globals
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/test/**/*.ts', 'bench/**/*.ts', 'services/admin-cli/src/**/*.ts', 'infra/**/*.ts'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
