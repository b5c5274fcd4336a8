import { randomUUID } from 'node:crypto';
import { type Currency, toMinor } from '@paydesk/shared';
import { TEST_FUNDS_START } from '@paydesk/shared/modes/modes.schemas.ts';
import type { Tx } from '../../db/client.ts';
import type { Ledger } from '../ledger/index.ts';

// Test funds (DESIGN 12): money of test mode only, given to every merchant's test twin when it is made (and
// again after its test data is deleted), and added by its ROOT from the console or by an operator. They are
// a transfer in, posted through the ledger like any other, against test mode's own operator account
// ("test:operator_adjustments:CNY"), so the test books balance by themselves and no live account moves.

/** The test twin a credit is for: anything but a test row is a bug of the caller. */
type TestRow = { id: number; mode: string; currency: string };

/** What a credit needs of the ledger. */
type Poster = Pick<Ledger, 'post'>;

/**
 * Credits test funds to a test row, in its transaction. `key` makes it once only ("start" for the starting
 * funds; a console addition gets a fresh one).
 */
export async function creditTestFunds(
  ledger: Poster,
  tx: Tx,
  merchant: TestRow,
  amountMinor: bigint,
  { key = randomUUID(), at }: { key?: string; at?: Date } = {},
) {
  if (merchant.mode !== 'test') throw new Error(`Test funds go to a test row, not merchant ${merchant.id}.`);
  return ledger.post(tx, {
    merchantId: merchant.id,
    type: 'transfer_in',
    amountMinor,
    refType: 'test_funds',
    refId: String(merchant.id),
    refNo: null,
    note: 'Test funds',
    idempotencyKey: `test_funds:${merchant.id}:${key}`,
    at,
  });
}

/**
 * The starting test funds of a new test twin (or of one whose test data was deleted); `at` back-dates them
 * before a seeded history.
 */
export const creditStartingTestFunds = (ledger: Poster, tx: Tx, merchant: TestRow, at?: Date) =>
  creditTestFunds(
    ledger,
    tx,
    merchant,
    toMinor(TEST_FUNDS_START[merchant.currency as Currency], merchant.currency as Currency),
    { key: 'start', at },
  );
