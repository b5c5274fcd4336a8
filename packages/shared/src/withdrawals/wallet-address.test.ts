import { describe, expect, it } from 'vitest';
import { toChecksumAddress, walletAddressIssue } from './wallet-address.ts';

// Vectors: Tether's own contracts (TRON and Ethereum) and EIP-55's published examples.
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const ETH = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

describe('TRC20 (TRON base58check)', () => {
  it('accepts a valid address', () => {
    expect(walletAddressIssue('TRC20', TRON)).toBeUndefined();
    expect(walletAddressIssue('TRC20', `  ${TRON} `)).toBeUndefined();
  });
  it('refuses one character changed as a wrong checksum', () => {
    expect(walletAddressIssue('TRC20', `${TRON.slice(0, -1)}u`)).toBe('checksum');
    expect(walletAddressIssue('TRC20', `TR8${TRON.slice(3)}`)).toBe('checksum');
  });
  it('refuses a wrong length, a wrong prefix and base58 outsiders as a wrong format', () => {
    expect(walletAddressIssue('TRC20', TRON.slice(0, -1))).toBe('format');
    expect(walletAddressIssue('TRC20', `${TRON}1`)).toBe('format');
    expect(walletAddressIssue('TRC20', `A${TRON.slice(1)}`)).toBe('format');
    expect(walletAddressIssue('TRC20', `${TRON.slice(0, -1)}0`)).toBe('format');
    expect(walletAddressIssue('TRC20', ETH)).toBe('format');
    expect(walletAddressIssue('TRC20', '')).toBe('required');
  });
});

describe('ERC20 (0x + 40 hex, EIP-55)', () => {
  it('accepts the checksummed, the all lower-case and the all upper-case forms', () => {
    expect(walletAddressIssue('ERC20', ETH)).toBeUndefined();
    expect(walletAddressIssue('ERC20', ETH.toLowerCase())).toBeUndefined();
    expect(walletAddressIssue('ERC20', `0x${ETH.slice(2).toUpperCase()}`)).toBeUndefined();
  });
  it("computes EIP-55's published examples", () => {
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(toChecksumAddress(address.toLowerCase())).toBe(address);
      expect(walletAddressIssue('ERC20', address)).toBeUndefined();
    }
  });
  it('refuses one character changed in a mixed-case address as a wrong checksum', () => {
    expect(walletAddressIssue('ERC20', `${ETH.slice(0, -1)}8`)).toBe('checksum');
    // The same letter in the other case.
    expect(walletAddressIssue('ERC20', ETH.replace('dAC', 'DAC'))).toBe('checksum');
  });
  it('refuses a wrong length, a missing 0x and non-hex digits as a wrong format', () => {
    expect(walletAddressIssue('ERC20', ETH.slice(0, -1))).toBe('format');
    expect(walletAddressIssue('ERC20', `${ETH}0`)).toBe('format');
    expect(walletAddressIssue('ERC20', ETH.slice(2))).toBe('format');
    expect(walletAddressIssue('ERC20', `${ETH.slice(0, -1)}g`)).toBe('format');
    expect(walletAddressIssue('ERC20', TRON)).toBe('format');
  });
});
