import type { PayoutChannel } from '@paydesk/shared/payouts/payouts.schemas.ts';

// Payout channels as GET /api/merchant/payout-channels answers them, for the payout form's tests.

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
