import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  openPayoutChannel,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
} from '../factories/gateway.ts';

let ctx: TestContext;
let emails: Record<string, string>;

beforeAll(async () => {
  ctx = await createTestApp();
  const { users } = await createMerchant(ctx.database.db, {
    roles: ['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'],
  });
  emails = Object.fromEntries(Object.entries(users).map(([role, user]) => [role, user.email]));
});
afterAll(() => ctx.close());

describe('the role table is enforced by the server', () => {
  it.each(['FINANCE', 'OPERATOR', 'VIEWER'])(
    '%s is refused the access key with 403 and a message',
    async (role) => {
      const client = await loginAs(ctx.app, emails[role], TEST_PASSWORD);
      const response = await client.get('/api/merchant/access-key');
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toMatch(/permission/i);
    },
  );

  it('ROOT reads the access key (none issued yet)', async () => {
    const client = await loginAs(ctx.app, emails.ROOT, TEST_PASSWORD);
    const response = await client.get('/api/merchant/access-key');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: null });
  });

  it('without a session the answer is 401, not 403', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/merchant/access-key' });
    expect(response.statusCode).toBe(401);
  });
});

// Sending a callback again sends a webhook to the merchant's server: a read-only role may not (issue 33).
describe('sending a callback again needs collection:notify or payout:notify', () => {
  let m: GatewayMerchant;
  let collectionNo: string;
  let payoutNo: string;

  beforeAll(async () => {
    const db = ctx.database.db;
    m = await createGatewayMerchant(db, ctx.config.appKey, {
      roles: ['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'],
      notifyUrl: 'http://127.0.0.1:9/hooks',
    });
    const collection = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'NOTIFY-C1', amount: '10.00' },
    });
    expect(collection.statusCode, collection.body).toBe(201);
    collectionNo = collection.json().data.trade_no;
    await ctx.app.services.sandbox.complete(collectionNo, 'paid');

    await openPayoutChannel(db, m.merchant.id);
    await fundMerchant(db, m.merchant.id, 100_000n);
    const payout = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
      body: {
        out_trade_no: 'NOTIFY-P1',
        amount: '10.00',
        ...CN_PAYEE,
      },
    });
    expect(payout.statusCode, payout.body).toBe(201);
    payoutNo = payout.json().data.trade_no;
    await ctx.app.services.sandbox.complete(payoutNo, 'success');
  });

  const detailUrl = (kind: 'collections' | 'payouts') =>
    `/api/merchant/${kind}/${kind === 'collections' ? collectionNo : payoutNo}`;

  it.each(['VIEWER', 'FINANCE'] as const)(
    '%s is refused with 403 and no callback is queued again',
    async (role) => {
      const client = await loginAs(ctx.app, m.users[role].email, TEST_PASSWORD);
      const root = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
      for (const kind of ['collections', 'payouts'] as const) {
        const before = (await root.get(detailUrl(kind))).json().data.callbacks;
        expect(before).toHaveLength(1);
        const response = await client.post(`${detailUrl(kind)}/notify`);
        expect(response.statusCode, `${kind}: ${response.body}`).toBe(403);
        expect(response.json().message).toMatch(/permission/i);
        expect((await root.get(detailUrl(kind))).json().data.callbacks).toEqual(before);
      }
    },
  );

  it.each(['OPERATOR', 'ROOT'] as const)('%s sends the latest callback again', async (role) => {
    const client = await loginAs(ctx.app, m.users[role].email, TEST_PASSWORD);
    for (const kind of ['collections', 'payouts'] as const) {
      const response = await client.post(`${detailUrl(kind)}/notify`);
      expect(response.statusCode, `${kind}: ${response.body}`).toBe(200);
      expect(response.json().data).toMatchObject({ status: 'pending' });
    }
  });

  it('the current user carries the permissions the console shows the button by', async () => {
    for (const [role, shown] of [
      ['ROOT', true],
      ['OPERATOR', true],
      ['FINANCE', false],
      ['VIEWER', false],
    ] as const) {
      const client = await loginAs(ctx.app, m.users[role].email, TEST_PASSWORD);
      const { perms } = (await client.get('/api/merchant/user')).json().data as { perms: string[] };
      expect(perms.includes('collection:notify'), role).toBe(shown);
      expect(perms.includes('payout:notify'), role).toBe(shown);
    }
  });
});
