import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const LEDGER_TABLES = ['balances', 'holds', 'fundFlows'];

export default tseslint.config(
  { ignores: ['**/node_modules', '**/dist', 'data', 'test-results', 'playwright-report', '**/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Browser code has no `process`.
      'no-restricted-globals': ['error', 'process'],
    },
  },
  {
    // Only the ledger module writes balances, holds and fund flows (DESIGN section 3).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/modules/ledger/**', 'apps/server/src/db/schema/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['insert', 'update', 'delete'].map((verb) => ({
          selector: `CallExpression[callee.property.name='${verb}'] > Identifier[name=/^(${LEDGER_TABLES.join('|')})$/]`,
          message: 'Only the ledger module writes balances, holds and fund flows.',
        })),
      ],
    },
  },
);
