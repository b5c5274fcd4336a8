import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

// USDT wallet addresses (DESIGN section 4): TRC20 is a TRON address (base58check of 0x41 + 20 bytes,
// "T..." with 34 characters); ERC20 is "0x" + 40 hex digits, with the EIP-55 checksum checked when the
// letters are mixed case (all lower or all upper case carries no checksum and is accepted).

export const WALLET_NETWORKS = ['TRC20', 'ERC20'] as const;
export type WalletNetwork = (typeof WALLET_NETWORKS)[number];

/** Why an address is refused: the console words each one per language (withdrawal rules). */
export type AddressIssue = 'required' | 'format' | 'checksum';

const base58check = createBase58check(sha256);
const TRON_PATTERN = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const ERC20_PATTERN = /^0x[0-9a-fA-F]{40}$/;

function tronIssue(address: string): AddressIssue | undefined {
  if (!TRON_PATTERN.test(address)) return 'format';
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return 'checksum';
  }
  return payload.length === 21 && payload[0] === 0x41 ? undefined : 'format';
}

/** The EIP-55 form of a 0x address: each letter upper case where the keccak-256 of the lower-case hex has a nibble >= 8. */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? hex[i].toUpperCase() : hex[i];
  }
  return out;
}

function erc20Issue(address: string): AddressIssue | undefined {
  if (!ERC20_PATTERN.test(address)) return 'format';
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return undefined;
  return toChecksumAddress(address) === address ? undefined : 'checksum';
}

/** What is wrong with a wallet address on this network, or undefined when it is a valid one. */
export function walletAddressIssue(
  network: WalletNetwork,
  address: string | undefined,
): AddressIssue | undefined {
  const value = address?.trim() ?? '';
  if (!value) return 'required';
  return network === 'TRC20' ? tronIssue(value) : erc20Issue(value);
}

export const ADDRESS_ISSUE_MESSAGES: Record<
  Exclude<AddressIssue, 'required'>,
  Record<WalletNetwork, string>
> = {
  format: {
    TRC20: 'The wallet address must be a TRON address: T followed by 33 letters and digits.',
    ERC20: 'The wallet address must be 0x followed by 40 hexadecimal digits.',
  },
  checksum: {
    TRC20: 'The wallet address checksum is wrong: check every character of the address.',
    ERC20: 'The wallet address checksum (EIP-55 upper and lower case) is wrong: check every character.',
  },
};
