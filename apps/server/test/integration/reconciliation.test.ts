import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '@paydesk/shared/time-zone.ts';
import { type Db, queryRows } from '../../src/db/client.ts';
import { callbackEvents, collections, receivedPayments } from '../../src/db/schema/index.ts';
import { signNotification } from '../../src/modules/channels/adapters/bank_transfer/index.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import {
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
} from '../factories/gateway.ts';
import { balanceRow } from '../helpers/ledger.ts';
import { opsRunner } from '../helpers/ops.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// A bank transfer channel's day reconciled from the command line (DESIGN 13): a statement with every kind of
// difference gives exactly those differences; the same statement again changes nothing; a bad file applies
// nothing; each difference resolved with a reason; the day closes when none is left; and the bank's
// notification racing the statement import of the same payment applies it once.

let ctx: TestContext;
let db: Db;
let token: string;
let m: GatewayMerchant;
let secret: string;
const clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;
let day: string;

const ops = opsRunner(
  () => ctx.app,
  () => token,
  'Rita Recon',
);

const channelDay = () => ['--merchant', m.merchant.no, '--channel', 'vn-bank', '--date', day];

async function newOrder(outTradeNo: string, amount: string) {
  const response = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
    body: { out_trade_no: outTradeNo, amount },
    now,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.trade_no as string;
}

const notify = (txnId: string, reference: string, amount: string) => {
  const raw = JSON.stringify({
    transaction_id: txnId,
    reference,
    amount,
    currency: 'VND',
    paid_at: clock.toISOString(),
  });
  return ctx.app.inject({
    method: 'POST',
    url: '/channels/vn-bank/notify',
    headers: {
      'content-type': 'application/json',
      'x-channel-signature': `sha256=${signNotification(secret, raw)}`,
    },
    payload: raw,
  });
};

/** A CSV statement of the day in the default columns, written to DATA_DIR. */
function statement(name: string, lines: [string, string, string][]) {
  const file = path.join(ctx.config.dataDir, name);
  writeFileSync(
    file,
    [
      'Transaction ID,Date,Amount,Reference,Payer',
      ...lines.map(([id, amount, ref]) => `${id},${day},${amount},${ref},`),
    ].join('\n'),
  );
  return file;
}

const importFile = (file: string) =>
  ops('statement:import', ...channelDay(), '--format', 'csv', '--file', file, '--reason', 'daily statement');

const status = async (tradeNo: string) =>
  (await db.select().from(collections).where(eq(collections.tradeNo, tradeNo)))[0].status;

/** What a statement import could change. */
const snapshot = async () => ({
  payments: await db.select().from(receivedPayments).orderBy(receivedPayments.id),
  orders: (await db.select().from(collections).orderBy(collections.id)).map(
    (o) => `${o.tradeNo}:${o.status}`,
  ),
});

const orders: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestApp({}, { now });
  db = ctx.database.db;
  token = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  m = await createGatewayMerchant(db, ctx.config.appKey, {
    currency: 'VND',
    channel: false,
    notifyUrl: 'https://merchant.example/notify',
  });
  day = localDate(clock, m.merchant.timezone);
  const opened = await ops(
    'channel:open',
    '--merchant',
    m.merchant.no,
    '--code',
    'vn-bank',
    '--kind',
    'collection',
    '--provider',
    'bank_transfer',
    '--settings',
    JSON.stringify({
      bank: 'Vietcombank',
      account_name: 'PAYDESK VN',
      account_no: '0071000888999',
      bank_bin: '970436',
    }),
    '--fee-rate',
    '1',
    '--min-amount',
    '10000',
    '--max-amount',
    '50000000',
    '--reason',
    'live bank account',
  );
  expect(opened.code, opened.err).toBe(0);
  secret = /Its notify_secret \(shown once[^)]*\): (\S+)/.exec(opened.out)![1];
  for (const [key, amount] of [
    ['A', '150000'],
    ['B', '200000'],
    ['C', '300000'],
    ['D', '400000'],
    ['E', '100000'],
  ] as const)
    orders[key] = await newOrder(`rec-${key}`, amount);
  // The bank notified A and E during the day.
  expect((await notify('N1', `CK ${orders.A}`, '150000')).json().data.matched).toBe(1);
  expect((await notify('N5', orders.E, '100000')).json().data.matched).toBe(1);
});
afterAll(() => ctx.close());

describe("a channel's day", () => {
  let file: string;

  it('a statement with every kind of difference gives exactly those differences', async () => {
    file = statement('day.csv', [
      ['N1', '150000', `CK ${orders.A}`], // notified already: seen, now on the statement
      ['S2', '200000', `${orders.B.toLowerCase()}`], // B, exact: paid by the statement
      ['S3', '290000', orders.C], // C, short: for review
      ['S4', '50000', 'GIFT FROM MUM'], // not ours
    ]);
    const imported = await importFile(file);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toContain('Imported 4 credit line(s)');
    expect(imported.out).toContain('1 paid an order, 1 for review, 1 unknown, 1 seen before');
    expect([
      await status(orders.A),
      await status(orders.B),
      await status(orders.C),
      await status(orders.D),
    ]).toEqual(['paid', 'paid', 'to_be_paid', 'to_be_paid']);
    // B, paid by the statement: its collection.paid callback (queued for delivery) and its attempt.
    const [b] = await db.select().from(collections).where(eq(collections.tradeNo, orders.B));
    expect(b.channelRef).toBe('S2');
    const events = await db
      .select()
      .from(callbackEvents)
      .where(and(eq(callbackEvents.refType, 'collection'), eq(callbackEvents.refId, b.id)));
    expect(events.map((e) => [e.type, e.status])).toEqual([['collection.paid', 'pending']]);
    expect(JSON.parse(events[0].payload).data).toMatchObject({
      trade_no: orders.B,
      status: 'paid',
      livemode: true,
    });
    const [job] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from pgboss.job where name = 'callback.deliver' and data->>'id' = ${events[0].id}`,
    );
    expect(job.n).toBe(1);
    const [attempt] = await queryRows<{ outcome: string; channel_ref: string }>(
      db,
      sql`select outcome, channel_ref from channel_attempts where order_kind = 'collection' and order_id = ${b.id}`,
    );
    expect(attempt).toEqual({ outcome: 'succeeded', channel_ref: 'S2' });

    const shown = await ops('reconcile:show', ...channelDay(), '--json');
    const report = JSON.parse(shown.out);
    expect(report.matched.map((l: { txn_id: string }) => l.txn_id)).toEqual(['N1', 'S2']);
    expect(report.unknown.map((l: { txn_id: string }) => l.txn_id)).toEqual(['S4']);
    expect(report.differences).toEqual([
      expect.objectContaining({
        txn_id: 'S3',
        trade_no: orders.C,
        amount: '290000',
        order_amount: '300000',
        problem: 'amount_differs',
      }),
    ]);
    // E was paid by a notification the bank's statement does not list.
    expect(report.missing).toEqual([expect.objectContaining({ trade_no: orders.E, amount: '100000' })]);
    expect(report.left).toBe(3);
    const text = await ops('reconcile:show', ...channelDay());
    expect(text.out).toContain('3 difference(s) left');
    expect(text.out).toContain('GIFT FROM MUM');
  });

  it('the same statement again changes nothing', async () => {
    const before = await snapshot();
    const again = await importFile(file);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('0 paid an order, 0 for review, 0 unknown, 4 seen before');
    const after = await snapshot();
    expect(after.orders).toEqual(before.orders);
    expect(after.payments.map(({ statementImportId: _s, ...p }) => p)).toEqual(
      before.payments.map(({ statementImportId: _s, ...p }) => p),
    );
  });

  it('a file with one bad line is refused with its line and applies nothing', async () => {
    const before = await snapshot();
    const bad = statement('bad.csv', [
      ['S9', '400000', orders.D],
      ['S10', '1,000', 'x'],
    ]);
    const refused = await importFile(bad);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/Line 3: the amount "1" is not|Line 3: .*amount|well-formed/);
    expect(await snapshot()).toEqual(before);
    expect(await status(orders.D)).toBe('to_be_paid');
  });

  it('does not close while differences are left', async () => {
    const refused = await ops('reconcile:close', ...channelDay(), '--reason', 'end of day');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('3 difference(s)');
  });

  it('resolves each difference with a reason, then closes the day', async () => {
    const report = JSON.parse((await ops('reconcile:show', ...channelDay(), '--json')).out);
    const unknown = report.unknown[0].id as number;
    const short = report.differences[0].id as number;
    expect(
      (
        await ops(
          'reconcile:resolve',
          ...channelDay(),
          '--payment',
          String(unknown),
          '--action',
          'refund_to_payer',
          '--reason',
          'sent back, bank ref R-77',
        )
      ).code,
    ).toBe(0);
    // The payer will top up the rest; the operator accepts C as paid.
    const marked = await ops(
      'reconcile:resolve',
      ...channelDay(),
      '--payment',
      String(short),
      '--action',
      'mark_paid',
      '--reason',
      'payer short by 10000, agreed with the merchant',
    );
    expect(marked.code, marked.err).toBe(0);
    expect(await status(orders.C)).toBe('paid');
    // E's money never came: take it back from the merchant's balance through the ledger.
    await fundMerchant(db, m.merchant.id, 500_000n);
    const before = await balanceRow(db, m.merchant.id);
    const adjusted = await ops(
      'reconcile:resolve',
      ...channelDay(),
      '--trade-no',
      orders.E,
      '--action',
      'ledger_adjustment',
      '--amount=-100000',
      '--reason',
      'notification without money',
    );
    expect(adjusted.code, adjusted.err).toBe(0);
    expect((await balanceRow(db, m.merchant.id))!.availableMinor).toBe(before!.availableMinor - 100_000n);
    // A difference resolves once.
    const twice = await ops(
      'reconcile:resolve',
      ...channelDay(),
      '--payment',
      String(unknown),
      '--action',
      'refund_to_payer',
      '--reason',
      'again',
    );
    expect(twice.code).toBe(1);

    const closed = await ops('reconcile:close', ...channelDay(), '--reason', 'end of day');
    expect(closed.code, closed.err).toBe(0);
    const final = JSON.parse((await ops('reconcile:show', ...channelDay(), '--json')).out);
    expect(final).toMatchObject({ status: 'closed', left: 0, closed_by: 'Rita Recon' });
    expect(final.resolved.map((r: { action: string }) => r.action)).toEqual([
      'refund_to_payer',
      'mark_paid',
      'ledger_adjustment',
    ]);
    const books = await verifyLedger(db);
    expect(books.problems).toEqual([]);
  });
});

describe('the same payment by notification and statement at once', () => {
  it('is applied once', async () => {
    const tradeNo = await newOrder('rec-race', '250000');
    const file = statement('race.csv', [['RACE-1', '250000', tradeNo]]);
    const [notified, imported] = await Promise.all([
      notify('RACE-1', tradeNo, '250000'),
      ops(
        'statement:import',
        '--merchant',
        m.merchant.no,
        '--channel',
        'vn-bank',
        '--date',
        localDate(clock, m.merchant.timezone),
        '--format',
        'csv',
        '--file',
        file,
        '--reason',
        'race',
      ),
    ]);
    expect(notified.statusCode, notified.body).toBe(200);
    expect(imported.code, imported.err).toBe(0);
    expect(await status(tradeNo)).toBe('paid');
    const rows = await db.select().from(receivedPayments).where(eq(receivedPayments.txnId, 'RACE-1'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'matched' });
    expect(rows[0].notifiedAt).not.toBeNull();
    expect(rows[0].statementImportId).not.toBeNull();
    const [order] = await db.select().from(collections).where(eq(collections.tradeNo, tradeNo));
    const callbacks = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(callbackEvents)
      .where(and(eq(callbackEvents.refType, 'collection'), eq(callbackEvents.refId, order.id)));
    expect(callbacks[0].n).toBe(1);
  });
});
