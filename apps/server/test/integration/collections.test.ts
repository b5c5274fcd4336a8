import { Webhook } from 'standardwebhooks';
import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { channels } from '../../src/db/schema/index.ts';
import { channelsRepository } from '../../src/modules/channels/channels.repository.ts';
import { collectionsRepository } from '../../src/modules/collections/collections.repository.ts';
import {
  createGatewayMerchant,
  freshNonce,
  gatewayCall,
  type GatewayMerchant,
  payOnSandboxPage,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Receive money end to end through the signed gateway, the sandbox page, callbacks and settlement, with
// an injected clock (no waiting): DESIGN sections 3, 4 and 6.

let ctx: TestContext;
// Starts at the real time: standardwebhooks checks a callback's timestamp against the real clock (5 min).
let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

let receiver: Receiver;
let answers: number[] = [];

beforeAll(async () => {
  ctx = await createTestApp({}, { now });
  receiver = await startReceiver('/hooks', () => answers.shift() ?? 200);
});

afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

const merchantFor = (options: Parameters<typeof createGatewayMerchant>[2] = {}) =>
  createGatewayMerchant(ctx.database.db, ctx.config.appKey, options);

const create = (
  m: GatewayMerchant,
  body: Record<string, unknown>,
  options: Parameters<typeof gatewayCall>[4] = {},
) => gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', { body, now, ...options });

describe('creating a collection through the gateway', () => {
  it('answers 201 with the order, its frozen fee, its pay_url and its expiry after 30 minutes', async () => {
    const m = await merchantFor();
    const response = await create(m, { out_trade_no: 'ORDER-1', amount: '100.00', payer_name: 'Li Lei' });
    expect(response.statusCode, response.body).toBe(201);
    const { data } = response.json();
    expect(data).toMatchObject({
      out_trade_no: 'ORDER-1',
      status: 'to_be_paid',
      amount: '100.00',
      fee: '1.50',
      currency: 'CNY',
      channel: 'sandbox',
      settlement_status: 'unsettled',
      paid_at: null,
    });
    expect(data.trade_no).toMatch(/^C\d{23}$/);
    expect(data.pay_url).toBe(`http://localhost:80/sandbox/pay/${data.trade_no}`);
    expect(Date.parse(data.expires_at) - Date.parse(data.created_at)).toBe(30 * 60 * 1000);
  });

  it('rounds the fee half up and adds the fixed fee', async () => {
    const m = await merchantFor({ channel: { feeRatePpm: 12_345, fixedFeeMinor: 30n } });
    // 33.33 x 1.2345% = 0.41146... -> 0.41, + 0.30
    const response = await create(m, { out_trade_no: 'FEE-1', amount: '33.33' });
    expect(response.json().data.fee).toBe('0.71');
  });

  it('refuses a repeated out_trade_no with 409 and the existing trade_no', async () => {
    const m = await merchantFor();
    const first = (await create(m, { out_trade_no: 'DUP-1', amount: '10.00' })).json().data;
    const again = await create(m, { out_trade_no: 'DUP-1', amount: '20.00' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'out_trade_no_taken', trade_no: first.trade_no });
  });

  it('answers 422 channel_unavailable without an open channel, and 422 outside its limits', async () => {
    const none = await merchantFor({ channel: false });
    const refused = await create(none, { out_trade_no: 'NC-1', amount: '10.00' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('channel_unavailable');

    const m = await merchantFor();
    const tooBig = await create(m, { out_trade_no: 'BIG-1', amount: '50000.01' });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json()).toMatchObject({
      code: 'amount_out_of_range',
      errors: { amount: [expect.stringContaining('50000.00')] },
    });
    const decimals = await create(m, { out_trade_no: 'DEC-1', amount: '10.001' });
    expect(decimals.statusCode).toBe(422);
    expect(decimals.json().errors.amount).toBeDefined();
  });

  it("takes a channel's current terms on the very next order, whatever this process saw before", async () => {
    const m = await merchantFor();
    const channelId = m.channel!.id;
    const change = (set: SQL) =>
      ctx.database.db.execute(sql`update channels set ${set}, updated_at = now() where id = ${channelId}`);
    const order = async (outTradeNo: string, amount: string, channel?: string) =>
      create(m, { out_trade_no: outTradeNo, amount, ...(channel ? { channel } : {}) });
    expect((await order('TERMS-1', '100.00')).json().data.fee).toBe('1.50');
    const second = (await order('TERMS-2', '100.00', 'sandbox')).json().data;
    // Made on the remembered channel in one statement: the same order as the first.
    expect(second).toMatchObject({
      fee: '1.50',
      amount: '100.00',
      status: 'to_be_paid',
      out_trade_no: 'TERMS-2',
      created_at: clock.toISOString(),
      expires_at: new Date(clock.getTime() + 30 * 60 * 1000).toISOString(),
    });

    // Changed by another process (an operator): the fee, then the limits.
    await change(sql`fee_rate_ppm = 20000`);
    expect((await order('TERMS-3', '100.00')).json().data.fee).toBe('2.00');
    expect((await order('TERMS-4', '100.00', 'sandbox')).json().data.fee).toBe('2.00');
    await change(sql`max_amount_minor = 5000`);
    const over = await order('TERMS-5', '100.00');
    expect(over.statusCode).toBe(422);
    expect(over.json().code).toBe('amount_out_of_range');
    await change(sql`max_amount_minor = 5000000`);
    expect((await order('TERMS-6', '100.00')).statusCode).toBe(201);

    // A second channel, then the first closed: unnamed calls move to the second, named ones are refused.
    await ctx.database.db.insert(channels).values({
      merchantId: m.merchant.id,
      code: 'bank-b',
      kind: 'collection',
      country: 'CN',
      currency: m.merchant.currency,
      feeRatePpm: 10_000,
      minAmountMinor: 100n,
      maxAmountMinor: 5_000_000n,
      settlementCycle: 'T1',
      // Below the first, as ops channel:open puts a channel opened without a priority (routing).
      priority: -1,
      openedBy: 'test',
    });
    expect((await order('TERMS-7', '100.00')).json().data).toMatchObject({ channel: 'sandbox', fee: '2.00' });
    await change(sql`status = 'closed'`);
    expect((await order('TERMS-8', '100.00')).json().data).toMatchObject({ channel: 'bank-b', fee: '1.00' });
    const closed = await order('TERMS-9', '100.00', 'sandbox');
    expect(closed.statusCode).toBe(422);
    expect(closed.json().code).toBe('channel_unavailable');
    // Opened again: the unnamed calls go back to the first opened.
    await change(sql`status = 'open'`);
    expect((await order('TERMS-10', '100.00')).json().data).toMatchObject({
      channel: 'sandbox',
      fee: '2.00',
    });
    // A number already used is refused the same on a remembered channel.
    const taken = await order('TERMS-10', '100.00');
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('out_trade_no_taken');
  });

  it('makes an order on a channel as a process remembers it in one statement, and none once the channel changed', async () => {
    // The channel as the service reads and remembers it: its updated_at comes back to the millisecond,
    // while PostgreSQL keeps microseconds; the remembered reading must still match the row.
    const m = await merchantFor();
    const { db } = ctx.database;
    const seen = (await channelsRepository.findOpen(db, m.merchant.id, 'collection', undefined))!;
    const values = (outTradeNo: string) => ({
      merchantId: m.merchant.id,
      channelId: seen.id,
      channelCode: seen.code,
      tradeNo: `CMEM${outTradeNo}`,
      outTradeNo,
      amountMinor: 10_000n,
      feeMinor: 150n,
      currency: m.merchant.currency,
      expiresAt: new Date(clock.getTime() + 30 * 60 * 1000),
      createdAt: clock,
    });
    const made = await collectionsRepository.insertOnChannel(db, values('MEM-1'), seen, true);
    expect(made).toMatchObject({ outTradeNo: 'MEM-1', channelId: seen.id, amountMinor: 10_000n });

    await db.execute(sql`update channels set updated_at = now() + interval '1 second' where id = ${seen.id}`);
    expect(await collectionsRepository.insertOnChannel(db, values('MEM-2'), seen, true)).toBeUndefined();
    const stored = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from collections where out_trade_no = 'MEM-2'`,
    );
    expect(Number(stored[0].n)).toBe(0);
  });

  it('reads an order by trade_no and by out_trade_no; another merchant gets 404 on the gateway and the console', async () => {
    const m = await merchantFor();
    const other = await merchantFor();
    const order = (await create(m, { out_trade_no: 'MINE-1', amount: '12.00' })).json().data;

    const byNo = await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/collections/${order.trade_no}`, { now });
    expect(byNo.json().data.trade_no).toBe(order.trade_no);
    const byOut = await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/collections?out_trade_no=MINE-1', {
      now,
    });
    expect(byOut.json().data.trade_no).toBe(order.trade_no);

    const theirs = await gatewayCall(ctx.app, other, 'GET', `/gateway/v1/collections/${order.trade_no}`, {
      now,
    });
    expect(theirs.statusCode).toBe(404);
    const theirsByOut = await gatewayCall(
      ctx.app,
      other,
      'GET',
      '/gateway/v1/collections?out_trade_no=MINE-1',
      { now },
    );
    expect(theirsByOut.statusCode).toBe(404);
    const console = await loginAs(ctx.app, other.users.ROOT.email, TEST_PASSWORD);
    expect((await console.get(`/api/merchant/collections/${order.trade_no}`)).statusCode).toBe(404);
  });
});

describe('the signed call', () => {
  it('refuses each kind of failure with its status and code, never naming a secret part', async () => {
    const m = await merchantFor();
    const path = '/gateway/v1/balance';
    const cases: [string, Parameters<typeof gatewayCall>[4], number, string][] = [
      ['unknown key', { headers: { 'x-access-key': 'ak_nope' } }, 401, 'unknown_key'],
      ['key of another merchant number', { headers: { 'x-merchant-no': 'M999999' } }, 401, 'unknown_key'],
      ['no key', { headers: { 'x-access-key': undefined } }, 401, 'signature_header_invalid'],
      ['wrong signature', { headers: { 'x-signature': 'f'.repeat(64) } }, 401, 'signature_invalid'],
      ['no signature', { headers: { 'x-signature': undefined } }, 401, 'signature_header_invalid'],
      ['signature not hex', { headers: { 'x-signature': 'z'.repeat(64) } }, 401, 'signature_header_invalid'],
      ['short nonce', { nonce: 'short' }, 401, 'signature_header_invalid'],
      [
        'timestamp 301 s behind',
        { timestamp: Math.floor(clock.getTime() / 1000) - 301 },
        401,
        'timestamp_out_of_window',
      ],
      [
        'timestamp 301 s ahead',
        { timestamp: Math.floor(clock.getTime() / 1000) + 301 },
        401,
        'timestamp_out_of_window',
      ],
      [
        'timestamp not a number',
        { headers: { 'x-timestamp': 'yesterday' } },
        401,
        'signature_header_invalid',
      ],
      ['IP not whitelisted', { ip: '203.0.113.9' }, 403, 'ip_not_allowed'],
    ];
    for (const [name, options, status, code] of cases) {
      const response = await gatewayCall(ctx.app, m, 'GET', path, { now, ...options });
      expect({ name, status: response.statusCode, code: response.json().code }).toEqual({
        name,
        status,
        code,
      });
      expect(response.json().message).not.toMatch(new RegExp(m.secret));
    }
  });

  it('takes a timestamp 299 s away either side', async () => {
    const m = await merchantFor();
    for (const skew of [-299, 299]) {
      const response = await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', {
        now,
        timestamp: Math.floor(clock.getTime() / 1000) + skew,
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it('signs the path with its query and the exact body bytes: a changed byte is refused', async () => {
    const m = await merchantFor();
    const signed = await create(m, { out_trade_no: 'BYTES-1', amount: '10.00' });
    expect(signed.statusCode).toBe(201);
    const tampered = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
      now,
      body: { out_trade_no: 'BYTES-2', amount: '10.00' },
      headers: { 'x-signature': undefined },
    });
    expect(tampered.statusCode).toBe(401);
  });

  it('refuses a disabled merchant (403) and an empty whitelist refuses every call', async () => {
    const disabled = await merchantFor();
    const { merchants } = await import('../../src/db/schema/index.ts');
    const { eq } = await import('drizzle-orm');
    await ctx.database.db
      .update(merchants)
      .set({ status: 'disabled' })
      .where(eq(merchants.id, disabled.merchant.id));
    const refused = await gatewayCall(ctx.app, disabled, 'GET', '/gateway/v1/balance', { now });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('merchant_disabled');

    const empty = await merchantFor({ whitelist: [] });
    const none = await gatewayCall(ctx.app, empty, 'GET', '/gateway/v1/balance', { now });
    expect(none.statusCode).toBe(403);
    expect(none.json().code).toBe('ip_not_allowed');
  });

  it('a change made elsewhere (another process, the operator) decides the very next call of a known key', async () => {
    const m = await merchantFor();
    const { accessKeys, merchants } = await import('../../src/db/schema/index.ts');
    const { encrypt } = await import('../../src/lib/crypto.ts');
    const { eq } = await import('drizzle-orm');
    const { db } = ctx.database;
    const balance = (signer = m, nonce?: string) =>
      gatewayCall(ctx.app, signer, 'GET', '/gateway/v1/balance', { now, nonce });
    const setMerchant = (values: Partial<typeof merchants.$inferInsert>) =>
      db.update(merchants).set(values).where(eq(merchants.id, m.merchant.id));

    const nonce = freshNonce();
    expect((await balance(m, nonce)).statusCode).toBe(200); // the key is known to this process now
    expect((await balance(m, nonce)).json().code).toBe('nonce_reused');

    await setMerchant({ status: 'disabled' });
    expect((await balance()).json().code).toBe('merchant_disabled');
    await setMerchant({ status: 'active' });
    expect((await balance()).statusCode).toBe(200);

    await setMerchant({ ipWhitelist: ['10.0.0.1'] });
    expect((await balance()).json().code).toBe('ip_not_allowed');
    await setMerchant({ ipWhitelist: ['127.0.0.1'] });
    expect((await balance()).statusCode).toBe(200);

    const secret = 'a-new-secret-set-by-another-process';
    await db
      .update(accessKeys)
      .set({ secretEncrypted: encrypt(ctx.config.appKey, secret) })
      .where(eq(accessKeys.merchantId, m.merchant.id));
    const old = await balance();
    expect([old.statusCode, old.json().code]).toEqual([401, 'signature_invalid']);
    expect((await balance({ ...m, secret })).statusCode).toBe(200);
  });

  it('matches IPv6 addresses and CIDR blocks of the whitelist', async () => {
    const m = await merchantFor({ whitelist: ['2001:db8::/32', '198.51.100.0/24'] });
    const call = (ip: string) => gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', { now, ip });
    expect((await call('2001:db8:1::5')).statusCode).toBe(200);
    expect((await call('198.51.100.255')).statusCode).toBe(200);
    expect((await call('::ffff:198.51.100.7')).statusCode).toBe(200);
    expect((await call('2001:db9::1')).statusCode).toBe(403);
    expect((await call('198.51.101.0')).statusCode).toBe(403);
  });

  it('lets one of 20 concurrent calls with the same nonce through', async () => {
    const m = await merchantFor();
    const nonce = freshNonce();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', { now, nonce })),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 401).map((r) => r.json().code)).toEqual(
      Array(19).fill('nonce_reused'),
    );
  });

  describe("a collection's nonce claimed by the order's own insert", () => {
    // Once this process remembers the key and the channel, POST /gateway/v1/collections claims the nonce
    // in the statement that inserts the order: replays, stale keys and refusals must read as before.
    const ordersOf = async (m: GatewayMerchant, outTradeNo: string) => {
      const rows = await queryRows<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from collections where merchant_id = ${m.merchant.id} and out_trade_no = ${outTradeNo}`,
      );
      return Number(rows[0].n);
    };
    const warmedUp = async () => {
      const m = await merchantFor();
      expect((await create(m, { out_trade_no: 'WARM-1', amount: '10.00' })).statusCode).toBe(201);
      expect((await create(m, { out_trade_no: 'WARM-2', amount: '10.00' })).statusCode).toBe(201);
      return m;
    };

    it('refuses a second order with the same nonce and stores one order', async () => {
      const m = await warmedUp();
      const nonce = freshNonce();
      expect((await create(m, { out_trade_no: 'N-1', amount: '10.00' }, { nonce })).statusCode).toBe(201);
      const replay = await create(m, { out_trade_no: 'N-2', amount: '10.00' }, { nonce });
      expect([replay.statusCode, replay.json().code]).toEqual([401, 'nonce_reused']);
      expect(await ordersOf(m, 'N-2')).toBe(0);
    });

    it('lets one of 20 concurrent orders with the same nonce through', async () => {
      const m = await warmedUp();
      const nonce = freshNonce();
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          create(m, { out_trade_no: `NC-${i}`, amount: '10.00' }, { nonce }),
        ),
      );
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
      expect(responses.filter((r) => r.statusCode === 401).map((r) => r.json().code)).toEqual(
        Array(19).fill('nonce_reused'),
      );
      const stored = await queryRows<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from collections where merchant_id = ${m.merchant.id} and out_trade_no like 'NC-%'`,
      );
      expect(Number(stored[0].n)).toBe(1);
    });

    it('writes orders that arrive together in one statement and commit, each answering as its own call would', async () => {
      // Group commit: while one statement runs, the calls that arrive are written together by the next.
      const [a, b, closed] = [await warmedUp(), await warmedUp(), await warmedUp()];
      const { db } = ctx.database;
      // Closed behind this process's memory: its calls find the channel changed and answer as it is now.
      await db.update(channels).set({ status: 'closed' }).where(eq(channels.merchantId, closed.merchant.id));
      const replayed = freshNonce();
      expect(
        (await create(a, { out_trade_no: 'G-FIRST', amount: '10.00' }, { nonce: replayed })).statusCode,
      ).toBe(201);

      const calls = [
        ...Array.from({ length: 12 }, (_, i) => create(a, { out_trade_no: `G-A${i}`, amount: '10.00' })),
        ...Array.from({ length: 12 }, (_, i) => create(b, { out_trade_no: `G-B${i}`, amount: '12.34' })),
        create(a, { out_trade_no: 'G-DUP', amount: '10.00' }),
        create(a, { out_trade_no: 'G-DUP', amount: '11.00' }),
        create(a, { out_trade_no: 'G-REPLAY', amount: '10.00' }, { nonce: replayed }),
        create(closed, { out_trade_no: 'G-CLOSED', amount: '10.00' }),
      ];
      const responses = await Promise.all(calls);
      const answers = responses.map((r) => [r.statusCode, r.json().code ?? null]);
      expect(answers.slice(0, 24)).toEqual(Array(24).fill([201, null]));
      expect(answers.slice(24, 26).sort()).toEqual([
        [201, null],
        [409, 'out_trade_no_taken'],
      ]);
      expect(answers.slice(26)).toEqual([
        [401, 'nonce_reused'],
        [422, 'channel_unavailable'],
      ]);

      const [stored] = await queryRows<{ orders: number; commits: number; b_amounts: string }>(
        db,
        sql`select count(*)::int as orders, count(distinct xmin::text)::int as commits,
                   string_agg(distinct amount_minor::text, ',') filter (where merchant_id = ${b.merchant.id}) as b_amounts
              from collections where out_trade_no like 'G-%' and out_trade_no <> 'G-FIRST'`,
      );
      expect([stored.orders, stored.b_amounts]).toEqual([25, '1234']);
      // Fewer commits than orders: some were written together.
      expect(stored.commits).toBeLessThan(stored.orders);
      expect(await ordersOf(a, 'G-REPLAY')).toBe(0);
      expect(await ordersOf(closed, 'G-CLOSED')).toBe(0);
      const [made, taken] = responses.slice(24, 26).sort((x, y) => x.statusCode - y.statusCode);
      expect(taken.json().trade_no).toBe(made.json().data.trade_no);
    });

    it('reads a key changed elsewhere before writing: a disabled merchant or an old secret writes nothing and keeps the nonce', async () => {
      const m = await warmedUp();
      const { accessKeys, merchants } = await import('../../src/db/schema/index.ts');
      const { encrypt } = await import('../../src/lib/crypto.ts');
      const { eq } = await import('drizzle-orm');
      const { db } = ctx.database;
      const nonce = freshNonce();

      await db.update(merchants).set({ status: 'disabled' }).where(eq(merchants.id, m.merchant.id));
      const disabled = await create(m, { out_trade_no: 'K-1', amount: '10.00' }, { nonce });
      expect([disabled.statusCode, disabled.json().code]).toEqual([403, 'merchant_disabled']);
      await db.update(merchants).set({ status: 'active' }).where(eq(merchants.id, m.merchant.id));
      // The refusal did not burn the nonce: the same call now goes through.
      expect((await create(m, { out_trade_no: 'K-1', amount: '10.00' }, { nonce })).statusCode).toBe(201);

      const secret = 'another-secret-set-elsewhere';
      await db
        .update(accessKeys)
        .set({ secretEncrypted: encrypt(ctx.config.appKey, secret) })
        .where(eq(accessKeys.merchantId, m.merchant.id));
      const old = await create(m, { out_trade_no: 'K-2', amount: '10.00' });
      expect([old.statusCode, old.json().code]).toEqual([401, 'signature_invalid']);
      expect(await ordersOf(m, 'K-2')).toBe(0);
      expect((await create({ ...m, secret }, { out_trade_no: 'K-2', amount: '10.00' })).statusCode).toBe(201);
    });

    it('burns the nonce of a call refused after the signature check (a taken out_trade_no, an amount out of range)', async () => {
      const m = await warmedUp();
      const taken = freshNonce();
      const again = await create(m, { out_trade_no: 'WARM-1', amount: '10.00' }, { nonce: taken });
      expect([again.statusCode, again.json().code]).toEqual([409, 'out_trade_no_taken']);
      const reused = await create(m, { out_trade_no: 'T-1', amount: '10.00' }, { nonce: taken });
      expect(reused.json().code).toBe('nonce_reused');

      const tooBig = freshNonce();
      const over = await create(m, { out_trade_no: 'T-2', amount: '50000.01' }, { nonce: tooBig });
      expect([over.statusCode, over.json().code]).toEqual([422, 'amount_out_of_range']);
      expect((await create(m, { out_trade_no: 'T-2', amount: '10.00' }, { nonce: tooBig })).json().code).toBe(
        'nonce_reused',
      );
      expect(await ordersOf(m, 'T-1')).toBe(0);
      expect(await ordersOf(m, 'T-2')).toBe(0);
    });
  });

  it('answers the balance of the signing merchant', async () => {
    const m = await merchantFor();
    const response = await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', { now });
    expect(response.json()).toEqual({
      data: { available: '0.00', locked: '0.00', total: '0.00', currency: 'CNY' },
    });
  });
});

describe('paying, expiring, calling back and settling', () => {
  it('pays an order on the sandbox page, sends the signed callback, and settles it once', async () => {
    const m = await merchantFor({ notifyUrl: receiver.url, mode: 'test' });
    const order = (await create(m, { out_trade_no: 'PAY-1', amount: '200.00' })).json().data;

    const page = await ctx.app.inject({
      method: 'GET',
      url: order.pay_url,
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('200.00');
    const paid = await payOnSandboxPage(ctx.app, order.pay_url);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(new URL(order.pay_url).pathname);

    // A second Pay changes nothing.
    const again = await payOnSandboxPage(ctx.app, order.pay_url, 'failed');
    expect(again.statusCode).toBe(303);
    const read = await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/collections/${order.trade_no}`, { now });
    // A test key's order is test mode's (DESIGN 12).
    expect(read.json().data).toMatchObject({ status: 'paid', paid_at: clock.toISOString(), livemode: false });

    // The callback: 500 twice, then 200; one event id; three attempts logged; verified by standardwebhooks.
    answers = [500, 500, 200];
    receiver.received.length = 0;
    const console = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    console.mode = 'test';
    const eventId = (await console.get(`/api/merchant/collections/${order.trade_no}`)).json().data
      .callbacks[0].id;
    const first = await ctx.app.services.callbacks.attempt(eventId);
    expect(first).toMatchObject({ attempt: 1, ok: false, statusCode: 500 });
    // Not due yet: the job runs at next_attempt_at (15 s +- 10%); the clock moves on instead of waiting.
    advance(20_000);
    const second = await ctx.app.services.callbacks.attempt(eventId);
    expect(second).toMatchObject({ attempt: 2, ok: false });
    // The third is due 1 min after the first (DESIGN 6): 45 s after the second, +- 10%.
    const secondDelay = second!.nextAttemptAt!.getTime() - clock.getTime();
    expect(secondDelay).toBeGreaterThanOrEqual(40_500);
    expect(secondDelay).toBeLessThanOrEqual(49_500);
    advance(70_000);
    const third = await ctx.app.services.callbacks.attempt(eventId);
    expect(third).toMatchObject({ attempt: 3, ok: true, statusCode: 200, nextAttemptAt: null });
    expect(await ctx.app.services.callbacks.attempt(eventId)).toBeNull();

    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
    const webhook = new Webhook(m.webhookSecret);
    for (const r of receiver.received) {
      const payload = webhook.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      }) as { id: string; type: string; data: { trade_no: string; status: string } };
      // Signed with the test key's webhook secret, and says it is test mode's.
      expect(payload).toMatchObject({
        id: eventId,
        type: 'collection.paid',
        data: { trade_no: order.trade_no, status: 'paid', livemode: false },
      });
    }
    const detail = (await console.get(`/api/merchant/collections/${order.trade_no}`)).json().data;
    expect(detail.callbacks[0]).toMatchObject({ id: eventId, status: 'delivered' });
    expect(detail.callbacks[0].attempts.map((a: { status_code: number }) => a.status_code)).toEqual([
      500, 500, 200,
    ]);
    expect(detail.timeline.map((t: { step: string }) => t.step)).toEqual(['created', 'paid', 'notified']);
    // The channel's own number for the order (the spec's outNo), given when it reported the payment.
    expect(detail.channel_ref).toMatch(/^SBX\d{16}$/);

    // Resend from the console: the same event goes out again as attempt 4.
    const resent = await console.post(`/api/merchant/collections/${order.trade_no}/notify`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data).toMatchObject({ id: eventId, status: 'pending' });
    expect(await ctx.app.services.callbacks.attempt(eventId)).toMatchObject({ attempt: 4, ok: true });

    // T+1: nothing settles the same day; the next day, twice and concurrently, posts once.
    expect(
      (await ctx.app.services.settlements.run()).posted.filter((s) => s.merchantId === m.merchant.id),
    ).toEqual([]);
    advance(24 * 3600 * 1000);
    const runs = await Promise.all([
      ctx.app.services.settlements.run(),
      ctx.app.services.settlements.run(),
      ctx.app.services.settlements.run(),
    ]);
    const mine = runs.flatMap((r) => r.posted).filter((s) => s.merchantId === m.merchant.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ orderCount: 1, grossMinor: 20000n, feeMinor: 300n, netMinor: 19700n });
    await ctx.app.services.settlements.run();
    const balance = await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', { now });
    expect(balance.json().data.available).toBe('197.00');
    const after = (await console.get(`/api/merchant/collections/${order.trade_no}`)).json().data;
    expect(after).toMatchObject({
      settlement_status: 'settled',
      settlement_no: expect.stringMatching(/^S\d+/),
    });
    const settlements = (await console.get('/api/merchant/settlements')).json();
    expect(settlements.data).toHaveLength(1);
    expect(settlements.meta.sums).toEqual({ gross: '200.00', fee: '3.00', net: '197.00', count: 1 });
    const batch = (await console.get(`/api/merchant/settlements/${settlements.data[0].settlement_no}`)).json()
      .data;
    expect(batch.orders.map((o: { trade_no: string }) => o.trade_no)).toEqual([order.trade_no]);
    const flows = (await console.get('/api/merchant/fund-flows')).json().data;
    expect(flows[0]).toMatchObject({
      type: 'collection_settlement',
      amount: '197.00',
      ref_no: settlements.data[0].settlement_no,
    });
  });

  it('the sandbox serves test mode only: the page of a live order is 404, and paying it changes nothing', async () => {
    const m = await merchantFor();
    const order = (await create(m, { out_trade_no: 'LIVE-1', amount: '5.00' })).json().data;
    expect(order.livemode).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: order.pay_url })).statusCode).toBe(404);
    const pay = await payOnSandboxPage(ctx.app, order.pay_url);
    expect(pay.statusCode).toBe(404);
    const read = await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/collections/${order.trade_no}`, { now });
    expect(read.json().data).toMatchObject({ status: 'to_be_paid', livemode: true });
  });

  it('closes an unpaid order at its expiry (not before) and it can no longer be paid', async () => {
    const m = await merchantFor({ notifyUrl: receiver.url, mode: 'test' });
    const order = (await create(m, { out_trade_no: 'EXP-1', amount: '5.00' })).json().data;
    expect(await ctx.app.services.collections.expire(order.trade_no)).toBeNull();
    advance(30 * 60 * 1000);
    const closed = await ctx.app.services.collections.expire(order.trade_no);
    expect(closed?.status).toBe('closed');
    const pay = await payOnSandboxPage(ctx.app, order.pay_url);
    expect(pay.statusCode).toBe(303);
    const read = await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/collections/${order.trade_no}`, { now });
    expect(read.json().data.status).toBe('closed');
    const console = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    console.mode = 'test';
    const detail = (await console.get(`/api/merchant/collections/${order.trade_no}`)).json().data;
    expect(detail.callbacks.map((c: { type: string }) => c.type)).toEqual(['collection.closed']);
  });

  it('the expiry sweep closes every unpaid order past its expiry, in batches, and nothing else', async () => {
    // Other tests' orders of this database out of the way first.
    advance(31 * 60 * 1000);
    await ctx.app.services.collections.expireOverdue();
    const m = await merchantFor({ notifyUrl: receiver.url, mode: 'test' });
    const due = [];
    for (const i of [1, 2, 3])
      due.push((await create(m, { out_trade_no: `SWEEP-${i}`, amount: '5.00' })).json().data);
    const paid = (await create(m, { out_trade_no: 'SWEEP-PAID', amount: '5.00' })).json().data;
    await payOnSandboxPage(ctx.app, paid.pay_url);
    advance(10 * 60 * 1000);
    const notYet = (await create(m, { out_trade_no: 'SWEEP-LATER', amount: '5.00' })).json().data;
    // No job is queued per order: the sweep finds them.
    const [jobs] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from pgboss.job where name = 'collection.expire'`,
    );
    expect(jobs.n).toBe(0);
    advance(21 * 60 * 1000);
    // Two at a time: the sweep goes on until none is left.
    expect(await ctx.app.services.collections.expireOverdue(2)).toBe(3);
    const statusOf = async (tradeNo: string) =>
      (await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/collections/${tradeNo}`, { now })).json().data
        .status;
    for (const order of due) expect(await statusOf(order.trade_no)).toBe('closed');
    expect(await statusOf(paid.trade_no)).toBe('paid');
    expect(await statusOf(notYet.trade_no)).toBe('to_be_paid');
    expect(await ctx.app.services.collections.expireOverdue(2)).toBe(0);
  });

  it("lists the merchant's orders newest first with the sums of the filter", async () => {
    const m = await merchantFor();
    for (const [i, amount] of ['1.00', '2.00', '3.00'].entries()) {
      advance(1000);
      await create(m, { out_trade_no: `LIST-${i}`, amount });
    }
    const console = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    const all = (await console.get('/api/merchant/collections?per_page=2')).json();
    expect(all.data.map((o: { out_trade_no: string }) => o.out_trade_no)).toEqual(['LIST-2', 'LIST-1']);
    // 1.5% of 1.00, 2.00 and 3.00, each rounded half up: 0.02 + 0.03 + 0.05.
    expect(all.meta).toMatchObject({ total: 3, sums: { amount: '6.00', count: 3, fee: '0.10' } });
    const next = (
      await console.get(`/api/merchant/collections?per_page=2&page=2&cursor=${all.meta.next_cursor}`)
    ).json();
    expect(next.data.map((o: { out_trade_no: string }) => o.out_trade_no)).toEqual(['LIST-0']);
    const filtered = (await console.get('/api/merchant/collections?out_trade_no=LIST-1')).json();
    expect(filtered.meta.sums).toEqual({ amount: '2.00', count: 1, fee: '0.03' });
    const bad = await console.get('/api/merchant/collections?status=nope');
    expect(bad.statusCode).toBe(422);
  });

  it("auto mode pays or fails by itself, with the channel's success rate", async () => {
    const m = await merchantFor({ channel: { sandboxMode: 'auto', sandboxSuccessPpm: 1_000_000 } });
    const order = (await create(m, { out_trade_no: 'AUTO-1', amount: '8.00' })).json().data;
    const run = () => ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: order.trade_no });
    await run();
    const done = await ctx.app.services.collections.findAny(order.trade_no);
    expect(done?.status).toBe('paid');
    // A job that runs twice changes nothing the second time.
    await run();
    expect(await ctx.app.services.collections.findAny(order.trade_no)).toEqual(done);
  });
});
