import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import {
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
  openPayoutChannel,
  payOnSandboxPage,
} from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { createTestApp, createTestDatabase, type TestContext } from '../helpers/test-app.ts';

// Every attempt of an order on a channel is a row (DESIGN 13): written with the order, by its own
// statement on every way an order is written (the gateway's long way and its one-statement way on a
// remembered channel, the console's payout), updated when the sandbox reports, and shown in the
// console's detail; another merchant's order is still 404.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

type AttemptRow = {
  order_kind: string;
  provider: string;
  channel_ref: string | null;
  outcome: string;
  request_summary: Record<string, string>;
};
const attemptsOf = (kind: 'collection' | 'payout', tradeNo: string) =>
  queryRows<AttemptRow>(
    ctx.database.db,
    sql`select a.order_kind, a.provider, a.channel_ref, a.outcome, a.request_summary
          from channel_attempts a
          join ${sql.raw(kind === 'collection' ? 'collections' : 'payouts')} o on o.id = a.order_id
         where a.order_kind = ${kind} and o.trade_no = ${tradeNo}
         order by a.id`,
  );

async function funded(m: GatewayMerchant) {
  await fundMerchant(ctx.database.db, m.merchant.id, 100_000n);
}

/** The console's test mode, where the sandbox's orders are. */
const TEST_MODE = { 'x-mode': 'test' };

describe('channel attempts', () => {
  it("a collection's attempt is written with it and ends with the sandbox's reference", async () => {
    // The sandbox serves test mode only (DESIGN 12): a test key's order is paid on its page.
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      roles: ['ROOT'],
      mode: 'test',
    });
    const create = (outTradeNo: string) =>
      gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
        body: { out_trade_no: outTradeNo, amount: '100.00' },
      });
    // The first reads the channel (the long way); the second is the one statement on the remembered one.
    const first = (await create('ATT-1')).json().data;
    const second = (await create('ATT-2')).json().data;
    for (const order of [first, second]) {
      expect(await attemptsOf('collection', order.trade_no)).toEqual([
        {
          order_kind: 'collection',
          provider: 'sandbox',
          channel_ref: null,
          outcome: 'pending',
          request_summary: { amount_minor: '10000', currency: 'CNY' },
        },
      ]);
    }
    // A repeated out_trade_no writes no order and no attempt.
    expect((await create('ATT-1')).statusCode).toBe(409);
    expect(await attemptsOf('collection', first.trade_no)).toHaveLength(1);

    const paid = await payOnSandboxPage(ctx.app, first.pay_url);
    expect(paid.statusCode).toBe(303);
    const root = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    const detail = (await root.get(`/api/merchant/collections/${first.trade_no}`, TEST_MODE)).json().data;
    expect(detail.channel_ref).toMatch(/^SBX\d{16}$/);
    expect(detail.attempts).toEqual([
      {
        channel: 'sandbox',
        provider_ref: detail.channel_ref,
        outcome: 'succeeded',
        created_at: detail.created_at,
        updated_at: detail.paid_at,
      },
    ]);

    // An unpaid order's attempt expires with it.
    await ctx.app.services.collections.finish(second.trade_no, 'failed');
    expect((await attemptsOf('collection', second.trade_no))[0].outcome).toBe('failed');

    // Another merchant's order: 404, its attempts with it.
    const other = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { roles: ['ROOT'] });
    const stranger = await loginAs(ctx.app, other.users.ROOT.email, TEST_PASSWORD);
    expect((await stranger.get(`/api/merchant/collections/${first.trade_no}`)).statusCode).toBe(404);
  });

  it("a payout's attempt follows the sandbox: pending, processing with its reference, then its end", async () => {
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { roles: ['ROOT'] });
    await openPayoutChannel(ctx.database.db, m.merchant.id);
    await funded(m);
    const send = (outTradeNo: string, accountNo: string) =>
      gatewayCall(ctx.app, m, 'POST', '/gateway/v1/payouts', {
        body: {
          out_trade_no: outTradeNo,
          amount: '100.00',
          account_type: 'individual',
          bank_code: 'ICBC',
          bank_name: '中国工商银行',
          payee_name: '张三',
          account_no: accountNo,
        },
      });
    // The long way first, then the one statement with the hold, on the remembered channel.
    const good = (await send('PATT-1', '6222020200112233445')).json().data;
    const bad = (await send('PATT-2', '6222020200112230000')).json().data;
    for (const [payout, last4] of [
      [good, '3445'],
      [bad, '0000'],
    ]) {
      expect(await attemptsOf('payout', payout.trade_no)).toEqual([
        {
          order_kind: 'payout',
          provider: 'sandbox',
          channel_ref: null,
          outcome: 'pending',
          request_summary: { amount_minor: '10000', currency: 'CNY', account: `*${last4}` },
        },
      ]);
    }
    const step = (tradeNo: string) =>
      ctx.app.services.channelJobs.run('sandbox.complete', { trade_no: tradeNo });
    await step(good.trade_no);
    const [processing] = await attemptsOf('payout', good.trade_no);
    expect(processing).toMatchObject({
      outcome: 'processing',
      channel_ref: expect.stringMatching(/^SBX\d{16}$/),
    });
    await step(good.trade_no);
    await step(bad.trade_no);
    await step(bad.trade_no);

    const root = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    const detail = (await root.get(`/api/merchant/payouts/${good.trade_no}`)).json().data;
    expect(detail.status).toBe('success');
    expect(detail.attempts).toEqual([
      {
        channel: 'sandbox-pay',
        provider_ref: processing.channel_ref,
        outcome: 'succeeded',
        created_at: detail.created_at,
        updated_at: detail.finished_at,
      },
    ]);
    const failed = (await root.get(`/api/merchant/payouts/${bad.trade_no}`)).json().data;
    expect(failed).toMatchObject({ status: 'failed', attempts: [{ outcome: 'failed' }] });
    // A refund the bank sends back later: the attempt says the money came back.
    await ctx.app.services.payouts.transition(good.trade_no, 'refund_received', 'Returned by the bank');
    expect((await attemptsOf('payout', good.trade_no))[0].outcome).toBe('returned');
  });
});

describe('the channel_attempts migration on a populated database', () => {
  const MIGRATIONS = path.resolve(import.meta.dirname, '../../src/db/migrations');
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const upTo = (folder: string, count: number) => {
    mkdirSync(path.join(folder, 'meta'), { recursive: true });
    for (const entry of journal.entries.slice(0, count))
      cpSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    writeFileSync(
      path.join(folder, 'meta/_journal.json'),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, count) }),
    );
  };

  it('gives every existing order one attempt from its channel and status, and every collection its pay_url', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'paydesk-attempts-'));
    const before = journal.entries.findIndex((e) => e.tag.endsWith('_channel_attempts'));
    upTo(folder, before);
    const database = await createTestDatabase({ migrationsFolder: folder });
    try {
      const db = database.db;
      const [{ id }] = await queryRows<{ id: string }>(
        db,
        sql`insert into merchants (no, name, currency) values ('MOLD9', 'Old', 'CNY') returning id`,
      );
      const [{ id: channelId }] = await queryRows<{ id: string }>(
        db,
        sql`insert into channels (merchant_id, code, kind, country, currency, fee_rate_ppm, min_amount_minor,
                                  max_amount_minor, settlement_cycle, opened_by)
            values (${id}, 'sandbox', 'collection', 'CN', 'CNY', 15000, 100, 5000000, 'T1', 'test') returning id`,
      );
      const [{ id: payoutChannelId }] = await queryRows<{ id: string }>(
        db,
        sql`insert into channels (merchant_id, code, kind, country, currency, fee_rate_ppm, min_amount_minor,
                                  max_amount_minor, opened_by)
            values (${id}, 'sandbox-pay', 'payout', 'CN', 'CNY', 10000, 100, 5000000, 'test') returning id`,
      );
      const collectionStatuses = ['to_be_paid', 'paid', 'failed', 'closed'];
      const payoutStatuses = [
        'pending',
        'processing',
        'success',
        'failed',
        'cancelled',
        'rejected',
        'refund_received',
      ];
      for (const [i, status] of collectionStatuses.entries()) {
        await db.execute(sql`
          insert into collections (merchant_id, channel_id, channel_code, trade_no, out_trade_no, amount_minor,
                                   fee_minor, currency, expires_at, status, channel_ref, created_at)
          values (${id}, ${channelId}, 'sandbox', ${`C0000${i}`}, ${`OLD-C${i}`}, 1000, 15, 'CNY',
                  now() + interval '1 hour', ${status}, ${status === 'paid' ? 'SBX1' : null}, now())`);
      }
      for (const [i, status] of payoutStatuses.entries()) {
        await db.execute(sql`
          insert into payouts (merchant_id, channel_id, channel_code, trade_no, out_trade_no, source, amount_minor,
                               fee_minor, currency, account_type, payee_name, account_no, status, created_at)
          values (${id}, ${payoutChannelId}, 'sandbox-pay', ${`P0000${i}`}, ${`OLD-P${i}`}, 'gateway', 2000, 70,
                  'CNY', 'individual', 'Payee', '6222020200112233', ${status}, now())`);
      }
      upTo(folder, journal.entries.length);
      await database.migrate();

      const rows = await queryRows<{
        trade_no: string;
        outcome: string;
        channel_ref: string | null;
        pay_url: string | null;
      }>(
        db,
        sql`select o.trade_no, a.outcome, a.channel_ref, o.pay_url
              from channel_attempts a join collections o on a.order_kind = 'collection' and o.id = a.order_id
            union all
            select o.trade_no, a.outcome, a.channel_ref, null
              from channel_attempts a join payouts o on a.order_kind = 'payout' and o.id = a.order_id
            order by 1`,
      );
      expect(rows).toEqual([
        { trade_no: 'C00000', outcome: 'pending', channel_ref: null, pay_url: '/sandbox/pay/C00000' },
        { trade_no: 'C00001', outcome: 'succeeded', channel_ref: 'SBX1', pay_url: '/sandbox/pay/C00001' },
        { trade_no: 'C00002', outcome: 'failed', channel_ref: null, pay_url: '/sandbox/pay/C00002' },
        { trade_no: 'C00003', outcome: 'expired', channel_ref: null, pay_url: '/sandbox/pay/C00003' },
        ...['pending', 'processing', 'succeeded', 'failed', 'cancelled', 'cancelled', 'returned'].map(
          (outcome, i) => ({
            trade_no: `P0000${i}`,
            outcome,
            channel_ref: null,
            pay_url: null,
          }),
        ),
      ]);
    } finally {
      await database.drop();
    }
  });
});
