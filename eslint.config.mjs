import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'deploy/kafka/**', '.data/**', 'coverage/**', 'examples/cliente/generated/**'] },
  js.configs.recommended,
  // The panel's own script runs in the browser.
  { files: ['services/console/assets/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      // Prettier wraps code at 140 columns; comments are held to the same, long literals (XML, messages) are not.
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
    },
  },
  {
    // A route validates, calls a handler (`deps.handlers.*`) and maps the answer: it never runs a command itself.
    files: ['services/api/src/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@frete/application',
              importNames: ['execute', 'load', 'handles', 'toDomainEvent'],
              message: 'routes call deps.handlers.<aggregate>',
            },
            {
              name: '@frete/platform',
              importNames: ['EventStore', 'PostgresEventStore', 'EventStoreDbEventStore', 'WrongExpectedRevision'],
              message: 'routes never touch the event store',
            },
          ],
          patterns: [{ group: ['**/event-store/**', '**/commands/**'], message: 'routes never touch the event store' }],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='deps'][property.name='store']",
          message: 'routes never touch the event store: call deps.handlers.<aggregate>',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
