import { z } from 'zod';
import { AmountSchema, type Currency, CurrencySchema } from '../money.ts';

// Live and test mode (DESIGN 12): every merchant has both, and nothing crosses between them. The access key
// a gateway call is signed with decides its mode; the console says its mode in the X-Mode header.

export const MODES = ['live', 'test'] as const;
export type Mode = (typeof MODES)[number];

export const ModeSchema = z.enum(MODES, { error: 'The mode must be live or test.' });

export const isMode = (value: unknown): value is Mode =>
  typeof value === 'string' && (MODES as readonly string[]).includes(value);

/** The console's mode on every call; absent means live, anything but `live` or `test` is refused (400). */
export const MODE_HEADER = 'x-mode';

/**
 * The test funds a merchant's test balance starts with, and starts again with after its test data is
 * deleted (DESIGN 12), in major units of its currency: enough for any sandbox channel's largest order.
 */
export const TEST_FUNDS_START: Record<Currency, string> = {
  CNY: '100000',
  INR: '1000000',
  BRL: '100000',
  VND: '1000000000',
  USD: '100000',
  USDT: '100000',
};

/** The most one "Add test funds" adds, in major units: ten times the starting funds. */
export const testFundsLimit = (currency: Currency): string => `${TEST_FUNDS_START[currency]}0`;

/** POST /api/merchant/test-funds (test mode only): adds to the test balance, in the merchant's currency. */
export const TestFundsBodySchema = z.object({ amount: AmountSchema });
export type TestFundsBody = z.infer<typeof TestFundsBodySchema>;

export const TEST_DATA_DELETION_STATUSES = ['idle', 'queued', 'running'] as const;

/** GET/POST /api/merchant/test-data/delete: where the deletion of every test object of the merchant stands. */
export const TestDataDeletionSchema = z.object({
  status: z.enum(TEST_DATA_DELETION_STATUSES),
  requested_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type TestDataDeletion = z.infer<typeof TestDataDeletionSchema>;

/**
 * POST /api/merchant/test-funds: the test balance after the funds were added (as funds' BalanceSchema has
 * it; not imported from there, whose list query imports this file through pagination).
 */
export const TestFundsResponseSchema = z.object({
  data: z.object({ currency: CurrencySchema, available: z.string(), locked: z.string() }),
});

/** GET /api/merchant/test-data/delete. */
export const TestDataDeletionResponseSchema = z.object({ data: TestDataDeletionSchema });
