import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Only the ledger module writes ledger accounts, journal entries, postings, holds and fund flows (DESIGN 3). The rule lives in
// eslint.config.js; this proves it bites, by linting code as if it sat in another module.

const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const eslint = new ESLint({ cwd: repoRoot });
const RULE_MESSAGE = /Only the ledger module writes ledger accounts, journal entries, postings/;

async function ledgerWriteErrors(
  code: string,
  file = 'apps/server/src/modules/payouts/payouts.repository.ts',
) {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax' && RULE_MESSAGE.test(m.message));
}

const schemaImport = "import * as schema from '../../db/schema/index.ts';\n";
const sqlImport = "import { sql } from 'drizzle-orm';\n";

describe('the lint rule that keeps ledger writes in the ledger module', () => {
  it.each([
    [
      'insert',
      "import { ledgerAccounts } from '../../db/schema/index.ts';\nexport const f = (db) => db.insert(ledgerAccounts).values({});",
    ],
    [
      'insert of a posting',
      "import { postings } from '../../db/schema/index.ts';\nexport const f = (tx) => tx.insert(postings).values({});",
    ],
    [
      'update',
      "import { holds } from '../../db/schema/index.ts';\nexport const f = (tx) => tx.update(holds).set({});",
    ],
    [
      'delete',
      "import { fundFlows } from '../../db/schema/index.ts';\nexport const f = (tx) => tx.delete(fundFlows);",
    ],
    [
      'a namespace import',
      `${schemaImport}export const f = (db) => db.update(schema.ledgerAccounts).set({});`,
    ],
    [
      'a renamed import',
      "import { fundFlows as entries } from '../../db/schema/index.ts';\nexport const f = entries;",
    ],
    ['raw SQL', `${sqlImport}export const q = sql\`UPDATE "ledger_accounts" SET balance_minor = 0\`;`],
    [
      'raw SQL with the table interpolated',
      `${schemaImport}${sqlImport}export const q = sql\`delete from \${schema.holds}\`;`,
    ],
    [
      'raw SQL with the identifier interpolated',
      "import { holds } from '../../db/schema/index.ts';\n" +
        `${sqlImport}export const q = sql\`insert into \${holds} values (1)\`;`,
    ],
    ['a SQL string', "export const q = 'insert into fund_flows (id) values (1)';"],
    ['the hourly rollup', `${sqlImport}export const q = sql\`truncate fund_flow_hourly\`;`],
    ['a journal entry in SQL', "export const q = 'INSERT INTO journal_entries (type) values (1)';"],
  ])('refuses a write through %s outside the ledger module', async (_label, code) => {
    expect(await ledgerWriteErrors(code)).not.toHaveLength(0);
  });

  it('applies to every server file outside the ledger, the CLI and the seed included', async () => {
    const code =
      "import { journalEntries } from './schema/index.ts';\nexport const f = (db) => db.insert(journalEntries).values({});";
    expect(await ledgerWriteErrors(code, 'apps/server/src/modules/demo/seed-demo.ts')).not.toHaveLength(0);
    expect(await ledgerWriteErrors(code, 'apps/server/src/cli/ops.ts')).not.toHaveLength(0);
  });

  it('lets other modules read the tables', async () => {
    const code = [
      "import { ledgerAccounts, fundFlows } from '../../db/schema/index.ts';",
      sqlImport,
      'export const f = (db) => db.select().from(ledgerAccounts);',
      'export const g = sql`select * from ${fundFlows} where id = 1`;',
      "export const h = sql`update users set name = 'x' where id in (select merchant_id from ledger_accounts)`;",
    ].join('\n');
    expect(await ledgerWriteErrors(code)).toEqual([]);
  });

  it('lets the ledger module write them', async () => {
    const code =
      "import { postings } from '../../db/schema/index.ts';\nexport const f = (db) => db.insert(postings).values({});";
    expect(await ledgerWriteErrors(code, 'apps/server/src/modules/ledger/ledger.repository.ts')).toEqual([]);
  });
});
