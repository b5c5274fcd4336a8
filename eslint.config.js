import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { featureDoor, indexExportsNoRepository, moduleDoor } from './scripts/eslint/module-door.js';
import { noImportCycle } from './scripts/eslint/no-import-cycle.js';
import { noProviderName } from './scripts/eslint/no-provider-name.js';
import { PROVIDERS } from './packages/shared/src/channels/providers.ts';

const LEDGER_TABLES = [
  'ledgerAccounts',
  'journalEntries',
  'postings',
  'holds',
  'fundFlows',
  'fundFlowHourly',
  'fundFlowDaily',
];
const LEDGER_SQL_TABLES = [
  'ledger_accounts',
  'journal_entries',
  'postings',
  'holds',
  'fund_flows',
  'fund_flow_hourly',
  'fund_flow_daily',
];
const LEDGER_TABLE_NAMES = `/^(${LEDGER_TABLES.join('|')})$/`;
const SQL_WRITE = String.raw`(insert\s+into|update|delete\s+from|truncate(\s+table)?)`;
const LEDGER_SQL_WRITE = String.raw`/\b${SQL_WRITE}\s+("?public"?\.)?"?(${LEDGER_SQL_TABLES.join('|')})\b/i`;
const SQL_WRITE_VERB_AT_END = String.raw`/\b${SQL_WRITE}\s*$/i`;
const LEDGER_ONLY =
  'Only the ledger module writes ledger accounts, journal entries, postings, holds and fund flows.';

// The server's layers (apps/server/README.md): lib, db and plugins never import a module; a module uses
// another only through its index.ts, which exports services and types, never a repository (tests may
// import a repository directly); nothing imports in a circle.
const SERVER_LOWER_LAYERS = ['apps/server/src/lib/**', 'apps/server/src/db/**', 'apps/server/src/plugins/**'];
const LOWER_LAYER_MESSAGE =
  'lib, db and plugins never import a module: move the code down, or up into the module.';
const LIB_NO_SQL = 'lib holds no SQL: put it in a repository, or in db/ when several modules share it.';

// Our own rules (scripts/eslint/): doors between server modules and between console features, no cycles.
const PAYDESK_RULES = {
  rules: {
    'no-import-cycle': noImportCycle,
    'module-door': moduleDoor,
    'feature-door': featureDoor,
    'index-exports-no-repository': indexExportsNoRepository,
    'no-provider-name': noProviderName,
  },
};

// The console's imports refused everywhere (DESIGN 8 budgets).
const WEB_RESTRICTED_IMPORTS = {
  paths: [
    {
      name: 'antd',
      importNames: ['Table', 'DatePicker', 'TimePicker', 'Calendar'],
      message:
        "components/table.tsx (Table, DataTable) and components/date-range-input.tsx instead: antd's weigh 52 and 34 KB gzip on every page that uses them.",
    },
  ],
  patterns: [
    {
      regex: '^(echarts|zrender)(/|$)',
      message:
        "features/dashboard/components/charts/ (plain SVG) instead: ECharts' core alone weighs 103 KB gzip, more than a page's 80 KB, and drew the Dashboard at 211 KB.",
    },
  ],
};

// The console's layers (apps/web/README.md): components, lib, stores, i18n and layout never import a
// feature; a feature uses another only through its index.ts (paydesk/feature-door).
const WEB_LOWER_LAYERS = ['components', 'lib', 'stores', 'i18n', 'layout'].map(
  (dir) => `apps/web/src/${dir}/**`,
);
const WEB_LOWER_LAYER_MESSAGE =
  'components, lib, stores, i18n and layout never import a feature: move the code down, or into the feature.';

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
    plugins: { 'react-hooks': reactHooks, paydesk: PAYDESK_RULES },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Browser code has no `process`.
      'no-restricted-globals': ['error', 'process'],
      // DESIGN 8: a page under 80 KB gzip beyond the layout. antd's table and pickers weigh 52 and 34 KB,
      // ECharts 103 KB with nothing registered.
      'no-restricted-imports': ['error', WEB_RESTRICTED_IMPORTS],
      'paydesk/feature-door': 'error',
      'paydesk/no-import-cycle': 'error',
    },
  },
  {
    files: WEB_LOWER_LAYERS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...WEB_RESTRICTED_IMPORTS,
          patterns: [
            ...WEB_RESTRICTED_IMPORTS.patterns,
            { regex: String.raw`(^|/)features/`, message: WEB_LOWER_LAYER_MESSAGE },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { paydesk: PAYDESK_RULES },
    rules: {
      'paydesk/no-import-cycle': 'error',
      'paydesk/module-door': 'error',
      'paydesk/index-exports-no-repository': 'error',
    },
  },
  {
    files: SERVER_LOWER_LAYERS,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: String.raw`(^|/)modules/`, message: LOWER_LAYER_MESSAGE }] },
      ],
    },
  },
  {
    // lib is pure helpers: SQL lives in repositories and in db/.
    files: ['apps/server/src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: String.raw`(^|/)modules/`, message: LOWER_LAYER_MESSAGE },
            { regex: String.raw`^(drizzle-orm|pg|@electric-sql/pglite)(/|$)|(^|/)db/`, message: LIB_NO_SQL },
          ],
        },
      ],
    },
  },
  {
    // Only the ledger module writes the ledger's tables (DESIGN section 3): through drizzle
    // (db.insert(ledgerAccounts), db.update(schema.holds)), under another name, or in raw SQL.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/modules/ledger/**', 'apps/server/src/db/schema/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['insert', 'update', 'delete'].flatMap((verb) => [
          {
            selector: `CallExpression[callee.property.name='${verb}'] > Identifier[name=${LEDGER_TABLE_NAMES}]`,
            message: LEDGER_ONLY,
          },
          {
            selector: `CallExpression[callee.property.name='${verb}'] > MemberExpression[property.name=${LEDGER_TABLE_NAMES}]`,
            message: LEDGER_ONLY,
          },
        ]),
        {
          selector: `ImportSpecifier[imported.name=${LEDGER_TABLE_NAMES}]:not([local.name=${LEDGER_TABLE_NAMES}])`,
          message: `${LEDGER_ONLY} Do not import them under another name.`,
        },
        {
          selector: `TemplateElement[value.raw=${LEDGER_SQL_WRITE}]`,
          message: LEDGER_ONLY,
        },
        {
          selector: `Literal[value=${LEDGER_SQL_WRITE}]`,
          message: LEDGER_ONLY,
        },
        ...['Identifier[name', 'MemberExpression[property.name'].map((node) => ({
          selector: `TemplateLiteral:has(TemplateElement[value.raw=${SQL_WRITE_VERB_AT_END}]) > ${node}=${LEDGER_TABLE_NAMES}]`,
          message: LEDGER_ONLY,
        })),
      ],
    },
  },
  {
    // DESIGN 13: provider names only in the channel adapters and the list of providers; services ask the
    // adapter (adapterFor). Allowed beside them: modules/sandbox, the sandbox adapter's own checkout page
    // and operator (its routes are the sandbox's), and tests (with the web tests' fixtures).
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: [
      'apps/server/src/modules/channels/adapters/**',
      'packages/shared/src/channels/providers.ts',
      'apps/server/src/modules/sandbox/**',
      '**/*.test.{ts,tsx}',
      // The web tests' shared fixtures and mock API.
      'apps/web/src/test/**',
    ],
    plugins: { paydesk: PAYDESK_RULES },
    rules: { 'paydesk/no-provider-name': ['error', { providers: [...PROVIDERS] }] },
  },
);
