// Lint rules for the whole monorepo: typescript-eslint's recommended set plus a few that keep
// handlers honest: type-aware, no promise left floating or passed where nothing awaits it (a
// knex builder handed to .where() and an async JSX handler excepted: both are awaited or
// handled), every union's case handled in a switch; in .tsx the rules of hooks, with their
// dependencies complete. No unused values. Imports point one way: tests and benchmarks ->
// @idv/testing (the one package of test support) -> services' and libraries' code, never back.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// for no-restricted-imports: the two packages that exist for tests, benchmarks (and, for samples,
// the dev runner) only
const SAMPLES_ARE_FOR_TESTS = {
  group: ['@idv/samples', '@idv/samples/*'],
  message: 'samples are for tests, benchmarks and the dev runner',
};
const TESTING_IS_FOR_TESTS = {
  group: ['@idv/testing', '@idv/testing/*'],
  message: 'the test support (@idv/testing) is for tests and benchmarks only',
};

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
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
    },
  },
  {
    // dependencies point one way: a service's or library's code never reaches test code, the
    // test support or the generated samples (only tests, benchmarks and the dev runner do)
    files: ['services/*/src/**/*.{ts,tsx}', 'libs/*/src/**/*.ts', 'contracts/**/*.ts'],
    ignores: ['libs/samples/**', 'libs/testing/**', 'contracts/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            SAMPLES_ARE_FOR_TESTS,
            TESTING_IS_FOR_TESTS,
            {
              group: ['**/test/**', '**/bench/**'],
              message: 'code never imports test or benchmark code',
            },
          ],
        },
      ],
    },
  },
  {
    // the dev runner and the renderers: samples yes, test support and test code no
    files: ['infra/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            TESTING_IS_FOR_TESTS,
            {
              group: ['**/test/**', '**/bench/**'],
              message: 'infra never imports test or benchmark code',
            },
          ],
        },
      ],
    },
  },
  {
    // the test support depends on services' and libraries' code, never on a package's tests
    files: ['libs/testing/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/test/**', '**/bench/**'],
              message: "@idv/testing never imports a package's tests or the benchmarks",
            },
          ],
        },
      ],
    },
  },
  {
    // a test shares support only through @idv/testing: never another package's test folder (nor
    // the root test/) by a relative path, nor the support's files by theirs
    files: [
      'services/*/test/**/*.{ts,tsx}',
      'libs/*/test/**/*.ts',
      'contracts/test/**/*.ts',
      'test/**/*.ts',
      'bench/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/test/**', '**/bench/**'],
              message:
                "tests never import another package's test code: shared support goes in libs/testing, imported as @idv/testing/<module>",
            },
            {
              group: ['**/testing/src/**'],
              message: 'import the test support by name: @idv/testing/<module>',
            },
          ],
        },
      ],
    },
  },
  {
    // build configs outside every tsconfig: linted without types
    files: ['services/console/vite.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // components, and the hooks beside them in the two web apps
    files: ['**/*.tsx', 'services/capture-page/src/**/*.ts', 'services/console/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // scripts served to browsers as they are (the sign-in pages' passkeys, the API reference's
    // Swagger UI initializer)
    files: ['services/*/src/pages/assets/*.js', 'libs/http/src/assets/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'navigator',
          'atob',
          'btoa',
          'HTMLFormElement',
          'SwaggerUIBundle',
        ].map((name) => [name, 'readonly']),
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
