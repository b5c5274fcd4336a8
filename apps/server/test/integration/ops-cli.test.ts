import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { fundFlows, merchants, operatorActions } from '../../src/db/schema/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { balanceRow } from '../helpers/ledger.ts';
import { opsRunner } from '../helpers/ops.ts';
import { createMerchant } from '../factories/merchants.ts';
import { createTestApp, TEST_APP_KEY, testDatabaseKind, type TestContext } from '../helpers/test-app.ts';

let ctx: TestContext;
let db: Db;
let token: string;
let merchant: typeof merchants.$inferSelect;

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
  token = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  merchant = (await createMerchant(db, { roles: [] })).merchant;
});
afterAll(() => ctx.close());

/** Runs the command line against the test app in this process; counts how often it reached the API. */
const ops = opsRunner(
  () => ctx.app,
  () => token,
  'tester',
);

async function snapshot() {
  const b = await balanceRow(db, merchant.id);
  const [counts] = await db
    .select({
      entries: sql<string>`(select count(*) from ${fundFlows})::text`,
      actions: sql<string>`(select count(*) from ${operatorActions})::text`,
      merchants: sql<string>`(select count(*) from ${merchants})::text`,
    })
    .from(sql`(select 1) as one`);
  return { available: b?.availableMinor ?? 0n, locked: b?.lockedMinor ?? 0n, ...counts };
}

describe('npm run ops: arguments', () => {
  it.each([
    [['funds:transfer-in', '--merchant', 'M1', '--amount', '10.00'], /--reason is required/],
    [
      ['funds:transfer-in', '--merchant', 'M1', '--amount', 'ten', '--reason', 'r r r'],
      /--amount: The amount must be a number/,
    ],
    [
      ['funds:transfer-in', '--merchant', 'M1', '--amount', '10', '--reason', 'r r r', '--amout', '5'],
      /Unknown option '--amout'/,
    ],
    [
      ['funds:transfer-in', '--merchant', 'M1', '--amount', '10', '--reason', 'r r r', 'extra'],
      /Unexpected argument 'extra'/,
    ],
    [
      ['funds:freeze', '--merchant', 'M1', '--amount', '0', '--reason', 'r r r'],
      /--amount: The amount must be greater than 0/,
    ],
    [
      ['funds:unfreeze', '--merchant', 'M1', '--freeze', 'abc', '--reason', 'r r r'],
      /--freeze: The freeze must be the number of a freeze/,
    ],
    [
      [
        'user:create',
        '--merchant',
        'M1',
        '--email',
        'not-an-email',
        '--name',
        'N',
        '--role',
        'FINANCE',
        '--reason',
        'r r r',
      ],
      /--email: The email must be a valid email address/,
    ],
    [['merchant:create', '--name', 'X', '--currency', 'EUR', '--reason', 'r r r'], /--currency/],
  ])('%j prints the usage, exits 2 and never reaches the API', async (argv, message) => {
    const before = await snapshot();
    const result = await ops(...argv);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(result.err).toContain(`Usage: npm run ops -- ${argv[0]}`);
    expect(result.connections).toBe(0);
    expect(await snapshot()).toEqual(before);
  });

  it('a bad argument only the server can judge also prints the usage and changes nothing', async () => {
    const before = await snapshot();
    const tooPrecise = await ops(
      'funds:transfer-in',
      '--merchant',
      merchant.no,
      '--amount',
      '1.005',
      '--reason',
      'precision',
    );
    expect(tooPrecise.code).toBe(2);
    expect(tooPrecise.err).toContain('--amount: CNY amounts have at most 2 decimals.');
    expect(tooPrecise.err).toContain('Usage: npm run ops -- funds:transfer-in');
    const unknown = await ops(
      'funds:transfer-in',
      '--merchant',
      'M404404',
      '--amount',
      '1',
      '--reason',
      'who is it',
    );
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--merchant: No merchant has the number M404404.');
    expect(await snapshot()).toEqual(before);
  });

  it('--help on each command, and a general help', async () => {
    for (const command of [
      'merchant:create',
      'merchant:list',
      'user:create',
      'funds:transfer-in',
      'funds:transfer-out',
      'funds:freeze',
      'funds:unfreeze',
      'ledger:verify',
    ]) {
      const result = await ops(command, '--help');
      expect(result.code).toBe(0);
      expect(result.out).toContain(`Usage: npm run ops -- ${command}`);
      expect(result.out).toContain('--json');
      expect(result.connections).toBe(0);
    }
    const general = await ops('--help');
    expect(general.out).toContain('funds:transfer-in');
    const unknown = await ops('funds:teleport');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('Unknown command: funds:teleport');
  });
});

describe('npm run ops: commands', () => {
  it('moves funds, prints what changed, and records the operator and reason', async () => {
    const result = await ops(
      'funds:transfer-in',
      '--merchant',
      merchant.no,
      '--amount',
      '12345.60',
      '--reason',
      'wire 2026-03',
      '--operator',
      'Eve',
    );
    expect(result.code).toBe(0);
    expect(result.out).toContain(`Transferred 12,345.60 CNY in to ${merchant.no}`);
    expect(result.out).toContain('Balance: available 12,345.60 CNY, locked 0.00 CNY, total 12,345.60 CNY.');
    const [action] = await db
      .select()
      .from(operatorActions)
      .orderBy(sql`${operatorActions.id} desc`)
      .limit(1);
    expect(action).toMatchObject({
      operatorName: 'Eve',
      reason: 'wire 2026-03',
      action: 'funds.transfer_in',
    });
    expect(action.idempotencyKey).toMatch(/^cli-/);
  });

  it('--json prints the answer as JSON', async () => {
    const result = await ops(
      'funds:freeze',
      '--merchant',
      merchant.no,
      '--amount',
      '45.60',
      '--reason',
      'dispute',
      '--json',
    );
    expect(result.code).toBe(0);
    const data = JSON.parse(result.out);
    expect(data).toMatchObject({
      freeze_id: expect.any(Number),
      entry: { type: 'funds_frozen', amount: '-45.60', available_after: '12300.00' },
      balance: { available: '12300.00', locked: '45.60', total: '12345.60', currency: 'CNY' },
    });
    const list = JSON.parse((await ops('merchant:list', '--json')).out);
    expect(list.find((m: { no: string }) => m.no === merchant.no).balance.locked).toBe('45.60');

    const lifted = await ops(
      'funds:unfreeze',
      '--merchant',
      merchant.no,
      '--freeze',
      String(data.freeze_id),
      '--reason',
      'closed',
      '--json',
    );
    expect(JSON.parse(lifted.out).entry).toMatchObject({ type: 'funds_unfrozen', amount: '45.60' });
  });

  it('a refusal exits 1 with the reason and no usage', async () => {
    const result = await ops(
      'funds:transfer-out',
      '--merchant',
      merchant.no,
      '--amount',
      '99999999',
      '--reason',
      'too much',
    );
    expect(result.code).toBe(1);
    expect(result.err).toBe('Error (422): Insufficient available balance.');
  });

  it('operator:token-create, -list and -revoke: a named token works as its operator until revoked', async () => {
    const started = Date.now();
    const created = await ops(
      'operator:token-create',
      '--name',
      'alice',
      '--scopes',
      'review,read',
      '--expires-in',
      '30d',
      '--reason',
      'new on-call',
      '--json',
    );
    expect(created.code, created.err).toBe(0);
    const { token, secret } = JSON.parse(created.out);
    expect(token).toMatchObject({
      name: 'alice',
      is_local: false,
      revoked_at: null,
      scopes: ['read', 'review'],
      expired: false,
    });
    const expiresAt = Date.parse(token.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(started + 30 * 86_400_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const [action] = await db
      .select()
      .from(operatorActions)
      .where(
        sql`${operatorActions.action} = 'operator_token.create' and ${operatorActions.reason} = 'new on-call'`,
      );
    expect(action.operatorName).toBe('tester');
    expect(JSON.stringify(action.detail)).not.toContain(secret);

    const listed = await ops('operator:token-list');
    expect(listed.out).toMatch(/^ID +OPERATOR +KIND +SCOPES +STATUS +EXPIRES +CREATED/);
    expect(listed.out).toMatch(
      new RegExp(
        `\\n${token.id} +alice +named +read,review +live +${token.expires_at.replaceAll('.', '\\.')} `,
      ),
    );
    expect(listed.out).toMatch(/\n\d+ +local +local +read,review,funds,admin +live +never /);
    expect(listed.out).not.toContain(secret);
    // Scopes and expiry the server refuses: the usage, nothing made.
    const before = await snapshot();
    for (const [flag, scopes, expiresIn] of [
      ['--scopes', 'read,root', '30d'],
      ['--expires-in', 'read', '400d'],
      ['--expires-in', 'read', 'tomorrow'],
    ]) {
      const refused = await ops(
        'operator:token-create',
        '--name',
        'bob',
        '--scopes',
        scopes,
        '--expires-in',
        expiresIn,
        '--reason',
        'new on-call',
      );
      expect(refused.code, `${scopes} ${expiresIn}`).toBe(2);
      expect(refused.err).toContain(flag);
    }
    const noScopes = await ops('operator:token-create', '--name', 'bob', '--reason', 'new on-call');
    expect(noScopes.code).toBe(2);
    expect(noScopes.err).toMatch(/--scopes is required/);
    expect(await snapshot()).toEqual(before);

    const asAlice = (url: string) =>
      ctx.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${secret}`, accept: 'application/json' },
      });
    expect((await asAlice('/ops/v1/merchants')).statusCode).toBe(200);

    const revoked = await ops('operator:token-revoke', '--id', String(token.id), '--reason', 'left the team');
    expect(revoked.code).toBe(0);
    expect(revoked.out).toBe(`Revoked operator token #${token.id} of alice.`);
    expect((await asAlice('/ops/v1/merchants')).statusCode).toBe(401);
    const again = await ops('operator:token-revoke', '--id', String(token.id), '--reason', 'left the team');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already revoked/);
    const local = JSON.parse((await ops('operator:token-list', '--json')).out).find(
      (t: { is_local: boolean }) => t.is_local,
    );
    const refused = await ops('operator:token-revoke', '--id', String(local.id), '--reason', 'try it');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/local token cannot be revoked/);
  });

  it('--mode test moves and lists the test balance only (DESIGN 12); live is left as it was', async () => {
    const balanceOf = async (mode: string) =>
      JSON.parse((await ops('merchant:list', '--mode', mode, '--json')).out).find(
        (m: { no: string }) => m.no === merchant.no,
      );
    const live = await balanceOf('live');
    const test = await balanceOf('test');
    expect(test.mode).toBe('test');
    const moved = await ops(
      'funds:transfer-in',
      '--merchant',
      merchant.no,
      '--mode',
      'test',
      '--amount',
      '12.34',
      '--reason',
      'more test funds',
    );
    expect(moved.code, moved.err).toBe(0);
    expect(moved.out).toMatch(new RegExp(`in to ${merchant.no} \\(.+\\), test mode\\.`));
    expect((await balanceOf('test')).balance.available).toBe(
      (Number(test.balance.available) + 12.34).toFixed(2),
    );
    expect(await balanceOf('live')).toEqual(live);
    const refused = await ops('merchant:list', '--mode', 'sandbox');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/The mode must be live or test\./);
  });

  it('ledger:trial-balance prints every platform account and a zero total, and --json', async () => {
    const printed = await ops('ledger:trial-balance');
    expect(printed.code).toBe(0);
    expect(printed.out).toMatch(/^live CNY:\n {2}account +balance\n/);
    expect(printed.out).toMatch(/\n {2}operator_adjustments:CNY +-[\d,]+\.\d\d CNY\n/);
    expect(printed.out).toMatch(/\n {2}total +0\.00 CNY\n/);
    expect(printed.out).toMatch(/Balanced: every mode and currency sums to zero\.$/);
    const json = await ops('ledger:trial-balance', '--json');
    const books = JSON.parse(json.out);
    expect(books.balanced).toBe(true);
    for (const c of books.currencies) expect(Number(c.total)).toBe(0);
  });

  it('ledger:verify passes on a healthy ledger and exits 1 listing a row corrupted on purpose', async () => {
    const healthy = await ops('ledger:verify');
    expect(healthy.code).toBe(0);
    expect(healthy.out).toMatch(
      /^Ledger OK: live: \d+ merchant\(s\), \d+ entries; test: \d+ merchant\(s\), \d+ entries checked\.$/,
    );

    await db.execute(
      sql`update fund_flows set amount_minor = amount_minor + 7 where merchant_id = ${merchant.id} and type = 'transfer_in'`,
    );
    try {
      const broken = await ops('ledger:verify', '--merchant', merchant.no);
      expect(broken.code).toBe(1);
      expect(broken.out).toContain('Ledger BROKEN');
      expect(broken.out).toMatch(
        new RegExp(
          `${merchant.no} \\(live\\)  available_equals_entries: available is ([\\d.]+) CNY but its fund flow entries sum to \\d+\\.\\d+ CNY`,
        ),
      );
      expect(broken.out).toMatch(
        new RegExp(
          `${merchant.no} \\(live\\)  fund_flows_match_postings: fund flow entry \\d+ shows \\d+ but journal entry \\d+ posted \\d+`,
        ),
      );
      expect(broken.out).toContain('available_after_chain');
      const json = await ops('ledger:verify', '--json');
      expect(json.code).toBe(1);
      expect(JSON.parse(json.out).problems.map((p: { invariant: string }) => p.invariant)).toContain(
        'available_equals_entries',
      );
    } finally {
      await db.execute(
        sql`update fund_flows set amount_minor = amount_minor - 7 where merchant_id = ${merchant.id} and type = 'transfer_in'`,
      );
    }
    expect((await ops('ledger:verify')).code).toBe(0);
  });
});

// ---- The real command line, as a person runs it.

const opsScript = path.resolve(import.meta.dirname, '../../src/cli/ops.ts');

function runCli(
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opsScript, ...argv], {
      env: { PATH: process.env.PATH, APP_KEY: TEST_APP_KEY, NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, out, err }));
  });
}

describe('npm run ops: the process', () => {
  it('calls a running server over HTTP, found in DATA_DIR/server.json, with the local token', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    writeFileSync(
      path.join(ctx.config.dataDir, 'server.json'),
      JSON.stringify({
        pid: process.pid,
        url: address,
        role: 'server',
        database: ctx.database.kind,
        started_at: new Date().toISOString(),
      }),
    );
    const before = await snapshot();
    const result = await runCli(
      [
        'funds:transfer-in',
        '--merchant',
        merchant.no,
        '--amount',
        '0.40',
        '--reason',
        'over http',
        '--operator',
        'Http Hank',
      ],
      // A DATABASE_URL pointing nowhere proves it never opened a database of its own.
      { DATA_DIR: ctx.config.dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    );
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain(`Transferred 0.40 CNY in to ${merchant.no}`);
    expect((await snapshot()).available).toBe(before.available + 40n);
    const [action] = await db
      .select()
      .from(operatorActions)
      .orderBy(sql`${operatorActions.id} desc`)
      .limit(1);
    expect(action.operatorName).toBe('Http Hank');
  });

  it('without a server, builds the app in-process on the database of the environment', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-ops-cli-'));
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: testDatabaseKind() === 'postgres' ? ctx.database.url! : '',
    };
    const created = await runCli(
      [
        'merchant:create',
        '--name',
        'Cli Shop',
        '--currency',
        'BRL',
        '--no',
        'MCLI1',
        '--reason',
        'in-process',
        '--json',
      ],
      env,
    );
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.out).merchant).toMatchObject({ no: 'MCLI1', currency: 'BRL' });
    const moved = await runCli(
      ['funds:transfer-in', '--merchant', 'MCLI1', '--amount', '10.5', '--reason', 'in-process'],
      env,
    );
    expect(moved.code).toBe(0);
    expect(moved.out).toContain('Transferred 10.50 BRL in to MCLI1 (Cli Shop).');
    // It let go of the data directory when it finished.
    expect(existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    const bad = await runCli(['funds:transfer-in', '--merchant', 'MCLI1', '--amount', '1'], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--reason is required.');
  }, 120_000);

  it('refuses to open an embedded database that another process is starting on', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-ops-busy-'));
    writeFileSync(
      path.join(dataDir, 'server.json'),
      JSON.stringify({
        pid: process.pid,
        url: null,
        role: 'server',
        database: 'pglite',
        started_at: new Date().toISOString(),
      }),
    );
    const result = await runCli(['merchant:list'], { DATA_DIR: dataDir, DATABASE_URL: '' });
    expect(result.code).toBe(1);
    expect(result.err).toContain(`A server (pid ${process.pid}) is starting or busy with ${dataDir}`);
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
  });
});
