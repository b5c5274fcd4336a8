import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The server's layers (apps/server/README.md), enforced by eslint.config.js: lib, db and plugins never
// import a module; modules use each other only through index.ts; no import cycles. This proves the rules
// bite, by linting code as if it sat in a given file.

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: repoRoot });

async function ruleErrors(file: string, code: string, ruleId: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  // Code that does not parse passes every rule: it must parse, or "no errors" proves nothing.
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

describe('the layering lint rules', () => {
  it.each([
    ['apps/server/src/lib/anything.ts', "import { findUserById } from '../modules/users/index.ts';"],
    ['apps/server/src/db/anything.ts', "import { createLedger } from '../modules/ledger/index.ts';"],
    ['apps/server/src/plugins/anything.ts', "import { createGuards } from '../modules/auth/index.ts';"],
  ])('%s may not import a module', async (file, code) => {
    expect(await ruleErrors(file, `${code}\nexport const x = 1;`, 'no-restricted-imports')).toEqual([
      expect.stringMatching(/never import a module/),
    ]);
  });

  it.each([
    "import { sql } from 'drizzle-orm';",
    "import pg from 'pg';",
    "import { queryRows } from '../db/client.ts';",
  ])('lib holds no SQL: %s is refused there', async (code) => {
    const file = 'apps/server/src/lib/anything.ts';
    expect(await ruleErrors(file, `${code}\nexport const x = 1;`, 'no-restricted-imports')).toEqual([
      expect.stringMatching(/lib holds no SQL/),
    ]);
    // and still never a module
    expect(
      await ruleErrors(
        file,
        "import { x } from '../modules/users/index.ts';\nexport const y = x;",
        'no-restricted-imports',
      ),
    ).toEqual([expect.stringMatching(/never import a module/)]);
  });

  it('a module reaches another only through its index.ts', async () => {
    const file = 'apps/server/src/modules/ops/anything.ts';
    const deep = "import { ledgerRepository } from '../ledger/ledger.repository.ts';\nexport const x = 1;";
    expect(await ruleErrors(file, deep, 'paydesk/module-door')).toEqual([
      expect.stringMatching(/only through its index\.ts/),
    ]);
    const door =
      "import { createLedger } from '../ledger/index.ts';\nimport { x as y } from './ops.schemas.ts';";
    expect(await ruleErrors(file, door, 'paydesk/module-door')).toEqual([]);
    const lower = "import { ValidationError } from '../../lib/errors.ts';\nexport const x = ValidationError;";
    expect(await ruleErrors(file, lower, 'paydesk/module-door')).toEqual([]);
  });

  it.each([
    ['apps/server/src/modules/exports/kinds/anything.ts', '../../ledger/ledger.repository.ts'],
    ['apps/server/src/modules/exports/kinds/anything.ts', '../../../modules/ledger/funds.service.ts'],
    ['apps/server/src/cli/anything.ts', '../modules/ops/ops.schemas.ts'],
    ['apps/server/src/jobs/anything.ts', '../modules/payouts/payouts.repository.ts'],
    ['apps/server/src/anything.ts', './modules/health/health.routes.ts'],
  ])('from %s, %s is refused (resolved against the file, at any depth)', async (file, specifier) => {
    const code = `import { a } from '${specifier}';\nexport const x = a;`;
    expect(await ruleErrors(file, code, 'paydesk/module-door')).toEqual([
      expect.stringMatching(/only through its index\.ts/),
    ]);
    const door = specifier.replace(/[^/]+\.ts$/, 'index.ts');
    expect(
      await ruleErrors(file, `import { a } from '${door}';\nexport const x = a;`, 'paydesk/module-door'),
    ).toEqual([]);
  });

  it.each([
    "export { ledgerRepository } from '../ledger/ledger.repository.ts';",
    "export * from '../ledger/ledger.repository.ts';",
    "export const load = () => import('../ledger/ledger.repository.ts');",
  ])('re-exports and dynamic imports go through index.ts too: %s', async (code) => {
    const file = 'apps/server/src/modules/ops/anything.ts';
    expect(await ruleErrors(file, code, 'paydesk/module-door')).toEqual([
      expect.stringMatching(/only through its index\.ts/),
    ]);
  });

  it("a module's subfolder reaches its own module's files directly", async () => {
    const file = 'apps/server/src/modules/exports/kinds/anything.ts';
    const own =
      "import { a } from '../exports.repository.ts';\nimport { b } from './index.ts';\nexport const x = [a, b];";
    expect(await ruleErrors(file, own, 'paydesk/module-door')).toEqual([]);
  });

  it.each([
    "export { usersRepository } from './users.repository.ts';",
    "export { usersRepository as users } from './users.repository.ts';",
    "export { findById } from './users.repository.ts';",
    "export * from './users.repository.ts';",
    "import { usersRepository } from './users.repository.ts';\nexport { usersRepository as users };",
    "import { usersRepository as users } from './users.repository.ts';\nexport { users };",
    "export { usersRepository } from './users.service.ts';",
    'export const usersRepository = {};',
  ])("a module's index.ts never exports its repository: %s is refused", async (code) => {
    const file = 'apps/server/src/modules/users/index.ts';
    expect(await ruleErrors(file, code, 'paydesk/index-exports-no-repository')).toEqual([
      expect.stringMatching(/never its repository/),
    ]);
  });

  it("a module's index.ts exports its service and the repository's types", async () => {
    const file = 'apps/server/src/modules/users/index.ts';
    const door = [
      "export type { UserRow } from './users.repository.ts';",
      "export { type MerchantRow } from './users.repository.ts';",
      "export { findUserById, updateUser } from './users.service.ts';",
      "import type { UserRow as Row } from './users.repository.ts';",
      'export type Users = Row[];',
    ].join('\n');
    expect(await ruleErrors(file, door, 'paydesk/index-exports-no-repository')).toEqual([]);
    // Inside the module, its own files use the repository as they like.
    const service = "export { usersRepository } from './users.repository.ts';";
    const own = 'apps/server/src/modules/users/users.service.ts';
    expect(await ruleErrors(own, service, 'paydesk/index-exports-no-repository')).toEqual([]);
  });

  it("tests may import another module's repository directly (setup, checking the SQL); code may not", async () => {
    const code =
      "import { usersRepository } from '../users/users.repository.ts';\nexport const x = usersRepository;";
    const rule = 'paydesk/module-door';
    expect(await ruleErrors('apps/server/src/modules/ops/anything.test.ts', code, rule)).toEqual([]);
    expect(await ruleErrors('apps/server/src/modules/ops/anything.ts', code, rule)).toEqual([
      expect.stringMatching(/only through its index\.ts/),
    ]);
    // Anything else of another module, even from a test, still goes through its index.ts.
    const deep = "import { findUserById } from '../users/users.service.ts';\nexport const x = findUserById;";
    expect(await ruleErrors('apps/server/src/modules/ops/anything.test.ts', deep, rule)).toEqual([
      expect.stringMatching(/only through its index\.ts/),
    ]);
  });

  it('refuses an import cycle (users -> auth -> users)', async () => {
    const file = 'apps/server/src/modules/users/index.ts';
    const source = readFileSync(path.join(repoRoot, file), 'utf8');
    expect(await ruleErrors(file, source, 'paydesk/no-import-cycle')).toEqual([]);
    const cyclic = `import { createGuards } from '../auth/index.ts';\nexport const g = createGuards;\n${source}`;
    expect(await ruleErrors(file, cyclic, 'paydesk/no-import-cycle')).toEqual([
      expect.stringMatching(/cycle/i),
    ]);
  });
});

describe("the console's layering lint rules", () => {
  it('a feature reaches another only through its index.ts', async () => {
    const file = 'apps/web/src/features/dashboard/components/anything.tsx';
    const deep = "import { useBalance } from '../../funds/api/get-balance.ts';\nexport const x = useBalance;";
    expect(await ruleErrors(file, deep, 'paydesk/feature-door')).toEqual([
      expect.stringMatching(/Another feature is used only through its index\.ts/),
    ]);
    const door = "import { useBalance } from '../../funds/index.ts';\nexport const x = useBalance;";
    expect(await ruleErrors(file, door, 'paydesk/feature-door')).toEqual([]);
    // Its own files, as it likes.
    const own = "import { x as y } from '../api/get-dashboard.ts';\nexport const x = y;";
    expect(await ruleErrors(file, own, 'paydesk/feature-door')).toEqual([]);
  });

  it('the router loads a page lazily by its file; a static import of it goes through the door', async () => {
    const file = 'apps/web/src/app/anything.ts';
    const lazy = "export const load = () => import('../features/funds/pages/fund-flows-page.tsx');";
    expect(await ruleErrors(file, lazy, 'paydesk/feature-door')).toEqual([]);
    const eager = "import Page from '../features/funds/pages/fund-flows-page.tsx';\nexport const x = Page;";
    expect(await ruleErrors(file, eager, 'paydesk/feature-door')).toEqual([
      expect.stringMatching(/only through its index\.ts/),
    ]);
    // A feature may not load another's page lazily either.
    const fromFeature = 'apps/web/src/features/dashboard/anything.ts';
    expect(
      await ruleErrors(fromFeature, lazy.replace('../features/', '../'), 'paydesk/feature-door'),
    ).toEqual([expect.stringMatching(/only through its index\.ts/)]);
  });

  it.each(['components', 'lib', 'layout'])('%s never imports a feature', async (dir) => {
    const file = `apps/web/src/${dir}/anything.tsx`;
    const code = "import { useBalance } from '../features/funds/index.ts';\nexport const x = useBalance;";
    expect(await ruleErrors(file, code, 'no-restricted-imports')).toEqual([
      expect.stringMatching(/never import a feature/),
    ]);
    // and the budgets' rule still holds there
    const antd = "import { Table } from 'antd';\nexport const x = Table;";
    expect(await ruleErrors(file, antd, 'no-restricted-imports')).toEqual([
      expect.stringMatching(/52 and 34 KB/),
    ]);
  });

  it('refuses an import cycle between console files (.tsx too)', async () => {
    const file = 'apps/web/src/features/funds/index.ts';
    const source = readFileSync(path.join(repoRoot, file), 'utf8');
    expect(await ruleErrors(file, source, 'paydesk/no-import-cycle')).toEqual([]);
    const cyclic = `import { FundsCards } from '../dashboard/components/funds-cards.tsx';\nexport const c = FundsCards;\n${source}`;
    expect(await ruleErrors(file, cyclic, 'paydesk/no-import-cycle')).toEqual([
      expect.stringMatching(/cycle/i),
    ]);
  });
});

describe('no provider name outside the channel adapters (DESIGN 13)', () => {
  const rule = 'paydesk/no-provider-name';
  it.each([
    [
      'apps/server/src/modules/payouts/anything.ts',
      "export const isIt = (c: { provider: string }) => c.provider === 'sandbox';",
    ],
    ['apps/server/src/modules/collections/anything.ts', "export const where = `c.provider <> 'sandbox'`;"],
    ['apps/server/src/jobs/anything.ts', "export const names = ['sandbox'];"],
    ['apps/web/src/features/collections/anything.ts', "export const p = 'sandbox';"],
  ])('%s may not name a provider: %s', async (file, code) => {
    expect(await ruleErrors(file, code, rule)).toEqual([
      expect.stringMatching(/belongs in modules\/channels\/adapters/),
    ]);
  });

  it.each([
    // The adapter and the list of providers name it; the sandbox's own pages may.
    ['apps/server/src/modules/channels/adapters/sandbox/anything.ts', "export const provider = 'sandbox';"],
    ['packages/shared/src/channels/providers.ts', "export const PROVIDERS = ['sandbox'] as const;"],
    ['apps/server/src/modules/sandbox/anything.ts', "export const provider = 'sandbox';"],
    // Tests, and words that compare nothing: a sentence, a queue, a channel code that only starts so.
    ['apps/server/src/modules/payouts/anything.test.ts', "export const provider = 'sandbox';"],
    ['apps/server/src/modules/ops/anything.ts', "export const help = 'The sandbox channel is off.';"],
    ['apps/server/src/modules/ops/anything.ts', "export const queue = 'sandbox.complete';"],
    ['apps/server/src/modules/ops/anything.ts', "export const code = 'sandbox-auto';"],
  ])('%s may: %s', async (file, code) => {
    expect(await ruleErrors(file, code, rule)).toEqual([]);
  });
});
