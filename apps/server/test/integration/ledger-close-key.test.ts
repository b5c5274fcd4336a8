import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { createLedger, HoldClosedError, transactionWithRetry } from '../../src/modules/ledger/index.ts';
import { createMerchant } from '../factories/merchants.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// A capture or release replays only the close it repeats: the same key with the other verb is refused,
// not answered as if the hold had closed the way the caller asked.

let ctx: TestContext;
let db: Db;
const ledger = createLedger();

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
});
afterAll(() => ctx.close());

async function openHold(label: string) {
  const merchantId = (await createMerchant(db, { roles: [] })).merchant.id;
  await transactionWithRetry(db, (tx) =>
    ledger.post(tx, {
      merchantId,
      type: 'transfer_in',
      amountMinor: 10_000n,
      refType: 'test',
      refId: label,
      idempotencyKey: `close-key:${label}:in`,
    }),
  );
  const { hold } = await transactionWithRetry(db, (tx) =>
    ledger.hold(tx, {
      merchantId,
      type: 'payout_deduction',
      amountMinor: 4_000n,
      refType: 'test',
      refId: label,
      idempotencyKey: `close-key:${label}:hold`,
    }),
  );
  return { merchantId, holdId: hold.id };
}

describe('closing a hold with a key already spent on the other verb', () => {
  it('a capture with the key of the release that closed it is refused (409), and nothing moves', async () => {
    const { merchantId, holdId } = await openHold('released');
    const key = 'close-key:released:close';
    await transactionWithRetry(db, (tx) => ledger.release(tx, { merchantId, holdId, idempotencyKey: key }));
    const before = await ledger.balanceOf(db, merchantId);

    const capture = transactionWithRetry(db, (tx) =>
      ledger.capture(tx, { merchantId, holdId, idempotencyKey: key, channel: 'sandbox' }),
    );
    await expect(capture).rejects.toBeInstanceOf(HoldClosedError);
    await expect(capture).rejects.toMatchObject({ status: 409, message: 'The hold is already released.' });
    expect(await ledger.balanceOf(db, merchantId)).toEqual(before);
    // The release itself still replays.
    const again = await transactionWithRetry(db, (tx) =>
      ledger.release(tx, { merchantId, holdId, idempotencyKey: key }),
    );
    expect(again).toMatchObject({ replayed: true, hold: { status: 'released' } });
  });

  it('a release with the key of the capture that closed it is refused (409), not a server error', async () => {
    const { merchantId, holdId } = await openHold('captured');
    const key = 'close-key:captured:close';
    await transactionWithRetry(db, (tx) =>
      ledger.capture(tx, { merchantId, holdId, idempotencyKey: key, channel: 'sandbox' }),
    );
    const before = await ledger.balanceOf(db, merchantId);

    const release = transactionWithRetry(db, (tx) =>
      ledger.release(tx, { merchantId, holdId, idempotencyKey: key }),
    );
    await expect(release).rejects.toMatchObject({ status: 409, message: 'The hold is already captured.' });
    expect(await ledger.balanceOf(db, merchantId)).toEqual(before);
    const again = await transactionWithRetry(db, (tx) =>
      ledger.capture(tx, { merchantId, holdId, idempotencyKey: key, channel: 'sandbox' }),
    );
    expect(again).toMatchObject({ replayed: true, hold: { status: 'captured' } });
  });
});
