import { describe, expect, it } from 'vitest';
import type { PayoutChannel } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { SANDBOX_CN } from '../../test/payouts.ts';
import { amountIssueOf, percentToPpm, payoutCostOf } from './payout-amount.ts';

const channel = (overrides: Partial<PayoutChannel> = {}): PayoutChannel => ({
  ...SANDBOX_CN,
  banks: [],
  ...overrides,
});

describe('payout amount', () => {
  it('reads a percent rate exactly as parts per million', () => {
    expect(percentToPpm('1.5')).toBe(15_000);
    expect(percentToPpm('0.0001')).toBe(1);
    expect(percentToPpm('12')).toBe(120_000);
    expect(percentToPpm('0.00005')).toBeUndefined();
    expect(percentToPpm('abc')).toBeUndefined();
  });

  it('prices an amount with the rate (rounded half up) and the fixed fee, in minor units', () => {
    expect(payoutCostOf('1000.00', channel())).toEqual({
      fee: '15.50',
      total: '1015.50',
      totalMinor: 101_550n,
    });
    // 0.1 + 0.2 is where floats go wrong; 33.33 x 1.5% = 0.49995 rounds up to 0.50.
    expect(payoutCostOf('33.33', channel())?.fee).toBe('1.00');
    expect(payoutCostOf('0.3', channel({ fee_rate: '0', fixed_fee: '0.00' }))?.total).toBe('0.30');
    // amount x rate is past 2^53 here: 14,999,999,999.99985 rounds to 15,000,000,000.00, plus 0.50.
    expect(payoutCostOf('999999999999.99', channel())?.total).toBe('1015000000000.49');
    // VND has no decimals: 2,000,000 x 0.8% + 5,000.
    expect(payoutCostOf('2000000', channel({ currency: 'VND', fee_rate: '0.8', fixed_fee: '5000' }))).toEqual(
      { fee: '21000', total: '2021000', totalMinor: 2_021_000n },
    );
  });

  it('prices nothing until the amount is one of the currency', () => {
    for (const amount of [undefined, '', '12.345', '1e3', '-5', '12.']) {
      expect(payoutCostOf(amount, channel())).toBeUndefined();
    }
    expect(payoutCostOf('10.5', channel({ currency: 'VND', fixed_fee: '0' }))).toBeUndefined();
  });

  it('names what is wrong with an amount for the channel', () => {
    expect(amountIssueOf(' ', channel())).toBe('required');
    expect(amountIssueOf('1,000', channel())).toBe('format');
    expect(amountIssueOf('0.00', channel())).toBe('zero');
    expect(amountIssueOf('9.99', channel())).toBe('range');
    expect(amountIssueOf('50000.01', channel())).toBe('range');
    expect(amountIssueOf('10', channel())).toBeUndefined();
    expect(amountIssueOf('50000.00', channel())).toBeUndefined();
  });
});
