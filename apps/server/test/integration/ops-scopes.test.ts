import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../src/db/client.ts';
import { collections, operatorActions, topUps } from '../../src/db/schema/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { createOperatorGuard, requireOperatorScopes } from '../../src/modules/ops/operator-auth.ts';
import { balanceRow } from '../helpers/ledger.ts';
import { createGatewayMerchant, type GatewayMerchant } from '../factories/gateway.ts';
import { createMerchant } from '../factories/merchants.ts';
import { folderUpTo, journal } from '../helpers/migrations.ts';
import { createTestApp, createTestDatabase, type TestContext } from '../helpers/test-app.ts';
import { parseRoutes } from '../helpers/routes.ts';

// Operator tokens carry scopes (read, review, funds, admin) and an expiry (DESIGN 9 and 10): a token acts
// only within the scopes it lists, only an admin token mints, lists and revokes tokens, an expired token is
// refused, and the demo routes (which sign with a merchant's secret and move its funds) need `funds` and
// record an operator action like every other change.

const SCOPES = ['read', 'review', 'funds', 'admin'] as const;
type Scope = (typeof SCOPES)[number];

/** The scope every operator route needs. A route missing here (or here but not on the server) fails. */
const SCOPE_OF: Record<string, Scope> = {
  'GET /ops/v1/merchants': 'read',
  'GET /ops/v1/channels': 'read',
  'GET /ops/v1/reconciliations': 'read',
  'GET /ops/v1/ledger/verify': 'read',
  'GET /ops/v1/ledger/trial-balance': 'read',
  'GET /ops/v1/withdrawals': 'read',
  'GET /ops/v1/topups': 'read',
  'GET /ops/v1/refunds': 'read',
  'GET /ops/v1/topups/:no': 'read',
  'GET /ops/v1/topups/:no/screenshot': 'read',
  'POST /ops/v1/topups/approve': 'review',
  'POST /ops/v1/topups/reject': 'review',
  'POST /ops/v1/withdrawals/approve': 'review',
  'POST /ops/v1/withdrawals/pay': 'review',
  'POST /ops/v1/withdrawals/reject': 'review',
  'POST /ops/v1/funds/transfer-in': 'funds',
  'POST /ops/v1/funds/transfer-out': 'funds',
  'POST /ops/v1/funds/freeze': 'funds',
  'POST /ops/v1/funds/unfreeze': 'funds',
  'POST /ops/v1/settlements/run': 'funds',
  'POST /ops/v1/sandbox/complete': 'funds',
  'POST /ops/v1/statements/import': 'funds',
  'POST /ops/v1/reconciliations/resolve': 'funds',
  'POST /ops/v1/reconciliations/close': 'funds',
  'POST /ops/v1/payouts/batch-export': 'funds',
  'POST /ops/v1/payouts/batch-import': 'funds',
  'POST /ops/v1/payouts/mark-paid': 'funds',
  'POST /ops/v1/payouts/mark-failed': 'funds',
  'POST /ops/v1/refunds/complete': 'funds',
  'POST /ops/v1/demo/collections': 'funds',
  'POST /ops/v1/demo/payouts': 'funds',
  'POST /ops/v1/merchants': 'admin',
  'POST /ops/v1/users': 'admin',
  'POST /ops/v1/channels/open': 'admin',
  'POST /ops/v1/channels/close': 'admin',
  'GET /ops/v1/operator-tokens': 'admin',
  'POST /ops/v1/operator-tokens': 'admin',
  'POST /ops/v1/operator-tokens/revoke': 'admin',
};

const DAY_MS = 86_400_000;
let clock = new Date();
let ctx: TestContext;
let db: Db;
let localToken: string;
let gm: GatewayMerchant;

beforeAll(async () => {
  ctx = await createTestApp({}, { now: () => clock });
  db = ctx.database.db;
  localToken = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  gm = await createGatewayMerchant(db, ctx.config.appKey);
});
afterAll(() => ctx?.close());

const call = (
  method: 'GET' | 'POST' | 'HEAD',
  url: string,
  body?: Record<string, unknown>,
  token = localToken,
) =>
  ctx.app.inject({
    method,
    url,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      // The local token names its operator; a named token is its own.
      ...(token === localToken ? { 'x-operator': 'Tess' } : {}),
    },
    ...(body ? { payload: body } : {}),
  });

/** A named token minted through the API with the local token (which holds every scope). */
async function mint(name: string, scopes: Scope[], expiresIn?: string, by = localToken) {
  const response = await call(
    'POST',
    '/ops/v1/operator-tokens',
    { name, scopes, ...(expiresIn ? { expires_in: expiresIn } : {}), reason: 'scopes test' },
    by,
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { secret: string; token: { id: number; expires_at: string | null } };
}

const actionCount = async () =>
  Number((await db.select({ n: sql<string>`count(*)` }).from(operatorActions))[0].n);

async function pendingTopUp() {
  const no = `R${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  await db.insert(topUps).values({
    merchantId: gm.merchant.id,
    topUpNo: no,
    network: 'TRC20',
    depositAddress: 'TXYZ',
    amountMinor: 10_000_000n,
    currency: gm.merchant.currency,
    screenshotKey: 'none',
    screenshotType: 'image/png',
    screenshotBytes: 1,
  });
  return no;
}

describe('operator token scopes', () => {
  it('a read token lists, but cannot approve a top-up, move funds or mint a token (403 insufficient_scope)', async () => {
    const reader = (await mint('reader', ['read'])).secret;
    expect((await call('GET', '/ops/v1/merchants', undefined, reader)).statusCode).toBe(200);
    const no = await pendingTopUp();
    const actionsBefore = await actionCount();

    const approve = await call(
      'POST',
      '/ops/v1/topups/approve',
      { no, received: '10', rate: '7', reason: 'seen on chain' },
      reader,
    );
    expect(approve.statusCode).toBe(403);
    expect(approve.json()).toMatchObject({ code: 'insufficient_scope' });
    expect(approve.json().message).toMatch(/"review" scope/);
    const [row] = await db.select().from(topUps).where(eq(topUps.topUpNo, no));
    expect(row.status).toBe('pending_review');

    const transfer = await call(
      'POST',
      '/ops/v1/funds/transfer-in',
      { merchant: gm.merchant.no, amount: '100.00', reason: 'try it' },
      reader,
    );
    expect(transfer.statusCode).toBe(403);
    expect(transfer.json()).toMatchObject({ code: 'insufficient_scope' });
    expect(transfer.json().message).toMatch(/"funds" scope/);
    expect((await balanceRow(db, gm.merchant.id))?.availableMinor ?? 0n).toBe(0n);

    const minted = await call(
      'POST',
      '/ops/v1/operator-tokens',
      { name: 'mallory', scopes: ['admin'], reason: 'try it' },
      reader,
    );
    expect(minted.statusCode).toBe(403);
    expect(minted.json()).toMatchObject({ code: 'insufficient_scope' });
    expect(minted.json().message).toMatch(/"admin" scope/);
    expect(await actionCount()).toBe(actionsBefore);

    // The same decision with a review token goes through.
    const reviewer = (await mint('reviewer', ['read', 'review'])).secret;
    const approved = await call(
      'POST',
      '/ops/v1/topups/approve',
      { no, received: '10', rate: '7', reason: 'seen on chain' },
      reviewer,
    );
    expect(approved.statusCode, approved.body).toBe(201);
    expect(approved.json().data).toMatchObject({ status: 'approved', reviewed_by: 'reviewer' });
  });

  it('only an admin token mints, lists and revokes tokens, and it grants no scope it does not hold', async () => {
    const operator = (await mint('operator', ['read', 'review', 'funds'])).secret;
    const victim = await mint('victim', ['read']);
    for (const [method, url, body] of [
      ['POST', '/ops/v1/operator-tokens', { name: 'x', scopes: ['read'], reason: 'try it' }],
      ['GET', '/ops/v1/operator-tokens', undefined],
      ['POST', '/ops/v1/operator-tokens/revoke', { id: victim.token.id, reason: 'try it' }],
    ] as const) {
      const response = await call(method, url, body, operator);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().code).toBe('insufficient_scope');
    }
    expect((await call('GET', '/ops/v1/merchants', undefined, victim.secret)).statusCode).toBe(200);

    const admin = (await mint('admin', ['admin', 'read'])).secret;
    const listed = await call('GET', '/ops/v1/operator-tokens', undefined, admin);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toContainEqual(
      expect.objectContaining({ name: 'victim', scopes: ['read'], expired: false }),
    );
    const made = await mint('new reader', ['read'], '30d', admin);
    expect(Date.parse(made.token.expires_at!)).toBe(clock.getTime() + 30 * DAY_MS);

    // An admin without `funds` cannot make a token that moves money (no way around its own scopes).
    const escalate = await call(
      'POST',
      '/ops/v1/operator-tokens',
      { name: 'escalated', scopes: ['funds'], reason: 'try it' },
      admin,
    );
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json()).toMatchObject({ code: 'insufficient_scope' });
    expect(escalate.json().message).toMatch(/funds/);

    const revoked = await call(
      'POST',
      '/ops/v1/operator-tokens/revoke',
      { id: victim.token.id, reason: 'left' },
      admin,
    );
    expect(revoked.statusCode).toBe(201);
    expect((await call('GET', '/ops/v1/merchants', undefined, victim.secret)).statusCode).toBe(401);
  });

  it('a token expires on the clock: 401 token_expired, listed as expired; expiry is bounded', async () => {
    const started = clock;
    try {
      const made = await mint('short', ['read'], '1d');
      expect(made.token.expires_at).toBe(new Date(started.getTime() + DAY_MS).toISOString());
      // Without --expires-in: 90 days.
      const usual = await mint('usual', ['read']);
      expect(usual.token.expires_at).toBe(new Date(started.getTime() + 90 * DAY_MS).toISOString());

      clock = new Date(started.getTime() + DAY_MS - 1000);
      expect((await call('GET', '/ops/v1/merchants', undefined, made.secret)).statusCode).toBe(200);
      clock = new Date(started.getTime() + DAY_MS);
      const expired = await call('GET', '/ops/v1/merchants', undefined, made.secret);
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toMatchObject({ code: 'token_expired' });
      expect(expired.json().message).toMatch(/expired/);
      const listed = (await call('GET', '/ops/v1/operator-tokens')).json().data as {
        id: number;
        expired: boolean;
      }[];
      expect(listed.find((t) => t.id === made.token.id)?.expired).toBe(true);
      expect(listed.find((t) => t.id === usual.token.id)?.expired).toBe(false);
      // The machine's own token never expires.
      clock = new Date(started.getTime() + 3650 * DAY_MS);
      expect((await call('GET', '/ops/v1/merchants')).statusCode).toBe(200);
    } finally {
      clock = started;
    }

    for (const expiresIn of ['0d', '0h', '366d', '8761h', 'soon', '-1d', '1.5d']) {
      const response = await call('POST', '/ops/v1/operator-tokens', {
        name: 'bad expiry',
        scopes: ['read'],
        expires_in: expiresIn,
        reason: 'scopes test',
      });
      expect(response.statusCode, expiresIn).toBe(422);
      expect(response.json().errors.expires_in, expiresIn).toBeDefined();
    }
    for (const scopes of [[], ['root'], 'read,root', ['READ'], null]) {
      const response = await call('POST', '/ops/v1/operator-tokens', {
        name: 'bad scopes',
        scopes,
        reason: 'scopes test',
      });
      expect(response.statusCode, JSON.stringify(scopes)).toBe(422);
    }
    // A token cannot outlive the admin token that makes it.
    const admin = (await mint('brief admin', ['admin', 'read'], '1d')).secret;
    const longer = await call(
      'POST',
      '/ops/v1/operator-tokens',
      { name: 'longer', scopes: ['read'], expires_in: '30d', reason: 'scopes test' },
      admin,
    );
    expect(longer.statusCode).toBe(422);
    expect(longer.json().errors.expires_in[0]).toMatch(/outlive/);
  });

  it('the demo routes need the funds scope and record an operator action with the reason', async () => {
    // Demo traffic runs on the sandbox, which serves test mode only: a merchant whose key is a test key.
    const tm = await createGatewayMerchant(db, ctx.config.appKey, { mode: 'test' });
    const reader = (await mint('demo reader', ['read'])).secret;
    const ordersOf = async () =>
      (await db.select().from(collections).where(eq(collections.merchantId, tm.merchant.id))).length;
    const before = { orders: await ordersOf(), actions: await actionCount() };
    const body = { merchant: tm.merchant.no, channel: 'sandbox', reason: 'show the dashboard' };
    const refused = await call('POST', '/ops/v1/demo/collections', body, reader);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('insufficient_scope');
    expect({ orders: await ordersOf(), actions: await actionCount() }).toEqual(before);

    const funds = (await mint('demo funds', ['funds'])).secret;
    const made = await call('POST', '/ops/v1/demo/collections', body, funds);
    expect(made.statusCode, made.body).toBe(200);
    const { trade_no, gateway_status } = made.json().data;
    expect(gateway_status).toBe(201);
    expect(await ordersOf()).toBe(before.orders + 1);
    const [action] = await db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.action, 'demo.collection'));
    expect(action).toMatchObject({
      operatorName: 'demo funds',
      merchantId: tm.merchant.id,
      reason: 'show the dashboard',
    });
    expect(action.detail).toMatchObject({ result: { trade_no, gateway_status: 201 } });
    expect(JSON.stringify(action.detail)).not.toContain(tm.secret);

    // A payout: refused for want of funds by the gateway, and recorded all the same.
    const payout = await call(
      'POST',
      '/ops/v1/demo/payouts',
      { merchant: tm.merchant.no, reason: 'show a payout' },
      funds,
    );
    expect(payout.statusCode, payout.body).toBe(200);
    const [payoutAction] = await db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.action, 'demo.payout'));
    expect(payoutAction).toMatchObject({ operatorName: 'demo funds', reason: 'show a payout' });
    expect(payoutAction.detail).toMatchObject({
      result: { gateway_status: payout.json().data.gateway_status },
    });

    // A merchant without an access key: refused, and no action recorded.
    const keyless = (await createMerchant(db, { roles: [] })).merchant;
    const actionsBefore = await actionCount();
    const noKey = await call(
      'POST',
      '/ops/v1/demo/collections',
      { merchant: keyless.no, reason: 'show the dashboard' },
      funds,
    );
    expect(noKey.statusCode).toBe(409);
    expect(noKey.json().code).toBe('access_key_not_issued');
    expect(await actionCount()).toBe(actionsBefore);

    // Without a reason: refused, nothing sent.
    const noReason = await call('POST', '/ops/v1/demo/collections', { merchant: tm.merchant.no }, funds);
    expect(noReason.statusCode).toBe(422);
    expect(await ordersOf()).toBe(before.orders + 1);
  });

  it('every /ops/v1 route declares its scope: a token with only that scope passes, any other gets 403', async () => {
    const tokens = Object.fromEntries(
      await Promise.all(
        SCOPES.map(async (scope) => [scope, (await mint(`only ${scope}`, [scope])).secret] as const),
      ),
    ) as Record<Scope, string>;
    const routes = parseRoutes(ctx.app.printRoutes({ commonPrefix: false })).filter((route) =>
      route.url.startsWith('/ops/'),
    );
    expect(
      routes
        .filter((r) => r.method !== 'HEAD')
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual(Object.keys(SCOPE_OF).sort());

    const failures: string[] = [];
    for (const route of routes) {
      // HEAD is GET without the body, behind the same check.
      const needed = SCOPE_OF[`${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`];
      const url = route.url.replace(/:[a-z_]+/gi, 'R1');
      for (const scope of SCOPES) {
        // An empty body: a token with the scope gets past the check (and then 4xx for the body, or 200).
        const response = await call(
          route.method as 'GET' | 'POST',
          url,
          route.method === 'POST' ? {} : undefined,
          tokens[scope],
        );
        const refused =
          response.statusCode === 403 &&
          (route.method === 'HEAD' || response.json().code === 'insufficient_scope');
        if (scope === needed ? refused || response.statusCode === 401 : !refused) {
          failures.push(
            `${route.method} ${route.url} with ${scope}: ${response.statusCode} ${response.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('an /ops/v1 route registered without a scope stops the app from starting', async () => {
    const app = Fastify();
    requireOperatorScopes(app);
    const operator = createOperatorGuard({ db, now: () => clock });
    app.get('/ops/v1/scoped', operator('read'), async () => ({}));
    expect(() => app.get('/ops/v1/forgotten', async () => ({}))).toThrow(
      'GET /ops/v1/forgotten declares no operator scope',
    );
    expect(() =>
      app.post('/ops/v1/by-hand', { config: { operatorScope: 'read' } }, async () => ({})),
    ).toThrow(/declares no operator scope/);
    await app.close();
  });

  it('tokens made before scopes keep every scope; named ones expire 90 days after the migration', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'paydesk-migrations-'));
    const scopesAt = journal.entries.findIndex((e) => e.tag === '0026_operator_token_scopes');
    expect(scopesAt).toBeGreaterThan(0);
    folderUpTo(folder, scopesAt);
    const old = await createTestDatabase({ migrationsFolder: folder });
    try {
      await old.db.execute(sql`insert into operator_tokens (operator_name, token_hash, is_local)
                                values ('local', 'hash-local', true), ('alice', 'hash-alice', false)`);
      const migratedFrom = Date.now();
      folderUpTo(folder, journal.entries.length);
      await old.migrate();
      const rows = await queryRows<{ operator_name: string; scopes: string[]; expires_at: Date | null }>(
        old.db,
        sql`select operator_name, scopes, expires_at from operator_tokens order by id`,
      );
      expect(rows.map((r) => [r.operator_name, r.scopes])).toEqual([
        ['local', ['read', 'review', 'funds', 'admin']],
        ['alice', ['read', 'review', 'funds', 'admin']],
      ]);
      expect(rows[0].expires_at).toBeNull();
      const expiry = new Date(rows[1].expires_at!).getTime();
      expect(expiry).toBeGreaterThanOrEqual(migratedFrom + 90 * DAY_MS - 60_000);
      expect(expiry).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS + 60_000);
      // A named token cannot be stored without an expiry, nor with a scope the table does not know.
      await expect(
        old.db.execute(sql`insert into operator_tokens (operator_name, token_hash, scopes)
                           values ('bob', 'hash-bob', array['read'])`),
      ).rejects.toThrow();
      await expect(
        old.db.execute(sql`insert into operator_tokens (operator_name, token_hash, scopes, expires_at)
                           values ('bob', 'hash-bob', array['root'], now())`),
      ).rejects.toThrow();
    } finally {
      await old.drop();
    }
  });
});
