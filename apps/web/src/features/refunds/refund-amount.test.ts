import { describe, expect, it } from 'vitest';
import { refundableOf, refundAmountIssueOf } from './refund-amount.ts';

describe('refundableOf', () => {
  it('is the amount less what was refunded, exactly, never below zero', () => {
    expect(refundableOf({ amount: '1234.5', refunded: '0.00', currency: 'CNY' })).toBe('1234.50');
    expect(refundableOf({ amount: '0.3', refunded: '0.1', currency: 'CNY' })).toBe('0.20');
    expect(refundableOf({ amount: '10', refunded: '10.00', currency: 'CNY' })).toBe('0.00');
    expect(refundableOf({ amount: '10', refunded: '12', currency: 'CNY' })).toBe('0.00');
  });
});

describe('refundAmountIssueOf', () => {
  it('takes an amount of the currency above zero and up to what is refundable', () => {
    expect(refundAmountIssueOf('100.00', '100.00', 'CNY')).toBeUndefined();
    expect(refundAmountIssueOf(' 0.01 ', '100.00', 'CNY')).toBeUndefined();
    expect(refundAmountIssueOf('', '100.00', 'CNY')).toBe('required');
    expect(refundAmountIssueOf('1,00', '100.00', 'CNY')).toBe('format');
    expect(refundAmountIssueOf('1.001', '100.00', 'CNY')).toBe('format');
    expect(refundAmountIssueOf('0.00', '100.00', 'CNY')).toBe('zero');
    expect(refundAmountIssueOf('100.01', '100.00', 'CNY')).toBe('exceeds');
  });
});
