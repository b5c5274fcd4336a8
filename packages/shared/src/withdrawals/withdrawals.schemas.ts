import { z } from 'zod';
import { AmountSchema, CurrencySchema } from '../money.ts';
import { CursorListMetaSchema, emptyToUndefined } from '../pagination.ts';
import { timeRangeListQuery } from '../funds/funds.schemas.ts';
import { StepUpFieldsSchema } from '../security/security.schemas.ts';
import { WALLET_NETWORKS } from './wallet-address.ts';

// Withdrawals (DESIGN sections 3, 4 and 5): a merchant withdraws USDT to a wallet. The amount and the fee
// are USDT (6 decimals); the hold is in the merchant's currency at the rate frozen on the request
// (rounded up to the currency's minor unit). pending_review -> approved -> paid (with the transaction
// hash); rejected (with a reason) from either; every other transition answers 409 and changes nothing.

export { WALLET_NETWORKS, type WalletNetwork } from './wallet-address.ts';

/** What a withdrawal is paid in: USDT only for now (the form's currency field). */
export const WITHDRAWAL_CURRENCIES = ['USDT'] as const;

export const WITHDRAWAL_STATUSES = ['pending_review', 'approved', 'paid', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export const WithdrawalStatusSchema = z.enum(WITHDRAWAL_STATUSES, {
  error: `The status must be one of: ${WITHDRAWAL_STATUSES.join(', ')}.`,
});

export const WITHDRAWAL_TRANSITIONS: Record<WithdrawalStatus, readonly WithdrawalStatus[]> = {
  pending_review: ['approved', 'rejected'],
  approved: ['paid', 'rejected'],
  paid: [],
  rejected: [],
};
export const canWithdrawalTransition = (from: WithdrawalStatus, to: WithdrawalStatus): boolean =>
  WITHDRAWAL_TRANSITIONS[from].includes(to);

export const WalletNetworkSchema = z.enum(WALLET_NETWORKS, {
  error: `The network must be one of: ${WALLET_NETWORKS.join(', ')}.`,
});

const optionalText = (max: number) => z.preprocess(emptyToUndefined, z.string().trim().max(max).optional());

/** A wallet address as typed: trimmed; whether it is valid for the network is walletAddressIssue's call. */
export const WalletAddressSchema = z
  .string({ error: 'The wallet address field is required.' })
  .trim()
  .min(1, 'The wallet address field is required.')
  .max(64, 'The wallet address may not be greater than 64 characters.');

// ---- GET /api/merchant/withdrawal-options

export const WithdrawalOptionsSchema = z.object({
  currencies: z.array(z.enum(WITHDRAWAL_CURRENCIES)),
  networks: z.array(WalletNetworkSchema),
  /** USDT per withdrawal once today's free ones are used ("1.000000"). */
  fee: z.string(),
  free_per_day: z.number(),
  /** Free withdrawals left today, in the merchant's time zone. */
  free_left_today: z.number(),
  /** Smallest amount in USDT. */
  min_amount: z.string(),
  /** The merchant's currency per USDT, frozen on each request. */
  rate: z.string(),
  /** The merchant's currency: what is held and shown as the local amount. */
  local_currency: CurrencySchema,
  /** Available balance, in the merchant's currency. */
  available: z.string(),
});
export type WithdrawalOptions = z.infer<typeof WithdrawalOptionsSchema>;
export const WithdrawalOptionsResponseSchema = z.object({ data: WithdrawalOptionsSchema });

// ---- POST /api/merchant/withdrawals

export const CreateWithdrawalBodySchema = z
  .object({
    /** In USDT, at most 6 decimals. */
    amount: z.string({ error: 'The amount field is required.' }).pipe(AmountSchema),
    currency: z.enum(WITHDRAWAL_CURRENCIES, { error: 'The currency must be USDT.' }),
    network: WalletNetworkSchema,
    address: WalletAddressSchema,
  })
  .extend(StepUpFieldsSchema.shape);
export type CreateWithdrawalBody = z.infer<typeof CreateWithdrawalBodySchema>;

export const WithdrawalSchema = z.object({
  withdrawal_no: z.string(),
  status: WithdrawalStatusSchema,
  currency: z.enum(WITHDRAWAL_CURRENCIES),
  network: WalletNetworkSchema,
  address: z.string(),
  /** USDT sent to the wallet. */
  amount: z.string(),
  /** USDT; "0.000000" when it was one of the day's free withdrawals. */
  fee: z.string(),
  is_free: z.boolean(),
  /** The merchant's currency per USDT at the request. */
  rate: z.string(),
  local_currency: CurrencySchema,
  /** amount x rate, rounded up to the local minor unit. */
  local_amount: z.string(),
  local_fee: z.string(),
  /** What was held from the available balance: local_amount + local_fee. */
  local_total: z.string(),
  tx_hash: z.string().nullable(),
  reject_reason: z.string().nullable(),
  created_at: z.string(),
  approved_at: z.string().nullable(),
  paid_at: z.string().nullable(),
  rejected_at: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof WithdrawalSchema>;
export const WithdrawalResponseSchema = z.object({ data: WithdrawalSchema });

// ---- GET /api/merchant/withdrawals

export const WithdrawalListQuerySchema = timeRangeListQuery({
  withdrawal_no: optionalText(64),
  status: z.preprocess(emptyToUndefined, WithdrawalStatusSchema.optional()),
  network: z.preprocess(emptyToUndefined, WalletNetworkSchema.optional()),
});
export type WithdrawalListQuery = z.infer<typeof WithdrawalListQuerySchema>;

export const WithdrawalSumsSchema = z.object({
  /** USDT */
  amount: z.string(),
  /** USDT */
  fee: z.string(),
  count: z.number(),
  /** Held in the merchant's currency (local_total). */
  local_total: z.string(),
});
export const WithdrawalListResponseSchema = z.object({
  data: z.array(WithdrawalSchema),
  meta: CursorListMetaSchema.extend({ sums: WithdrawalSumsSchema }),
});
export type WithdrawalListResponse = z.infer<typeof WithdrawalListResponseSchema>;

// ---- The operator's decisions (DESIGN section 10)

export const WithdrawalNoSchema = z
  .string({ error: 'The no field is required.' })
  .trim()
  .regex(/^W\d{8,40}$/, 'The no must be a withdrawal number (W...).');

/** TRC20: 64 hex digits; ERC20: 0x + 64 hex digits. */
export const TX_HASH_PATTERNS = {
  TRC20: /^[0-9a-f]{64}$/,
  ERC20: /^0x[0-9a-f]{64}$/,
} as const;
export const TxHashSchema = z
  .string({ error: 'The tx_hash field is required.' })
  .trim()
  .toLowerCase()
  .regex(/^(0x)?[0-9a-f]{64}$/, 'The tx_hash must be 64 hexadecimal digits (ERC20: with 0x).');
