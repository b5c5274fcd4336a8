import type { z } from 'zod';
import { isValidCnpj as isValidNumericOrAlphanumericCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj';
import { isValidCpf as isValidCpfNumber } from '@brazilian-utils/brazilian-utils/is-valid-cpf';
import { Banks as VIETQR_BANKS } from 'vietnam-qr-pay/dist/constants/banks.js';
import type { Country } from '../collections/collections.schemas.ts';
import {
  ConsolePayoutBodySchema,
  CreatePayoutBodySchema,
  PayeeFieldsSchema,
  type Bank,
  type PayeeFields,
} from './payouts.schemas.ts';
import BR_BANKS from './br-banks.json' with { type: 'json' };
import CN_BANKS from './cn-banks.json' with { type: 'json' };
// Bank name by the IFSC's 4-letter bank code: src/banknames.json of the `ifsc` npm package (2.0.50,
// Razorpay, MIT), whitespace tidied. Its JavaScript is not imported: it needs `request` and Node.
import IFSC_BANKS from './ifsc-banks.json' with { type: 'json' };

const IFSC_BANK_NAMES: Readonly<Record<string, string>> = IFSC_BANKS;

// Bank rules per payout channel country (DESIGN section 4): which payee fields each country asks for and
// how each is checked, shared by the console's form, the console API and the gateway.

// The NAPAS members of VietQR, coded by their BIN. When a bank was renamed the package keeps both entries
// under one BIN (DongA Bank / Vikki Bank): the one that still sends VietQR transfers is kept.
const VN_BANKS: Bank[] = (() => {
  const byBin = new Map<string, (typeof VIETQR_BANKS)[number]>();
  for (const bank of VIETQR_BANKS) {
    if (!bank.bin || bank.deprecated) continue;
    const seen = byBin.get(bank.bin);
    if (!seen || bank.vietQRStatus > seen.vietQRStatus) byBin.set(bank.bin, bank);
  }
  return [...byBin.values()].map((bank) => ({ code: bank.bin, name: bank.shortName }));
})();

const BANKS: Record<Country, readonly Bank[]> = { CN: CN_BANKS, IN: [], BR: BR_BANKS, VN: VN_BANKS };
const BANK_CODES: Record<Country, ReadonlySet<string>> = {
  CN: new Set(CN_BANKS.map((bank) => bank.code)),
  IN: new Set(),
  BR: new Set(BR_BANKS.map((bank) => bank.code)),
  VN: new Set(VN_BANKS.map((bank) => bank.code)),
};

/** The banks a payout channel of this country offers (none for IN: the bank follows from the IFSC). */
export const banksOf = (country: Country): Bank[] => BANKS[country].map((bank) => ({ ...bank }));

const IFSC_FORMAT = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const isIfscFormat = (code: string): boolean => IFSC_FORMAT.test(code);

/** The bank of an IFSC's 4-letter bank code, undefined for a code that is malformed or not a known bank. */
export const ifscBankOf = (code: string): string | undefined => {
  if (!isIfscFormat(code)) return undefined;
  const prefix = code.slice(0, 4);
  return Object.hasOwn(IFSC_BANK_NAMES, prefix) ? IFSC_BANK_NAMES[prefix] : undefined;
};

/** A CPF (11 digits, two mod-11 check digits), with or without its punctuation: 123.456.789-09. */
export const isValidCpf = (value: string): boolean => isValidCpfNumber(value);

/** A numeric CNPJ (14 digits, two mod-11 check digits), with or without its punctuation: 12.345.678/0001-95. */
export const isValidCnpj = (value: string): boolean =>
  isValidNumericOrAlphanumericCnpj(value, { version: 1 });

export const PAYEE_RULES = ['required', 'unknown_bank', 'format', 'invalid_cpf', 'invalid_cnpj'] as const;
/** A machine id of the failed rule: the console shows its own text by field + rule. */
export type PayeeRule = (typeof PAYEE_RULES)[number];
export type PayeeField = keyof PayeeFields;
export type PayeeIssue = { rule: PayeeRule; message: string };
export type PayeeIssues = Partial<Record<PayeeField, PayeeIssue>>;

const ACCOUNT_NO: Record<Country, { format: RegExp; message: string }> = {
  CN: { format: /^\d{8,30}$/, message: 'The receiving account must be 8 to 30 digits.' },
  IN: { format: /^\d{9,18}$/, message: 'The receiving account must be 9 to 18 digits.' },
  // Brazilian accounts are written with their check digit after a dash; Banco do Brasil's can be X.
  BR: {
    format: /^\d{1,20}(-[\dX])?$/i,
    message:
      'The receiving account must be 1 to 20 digits, optionally followed by - and its check digit (e.g. 12345-6).',
  },
  VN: { format: /^\d{6,19}$/, message: 'The receiving account must be 6 to 19 digits.' },
};

const BANK_LIST_NAME: Record<Country, string> = {
  CN: 'the list of Chinese banks',
  IN: 'the list of Indian banks',
  BR: 'the list of Brazilian banks',
  VN: 'the NAPAS list',
};

const required = (label: string): PayeeIssue => ({
  rule: 'required',
  message: `The ${label} field is required.`,
});

function bankCodeIssue(country: Country, code: string | undefined): PayeeIssue | undefined {
  if (!code) return required('bank');
  if (!BANK_CODES[country].has(code)) {
    return { rule: 'unknown_bank', message: `The bank ${code} is not in ${BANK_LIST_NAME[country]}.` };
  }
  return undefined;
}

function ifscIssue(ifsc: string | undefined): PayeeIssue | undefined {
  if (!ifsc) return required('IFSC');
  if (!isIfscFormat(ifsc)) {
    return {
      rule: 'format',
      message:
        'The IFSC must be 11 characters: 4 capital letters, a 0, then 6 letters or digits (e.g. SBIN0001234).',
    };
  }
  if (!ifscBankOf(ifsc)) {
    return { rule: 'unknown_bank', message: `The IFSC's bank code ${ifsc.slice(0, 4)} is not a known bank.` };
  }
  return undefined;
}

// Individuals are paid to their CPF, companies to their CNPJ; a valid number of the other kind is named
// as such, since that is the usual mistake.
function cpfCnpjIssue(
  accountType: PayeeFields['account_type'],
  value: string | undefined,
): PayeeIssue | undefined {
  if (accountType === 'company') {
    if (!value) return { rule: 'required', message: 'The CNPJ field is required for a company.' };
    if (isValidCnpj(value)) return undefined;
    return {
      rule: 'invalid_cnpj',
      message: isValidCpf(value)
        ? 'A company is paid to its CNPJ (14 digits), not a CPF.'
        : 'The CNPJ must be 14 digits with valid check digits (e.g. 12.345.678/0001-95).',
    };
  }
  if (!value) return { rule: 'required', message: 'The CPF field is required for an individual.' };
  if (isValidCpf(value)) return undefined;
  return {
    rule: 'invalid_cpf',
    message: isValidCnpj(value)
      ? 'An individual is paid to their CPF (11 digits), not a CNPJ.'
      : 'The CPF must be 11 digits with valid check digits (e.g. 123.456.789-09).',
  };
}

/**
 * The payee fields that break the rules of the channel's country, each with its rule and an English
 * message (the server's answer); fields the country does not use are ignored.
 */
export function payeeIssues(country: Country, fields: PayeeFields): PayeeIssues {
  const issues: PayeeIssues = {};
  const report = (field: PayeeField, issue: PayeeIssue | undefined) => {
    if (issue) issues[field] = issue;
  };
  switch (country) {
    case 'CN':
      report('bank_code', bankCodeIssue(country, fields.bank_code));
      if (!fields.bank_name) report('bank_name', required('bank name'));
      // The branch name is asked but optional (spec section 5 does not list it among the required fields).
      break;
    case 'IN':
      report('ifsc', ifscIssue(fields.ifsc));
      break;
    case 'BR':
      report('cpf_cnpj', cpfCnpjIssue(fields.account_type, fields.cpf_cnpj));
      report('bank_code', bankCodeIssue(country, fields.bank_code));
      break;
    case 'VN':
      report('bank_code', bankCodeIssue(country, fields.bank_code));
      break;
  }
  const account = ACCOUNT_NO[country];
  if (!fields.account_no) report('account_no', required('receiving account'));
  else if (!account.format.test(fields.account_no))
    report('account_no', { rule: 'format', message: account.message });
  return issues;
}

const PAYEE_FIELDS = new Set<PropertyKey>(PayeeFieldsSchema.keyof().options);

// The country's rules run as soon as the payee fields themselves parse, so the form shows them alongside
// the other fields' errors (an empty amount does not hide an unknown IFSC).
const payeeRules = (country: Country) =>
  [
    (body: PayeeFields, ctx: z.core.$RefinementCtx<PayeeFields>) => {
      for (const [field, issue] of Object.entries(payeeIssues(country, body))) {
        if (!issue) continue;
        ctx.addIssue({ code: 'custom', path: [field], message: issue.message, params: { rule: issue.rule } });
      }
    },
    {
      when: (payload: z.core.ParsePayload) =>
        !payload.issues.some((issue) => PAYEE_FIELDS.has(issue.path?.[0] ?? '')),
    },
  ] as const;

/** The console's payout form with the bank rules of the channel's country (issue.params.rule names the rule). */
export const payoutFormSchema = (country: Country) =>
  ConsolePayoutBodySchema.superRefine(...payeeRules(country));

/** A gateway payout with the bank rules of the channel's country (issue.params.rule names the rule). */
export const gatewayPayoutSchema = (country: Country) =>
  CreatePayoutBodySchema.superRefine(...payeeRules(country));

/** An account number as lists and callbacks show it: only the last 4 characters, fewer for short values. */
export function maskAccount(value: string): string {
  const visible = value.length >= 8 ? 4 : Math.min(2, Math.floor(value.length / 2));
  return '*'.repeat(value.length - visible) + value.slice(value.length - visible);
}
