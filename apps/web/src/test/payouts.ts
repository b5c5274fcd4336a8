import type { Payout, PayoutChannel } from '@paydesk/shared/payouts/payouts.schemas.ts';

// Payouts and payout channels as the API answers them, for the payout pages' tests.

/** The sandbox channel of a country (`sandbox-<country>`): its fee (rate in percent, fixed) and range. */
export const payoutChannel = (
  country: PayoutChannel['country'],
  currency: PayoutChannel['currency'],
  [fee_rate, fixed_fee]: [string, string],
  [min_amount, max_amount]: [string, string],
  banks: PayoutChannel['banks'] = [],
): PayoutChannel => ({
  code: `sandbox-${country.toLowerCase()}`,
  country,
  currency,
  fee_rate,
  fixed_fee,
  min_amount,
  max_amount,
  banks,
});

/** China's: 1.5% + 0.50 CNY, from 10 to 50,000 CNY. */
export const SANDBOX_CN = payoutChannel(
  'CN',
  'CNY',
  ['1.5', '0.50'],
  ['10.00', '50000.00'],
  [
    { code: 'ICBC', name: 'Industrial and Commercial Bank of China' },
    { code: 'CMB', name: 'China Merchants Bank' },
  ],
);

/** A successful payout of 1,000 CNY (fee 15.50) to Li Lei's CMB account, made in the console, unless changed. */
export const payout = (tradeNo: string, changes: Partial<Payout> = {}): Payout => ({
  trade_no: tradeNo,
  out_trade_no: `OUT-${tradeNo}`,
  status: 'success',
  amount: '1000',
  fee: '15.5',
  currency: 'CNY',
  channel: 'sandbox-cn',
  payee_name: 'Li Lei',
  account_no: '************2233',
  created_at: '2026-03-01T00:30:00Z',
  finished_at: '2026-03-01T00:32:10Z',
  failure_reason: null,
  account_type: 'individual',
  bank_code: 'CMB',
  bank_name: 'China Merchants Bank',
  branch_name: 'Shenzhen Branch',
  ifsc: null,
  cpf_cnpj: null,
  note: null,
  channel_ref: 'SBX4471029388150062',
  source: 'console',
  created_by_user_id: null,
  ...changes,
});
