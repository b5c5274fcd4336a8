import { type Currency, type Role, toMinor } from '@paydesk/shared';
import type { Db, Tx } from '../../db/client.ts';
import { hashPassword } from '../../lib/password.ts';
import { createLedger } from '../ledger/index.ts';
import { actionRefNo, claimOperatorAction, hasMerchants, insertMerchant } from '../ops/index.ts';
import { insertUser } from '../users/index.ts';
import { creditStartingTestFunds } from '../test-data/index.ts';
import { seedDemoTopUps } from '../top-ups/index.ts';
import type { Config } from '../../config.ts';
import type { FileStorage } from '../../lib/storage/index.ts';
import {
  type DemoMerchant,
  seedDemoAccessKey,
  seedDemoChannels,
  seedDemoCollections,
  seedDemoRefunds,
  seedDemoPayouts,
} from './demo-collections.ts';
import { seedDemoWithdrawals } from './demo-withdrawals.ts';
import { type DemoLiveChannel, seedDemoLiveChannels, writeDemoLiveGuide } from './demo-live-channels.ts';
import { type DemoRazorpay, seedDemoRazorpay } from './demo-razorpay.ts';

export const DEMO_PASSWORD = 'paydesk-demo';
export const DEMO_MERCHANT_NO = 'M100001';
export const DEMO_USERS: { email: string; name: string; role: Role }[] = [
  { email: 'root@demo.paydesk.test', name: 'Demo Root', role: 'ROOT' },
  { email: 'finance@demo.paydesk.test', name: 'Demo Finance', role: 'FINANCE' },
  { email: 'operator@demo.paydesk.test', name: 'Demo Operator', role: 'OPERATOR' },
  { email: 'viewer@demo.paydesk.test', name: 'Demo Viewer', role: 'VIEWER' },
];

/** One merchant in each other currency, each with a ROOT login (DESIGN section 4). */
export const DEMO_OTHER_MERCHANTS: {
  no: string;
  name: string;
  currency: Currency;
  timeZone: string;
  email: string;
}[] = [
  {
    no: 'M100002',
    name: 'Mumbai Spice House',
    currency: 'INR',
    timeZone: 'Asia/Kolkata',
    email: 'root@inr.demo.paydesk.test',
  },
  {
    no: 'M100003',
    name: 'Loja Paulista',
    currency: 'BRL',
    timeZone: 'America/Sao_Paulo',
    email: 'root@brl.demo.paydesk.test',
  },
  {
    no: 'M100004',
    name: 'Cửa hàng Sài Gòn',
    currency: 'VND',
    timeZone: 'Asia/Ho_Chi_Minh',
    email: 'root@vnd.demo.paydesk.test',
  },
];

/**
 * The demo merchant with a live Razorpay channel (INR) beside its bank transfer, pointed at the demo's
 * stand-in of Razorpay at this server's address (the port npm start serves on).
 */
export const RAZORPAY_DEMO_MERCHANT = 'M100002';

/**
 * Seeds the demo merchants, their users, history, channels, access keys and orders into an empty database;
 * does nothing otherwise.
 */
export async function seedDemo(
  db: Db,
  {
    appKey,
    now = new Date(),
    files,
    guide,
    liveChannels = true,
    refunds = true,
  }: {
    appKey: Buffer;
    now?: Date;
    /** Where the demo top-ups' screenshots go; without it no top-ups are seeded. */
    files?: { storage: FileStorage; topUp: Config['topUp'] };
    /** Where the live channels' guide and statements go (DATA_DIR/demo), and the server's port for its links. */
    guide?: { dataDir: string; port: number | string };
    /**
     * Every merchant's live channels (DESIGN 13; default true): bank transfer of its country with a little
     * history and a statement to import, manual payouts, and RAZORPAY_DEMO_MERCHANT's Razorpay. With them
     * the console opens in live mode (DESIGN 12); the sandbox history is test mode's. Off for a database
     * from before migration 0033, which has no table for received payments (the mode migration's test
     * seeds one).
     */
    liveChannels?: boolean;
    /** The sandbox history's refunds (default true); off for a database from before migration 0036. */
    refunds?: boolean;
  },
): Promise<boolean> {
  if (await hasMerchants(db)) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const live: DemoLiveChannel[] = [];
  let razorpay: DemoRazorpay | undefined;
  const seeded = await db.transaction(async (tx) => {
    const rows = await insertMerchant(tx, {
      no: DEMO_MERCHANT_NO,
      name: 'Demo Store',
      currency: 'CNY',
      timezone: 'Asia/Shanghai',
    });
    // Another process seeded it first.
    if (!rows) return false;
    const merchant = rows.live;
    for (const u of DEMO_USERS) {
      await insertUser(tx, {
        merchantId: merchant.id,
        email: u.email,
        name: u.name,
        passwordHash,
        roles: [u.role],
      });
    }
    await seedFundHistory(tx, merchant.id, now);
    await seedReceiveMoney(tx, appKey, rows, { currency: 'CNY', timeZone: 'Asia/Shanghai' }, now, refunds);
    if (files) await seedDemoTopUps(tx, files, { id: merchant.id, currency: 'CNY' }, now);
    await seedDemoWithdrawals(tx, { id: merchant.id, currency: 'CNY' }, now);
    if (liveChannels)
      live.push(
        await seedDemoLiveChannels(
          tx,
          appKey,
          { id: merchant.id, no: DEMO_MERCHANT_NO, currency: 'CNY', timeZone: 'Asia/Shanghai' },
          now,
        ),
      );
    for (const other of DEMO_OTHER_MERCHANTS) {
      const pair = (await insertMerchant(tx, {
        no: other.no,
        name: other.name,
        currency: other.currency,
        timezone: other.timeZone,
      }))!;
      await insertUser(tx, {
        merchantId: pair.live.id,
        email: other.email,
        name: `${other.name} admin`,
        passwordHash,
        roles: ['ROOT'],
      });
      await seedReceiveMoney(
        tx,
        appKey,
        pair,
        { currency: other.currency, timeZone: other.timeZone },
        now,
        refunds,
      );
      if (liveChannels)
        live.push(
          await seedDemoLiveChannels(
            tx,
            appKey,
            { id: pair.live.id, no: other.no, currency: other.currency, timeZone: other.timeZone },
            now,
          ),
        );
      if (liveChannels && other.no === RAZORPAY_DEMO_MERCHANT)
        razorpay = await seedDemoRazorpay(
          tx,
          appKey,
          { id: pair.live.id, no: other.no, currency: other.currency, timeZone: other.timeZone },
          now,
          `http://127.0.0.1:${guide?.port ?? 8080}`,
        );
    }
    return true;
  });
  if (seeded && guide) writeDemoLiveGuide(guide.dataDir, live, guide.port, razorpay);
  return seeded;
}

export { DEMO_LIVE_GUIDE } from './demo-live-channels.ts';

/**
 * The merchant's sandbox history: its channels, test key, collections and payouts are test mode's (the
 * sandbox serves test mode only, DESIGN 12), on its test twin; the whitelist is the company's.
 */
async function seedReceiveMoney(
  tx: Tx,
  appKey: Buffer,
  rows: { live: { id: number; no: string }; test: { id: number } },
  local: Pick<DemoMerchant, 'currency' | 'timeZone'>,
  now: Date,
  refunds: boolean,
) {
  const merchant: DemoMerchant = { id: rows.test.id, no: rows.live.no, ...local };
  // Test mode starts with test funds (DESIGN 12), dated before its history.
  await creditStartingTestFunds(
    createLedger(),
    tx,
    { id: rows.test.id, mode: 'test', currency: local.currency },
    new Date(now.getTime() - TEST_FUNDS_DAYS_AGO * 86_400_000),
  );
  const channel = await seedDemoChannels(tx, merchant);
  await seedDemoAccessKey(tx, appKey, merchant, rows.live.id);
  const settled = await seedDemoCollections(tx, merchant, channel, now);
  await seedDemoPayouts(tx, merchant, now);
  if (refunds) await seedDemoRefunds(tx, merchant, channel, settled, now);
}

/** When the demo's test funds came: before the oldest of its sandbox history. */
const TEST_FUNDS_DAYS_AGO = 40;

type DemoMove = {
  daysAgo: number;
  hour: number;
  kind: 'in' | 'out' | 'freeze';
  amount: string;
  note?: string;
};

// Five weeks of an operator moving the demo merchant's money, oldest first; one freeze is still open.
const DEMO_HISTORY: DemoMove[] = [
  { daysAgo: 35, hour: 2, kind: 'in', amount: '50000.00', note: 'Opening deposit' },
  { daysAgo: 33, hour: 6, kind: 'in', amount: '8260.40' },
  { daysAgo: 30, hour: 3, kind: 'out', amount: '1200.00', note: 'Fee adjustment' },
  { daysAgo: 28, hour: 2, kind: 'in', amount: '12500.00' },
  { daysAgo: 27, hour: 8, kind: 'out', amount: '2000.00' },
  { daysAgo: 25, hour: 5, kind: 'in', amount: '6318.75' },
  { daysAgo: 21, hour: 2, kind: 'in', amount: '18300.50' },
  { daysAgo: 20, hour: 7, kind: 'in', amount: '4125.00' },
  { daysAgo: 18, hour: 4, kind: 'out', amount: '3500.00', note: 'Settlement to bank account' },
  { daysAgo: 16, hour: 9, kind: 'in', amount: '2750.25' },
  { daysAgo: 14, hour: 2, kind: 'in', amount: '9876.54' },
  { daysAgo: 13, hour: 6, kind: 'out', amount: '3500.00', note: 'Settlement to bank account' },
  { daysAgo: 11, hour: 3, kind: 'in', amount: '15420.00' },
  { daysAgo: 9, hour: 8, kind: 'in', amount: '3333.33' },
  { daysAgo: 7, hour: 2, kind: 'in', amount: '21000.00' },
  { daysAgo: 6, hour: 5, kind: 'freeze', amount: '5000.00', note: 'Risk review' },
  { daysAgo: 5, hour: 7, kind: 'in', amount: '1280.90' },
  { daysAgo: 4, hour: 4, kind: 'out', amount: '4800.00', note: 'Settlement to bank account' },
  { daysAgo: 3, hour: 3, kind: 'out', amount: '1250.75' },
  { daysAgo: 2, hour: 6, kind: 'in', amount: '11200.00' },
  { daysAgo: 1, hour: 2, kind: 'in', amount: '7654.32' },
  { daysAgo: 1, hour: 9, kind: 'out', amount: '980.00' },
];

/** Posted through the ledger like any operator's transfer, each with its operator action, back-dated. */
async function seedFundHistory(tx: Tx, merchantId: number, now: Date) {
  const ledger = createLedger();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (const [index, move] of DEMO_HISTORY.entries()) {
    const at = new Date(today - move.daysAgo * 86_400_000 + move.hour * 3_600_000 + index * 61_000);
    const action = move.kind === 'freeze' ? 'funds.freeze' : `funds.transfer_${move.kind}`;
    const row = (await claimOperatorAction(tx, {
      operatorName: 'Paydesk demo',
      action,
      merchantId,
      reason: 'Demo history',
      idempotencyKey: `demo:${DEMO_MERCHANT_NO}:${index}`,
      detail: { request: { merchant: DEMO_MERCHANT_NO, amount: move.amount, note: move.note } },
      createdAt: at,
    }))!;
    const cause = {
      merchantId,
      refType: 'operator_action',
      refId: String(row.id),
      refNo: actionRefNo(row.id),
      note: move.note ?? null,
      at,
    };
    const amountMinor = toMinor(move.amount, 'CNY');
    if (move.kind === 'freeze') {
      await ledger.hold(tx, {
        ...cause,
        type: 'funds_frozen',
        amountMinor,
        idempotencyKey: `operator_action:${row.id}:funds_frozen`,
      });
    } else {
      await ledger.post(tx, {
        ...cause,
        type: move.kind === 'in' ? 'transfer_in' : 'transfer_out',
        amountMinor: move.kind === 'in' ? amountMinor : -amountMinor,
        idempotencyKey: `operator_action:${row.id}:transfer_${move.kind}`,
      });
    }
  }
}
