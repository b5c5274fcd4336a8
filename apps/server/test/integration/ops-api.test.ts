import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import type { merchants } from '../../src/db/schema/index.ts';
import { fundFlows, operatorActions, operatorTokens } from '../../src/db/schema/index.ts';
import { createOperatorToken, ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { TestClient } from '../helpers/client.ts';
import { balanceRow } from '../helpers/ledger.ts';
import { createMerchant } from '../factories/merchants.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

let ctx: TestContext;
let db: Db;
let localToken: string;
let aliceToken: string;
let merchant: typeof merchants.$inferSelect;

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
  localToken = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  aliceToken = await createOperatorToken(db, 'alice');
  merchant = (await createMerchant(db, { roles: [] })).merchant;
});
afterAll(() => ctx.close());

type Call = { token?: string; operator?: string; key?: string };
const call = (method: 'GET' | 'POST', url: string, body?: Record<string, unknown>, opts: Call = {}) =>
  ctx.app.inject({
    method,
    url,
    headers: {
      accept: 'application/json',
      ...(opts.token !== '' ? { authorization: `Bearer ${opts.token ?? localToken}` } : {}),
      ...(opts.operator ? { 'x-operator': opts.operator } : {}),
      ...(opts.key ? { 'idempotency-key': opts.key } : {}),
    },
    ...(body ? { payload: body } : {}),
  });

async function balanceOf(merchantId: number) {
  const row = await balanceRow(db, merchantId);
  return { available: row?.availableMinor ?? 0n, locked: row?.lockedMinor ?? 0n };
}
const actionCount = async () =>
  Number((await db.select({ n: sql<string>`count(*)` }).from(operatorActions))[0].n);
const entryCount = async (merchantId: number) =>
  Number(
    (
      await db
        .select({ n: sql<string>`count(*)` })
        .from(fundFlows)
        .where(eq(fundFlows.merchantId, merchantId))
    )[0].n,
  );

describe('operator tokens', () => {
  it('refuses a request without a token, with an unknown one, or with a revoked one (401)', async () => {
    expect((await call('GET', '/ops/v1/merchants', undefined, { token: '' })).statusCode).toBe(401);
    expect((await call('GET', '/ops/v1/merchants', undefined, { token: 'nope' })).statusCode).toBe(401);
    const revoked = await createOperatorToken(db, 'bob');
    await db
      .update(operatorTokens)
      .set({ revokedAt: new Date() })
      .where(eq(operatorTokens.operatorName, 'bob'));
    const response = await call('GET', '/ops/v1/merchants', undefined, { token: revoked });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('The operator token is not valid.');
  });

  it("stores only the token's hash, and the local token file is readable by its owner only", async () => {
    const rows = await db.select().from(operatorTokens);
    expect(rows.some((r) => r.tokenHash === localToken)).toBe(false);
    const { statSync } = await import('node:fs');
    expect(statSync(`${ctx.config.dataDir}/ops.token`).mode & 0o777).toBe(0o600);
  });

  it("records the local token's X-Operator as the operator, and a named token's own name", async () => {
    const viaLocal = await call(
      'POST',
      '/ops/v1/funds/transfer-in',
      { merchant: merchant.no, amount: '10.00', reason: 'opening float' },
      { operator: 'Carol Ops' },
    );
    expect(viaLocal.statusCode).toBe(201);
    const viaAlice = await call(
      'POST',
      '/ops/v1/funds/transfer-in',
      { merchant: merchant.no, amount: '1.00', reason: 'top up float' },
      { token: aliceToken },
    );
    expect(viaAlice.statusCode).toBe(201);
    const actions = await db
      .select()
      .from(operatorActions)
      .where(
        sql`${operatorActions.id} in (${viaLocal.json().data.action_id}, ${viaAlice.json().data.action_id})`,
      )
      .orderBy(operatorActions.id);
    expect(actions.map((a) => [a.operatorName, a.action, a.reason, a.merchantId])).toEqual([
      ['Carol Ops', 'funds.transfer_in', 'opening float', merchant.id],
      ['alice', 'funds.transfer_in', 'top up float', merchant.id],
    ]);
    expect(Date.now() - actions[0].createdAt.getTime()).toBeLessThan(60_000);
  });

  it('refuses a named token speaking for someone else (403) and changes nothing', async () => {
    const before = await balanceOf(merchant.id);
    const response = await call(
      'POST',
      '/ops/v1/funds/transfer-in',
      { merchant: merchant.no, amount: '5.00', reason: 'pretending' },
      { token: aliceToken, operator: 'mallory' },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('This token belongs to alice.');
    expect(await balanceOf(merchant.id)).toEqual(before);
  });
});

describe('moving funds', () => {
  it('answers the entry, the balance after, and the action', async () => {
    const { merchant: m } = await createMerchant(db, { roles: [], currency: 'VND' });
    const response = await call('POST', '/ops/v1/funds/transfer-in', {
      merchant: m.no,
      amount: '1500000',
      reason: 'wire 42',
      note: 'Initial deposit',
    });
    expect(response.statusCode).toBe(201);
    const { data } = response.json();
    expect(data.entry).toMatchObject({
      type: 'transfer_in',
      amount: '1500000',
      available_after: '1500000',
      note: 'Initial deposit',
    });
    expect(data.entry.ref_no).toBe(`OA${String(data.action_id).padStart(8, '0')}`);
    expect(data.balance).toEqual({ total: '1500000', available: '1500000', locked: '0', currency: 'VND' });
  });

  it.each([
    [{ amount: '10.00', reason: 'x y z' }, 'merchant', 'The merchant field is required.'],
    [{ merchant: 'SELF', amount: '10.00' }, 'reason', 'The reason field is required.'],
    [
      { merchant: 'NOPE1', amount: '10.00', reason: 'valid reason' },
      'merchant',
      'No merchant has the number NOPE1.',
    ],
    [
      { merchant: 'SELF', amount: '-1', reason: 'valid reason' },
      'amount',
      'The amount must be a number with at most 6 decimals.',
    ],
    [
      { merchant: 'SELF', amount: '0.00', reason: 'valid reason' },
      'amount',
      'The amount must be greater than 0.',
    ],
    [
      { merchant: 'SELF', amount: '1.001', reason: 'valid reason' },
      'amount',
      'CNY amounts have at most 2 decimals.',
    ],
    [{ merchant: 'SELF', amount: '1', reason: 'no' }, 'reason', 'The reason must be at least 3 characters.'],
  ] as [Record<string, string>, string, string][])(
    'refuses %j with 422 on %s and changes nothing',
    async (body, field, message) => {
      const payload = { ...body, ...(body.merchant === 'SELF' ? { merchant: merchant.no } : {}) };
      const [before, actions] = [await balanceOf(merchant.id), await actionCount()];
      const response = await call('POST', '/ops/v1/funds/transfer-in', payload);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors[field]).toContain(message);
      expect(await balanceOf(merchant.id)).toEqual(before);
      expect(await actionCount()).toBe(actions);
    },
  );

  it('200 concurrent transfer-outs of 10.00 against 1,000.00 through the API: exactly 100 succeed', async () => {
    const { merchant: m } = await createMerchant(db, { roles: [] });
    expect(
      (
        await call('POST', '/ops/v1/funds/transfer-in', {
          merchant: m.no,
          amount: '1000.00',
          reason: 'float',
        })
      ).statusCode,
    ).toBe(201);
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call('POST', '/ops/v1/funds/transfer-out', {
          merchant: m.no,
          amount: '10.00',
          reason: `payout run ${i}`,
        }),
      ),
    );
    const succeeded = responses.filter((r) => r.statusCode === 201);
    const refused = responses.filter((r) => r.statusCode === 422);
    expect(succeeded).toHaveLength(100);
    expect(refused).toHaveLength(100);
    for (const response of refused) {
      expect(response.json()).toMatchObject({
        message: 'Insufficient available balance.',
        code: 'insufficient_funds',
        errors: { amount: ['Insufficient available balance.'] },
      });
    }
    expect(await balanceOf(m.id)).toEqual({ available: 0n, locked: 0n });
    const [sum] = await db
      .select({ total: sql<string>`sum(${fundFlows.amountMinor})::text` })
      .from(fundFlows)
      .where(eq(fundFlows.merchantId, m.id));
    expect(sum.total).toBe('0');
    // Refused commands leave no action behind: only the transfer in and the 100 transfers out are recorded.
    const [recorded] = await db
      .select({ n: sql<string>`count(*)::text` })
      .from(operatorActions)
      .where(eq(operatorActions.merchantId, m.id));
    expect(recorded.n).toBe('101');
    expect((await verifyLedger(db, m.no)).ok).toBe(true);
  });

  it('a retried command with the same Idempotency-Key replays the first answer and moves money once', async () => {
    const { merchant: m } = await createMerchant(db, { roles: [] });
    const body = { merchant: m.no, amount: '25.00', reason: 'retry me' };
    const key = 'cli-retry-0001';
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', '/ops/v1/funds/transfer-in', body, { key })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    const replays = responses.filter((r) => r.statusCode === 200);
    for (const r of replays) {
      expect(r.headers['idempotent-replayed']).toBe('true');
      expect(r.json()).toEqual(responses.find((x) => x.statusCode === 201)!.json());
    }
    expect(await balanceOf(m.id)).toEqual({ available: 2_500n, locked: 0n });
    expect(await entryCount(m.id)).toBe(1);

    const changed = await call('POST', '/ops/v1/funds/transfer-in', { ...body, amount: '99.00' }, { key });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().errors.idempotency_key).toEqual([
      'This Idempotency-Key was used with a different request.',
    ]);
    expect(await balanceOf(m.id)).toEqual({ available: 2_500n, locked: 0n });

    const other = await call('POST', '/ops/v1/funds/freeze', body, { key });
    expect(other.statusCode).toBe(422);
    expect(other.json().errors.idempotency_key).toEqual([
      'This Idempotency-Key was used for another command.',
    ]);
  });

  it('freezes and unfreezes; another merchant cannot lift the freeze, and it lifts once', async () => {
    const { merchant: m } = await createMerchant(db, { roles: [] });
    const { merchant: other } = await createMerchant(db, { roles: [] });
    await call('POST', '/ops/v1/funds/transfer-in', { merchant: m.no, amount: '300.00', reason: 'float' });
    const frozen = await call('POST', '/ops/v1/funds/freeze', {
      merchant: m.no,
      amount: '120.00',
      reason: 'dispute 7',
    });
    expect(frozen.statusCode).toBe(201);
    const freezeId = frozen.json().data.freeze_id;
    expect(frozen.json().data.balance).toEqual({
      total: '300.00',
      available: '180.00',
      locked: '120.00',
      currency: 'CNY',
    });

    const stranger = await call('POST', '/ops/v1/funds/unfreeze', {
      merchant: other.no,
      freeze: freezeId,
      reason: 'x y z',
    });
    expect(stranger.statusCode).toBe(404);
    expect(await balanceOf(m.id)).toEqual({ available: 18_000n, locked: 12_000n });

    const unfreeze = () =>
      call('POST', '/ops/v1/funds/unfreeze', { merchant: m.no, freeze: freezeId, reason: 'dispute closed' });
    const lifted = await unfreeze();
    expect(lifted.statusCode).toBe(201);
    expect(lifted.json().data.entry).toMatchObject({
      type: 'funds_unfrozen',
      amount: '120.00',
      available_after: '300.00',
    });
    const again = await unfreeze();
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`Freeze ${freezeId} was already lifted.`);
    expect(await balanceOf(m.id)).toEqual({ available: 30_000n, locked: 0n });
  });
});

describe('merchants and users', () => {
  it('creates a merchant with the next number, and lists it with its balance', async () => {
    const created = await call('POST', '/ops/v1/merchants', {
      name: 'Acme Ltd',
      currency: 'inr',
      reason: 'signed contract',
    });
    expect(created.statusCode).toBe(201);
    const { merchant: m } = created.json().data;
    expect(m).toMatchObject({ no: 'M100001', name: 'Acme Ltd', currency: 'INR', status: 'active' });
    const second = await call('POST', '/ops/v1/merchants', {
      name: 'Beta',
      currency: 'CNY',
      reason: 'signed contract',
    });
    expect(second.json().data.merchant.no).toBe('M100002');
    const taken = await call('POST', '/ops/v1/merchants', {
      no: 'M100002',
      name: 'Dup',
      currency: 'CNY',
      reason: 'oops',
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.no).toEqual(['The merchant number M100002 is already taken.']);

    const list = await call('GET', '/ops/v1/merchants');
    expect(list.json().data.find((x: { no: string }) => x.no === 'M100001')).toMatchObject({
      balance: { total: '0.00', available: '0.00', locked: '0.00', currency: 'INR' },
    });
  });

  it('creates a user who can log in with the generated password and has the role', async () => {
    const response = await call('POST', '/ops/v1/users', {
      merchant: merchant.no,
      email: 'Dana@Example.test',
      name: 'Dana',
      role: 'FINANCE',
      reason: 'new finance lead',
    });
    expect(response.statusCode).toBe(201);
    const { data } = response.json();
    expect(data.user).toMatchObject({
      email: 'Dana@Example.test',
      roles: ['FINANCE'],
      merchant: merchant.no,
    });
    expect(data.generated_password).toMatch(/^\S{16}$/);

    const client = new TestClient(ctx.app);
    expect((await client.login('dana@example.test', data.generated_password)).statusCode).toBe(200);
    expect((await client.get('/api/merchant/user')).json().data.roles).toEqual(['FINANCE']);

    const [action] = await db.select().from(operatorActions).where(eq(operatorActions.action, 'user.create'));
    expect(JSON.stringify(action.detail)).not.toContain(data.generated_password);

    const duplicate = await call('POST', '/ops/v1/users', {
      merchant: merchant.no,
      email: 'dana@example.test',
      name: 'Dana again',
      role: 'VIEWER',
      reason: 'duplicate',
    });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().errors.email).toEqual(['The email has already been taken.']);
    const bad = await call('POST', '/ops/v1/users', {
      merchant: merchant.no,
      email: 'x@y.test',
      name: 'X',
      role: 'KING',
      reason: 'bad role',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.role[0]).toMatch(/ROOT, FINANCE, OPERATOR, VIEWER/);
  });
});
