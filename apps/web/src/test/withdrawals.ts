import type { Withdrawal, WithdrawalOptions } from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';

// Withdrawals as the API answers them, for the withdrawal pages' tests.

/** A TRON wallet address (TRC20). */
export const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** GET /api/merchant/withdrawal-options: USDT on both networks, 2 USDT a withdrawal, none free left today. */
export const withdrawalOptions = (changes: Partial<WithdrawalOptions> = {}): WithdrawalOptions => ({
  currencies: ['USDT'],
  networks: ['TRC20', 'ERC20'],
  fee: '2.000000',
  free_per_day: 1,
  free_left_today: 0,
  min_amount: '10.000000',
  rate: '7.2',
  local_currency: 'CNY',
  available: '1000.00',
  ...changes,
});

/** A withdrawal of 100 USDT to TRON waiting for review (734.40 CNY with its fee) unless changed. */
export const withdrawal = (no: string, changes: Partial<Withdrawal> = {}): Withdrawal => ({
  withdrawal_no: no,
  status: 'pending_review',
  currency: 'USDT',
  network: 'TRC20',
  address: TRON,
  amount: '100.000000',
  fee: '2.000000',
  is_free: false,
  rate: '7.2',
  local_currency: 'CNY',
  local_amount: '720.00',
  local_fee: '14.40',
  local_total: '734.40',
  tx_hash: null,
  reject_reason: null,
  created_at: '2026-03-01T00:30:00Z',
  approved_at: null,
  paid_at: null,
  rejected_at: null,
  ...changes,
});
