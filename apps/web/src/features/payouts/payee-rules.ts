import type { Country } from '@paydesk/shared/collections/collections.schemas.ts';
import type { AccountType } from '@paydesk/shared/payouts/payouts.schemas.ts';

// The payee checks the form makes before sending, per the channel's country (DESIGN section 4). A stand-in
// for packages/shared/src/payouts/bank-rules.ts, which is being written: the same shape as its
// payeeIssues(country, fields) and maskAccount, so swapping it in changes this file only. Until then the
// checks are the simple ones (required fields, the IFSC pattern, the CPF and CNPJ lengths); the server
// checks the rest (check digits, the IFSC's bank, the NAPAS list) and names the field in its 422.

export type PayeeField =
  'bank_code' | 'bank_name' | 'branch_name' | 'ifsc' | 'cpf_cnpj' | 'payee_name' | 'account_no';

export type PayeeValues = { account_type?: AccountType } & Partial<Record<PayeeField, string>>;

export type PayeeRule = 'required' | 'ifsc_format' | 'cpf_length' | 'cnpj_length';
export type PayeeIssue = { rule: PayeeRule; message: string };

/** The bank details each country's payouts take, in the order the form asks for them. */
const FIELDS: Record<Country, readonly PayeeField[]> = {
  CN: ['bank_code', 'bank_name', 'branch_name', 'payee_name', 'account_no'],
  // The bank follows from the IFSC: there is no list to choose from.
  IN: ['ifsc', 'payee_name', 'account_no'],
  BR: ['bank_code', 'cpf_cnpj', 'payee_name', 'account_no'],
  VN: ['bank_code', 'payee_name', 'account_no'],
};

/** Asked for but not required (spec section 5 requires the bank name, not the branch). */
const OPTIONAL: ReadonlySet<PayeeField> = new Set(['branch_name']);

export const payeeFieldsOf = (country: Country): readonly PayeeField[] => FIELDS[country];

export const isPayeeFieldRequired = (field: PayeeField): boolean => !OPTIONAL.has(field);

export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;

/** Individuals are identified by a CPF (11 digits), companies by a CNPJ (14 digits). */
export const taxIdOf = (accountType: AccountType | undefined): 'cpf' | 'cnpj' =>
  accountType === 'company' ? 'cnpj' : 'cpf';

const TAX_ID_DIGITS = { cpf: 11, cnpj: 14 } as const;

const digitsOf = (value: string): string | undefined =>
  /^[\d.\-/\s]+$/.test(value) ? value.replace(/\D/g, '') : undefined;

/** What is wrong with each of the payee fields of this country, by field (none: nothing found). */
export function payeeIssues(country: Country, fields: PayeeValues): Partial<Record<PayeeField, PayeeIssue>> {
  const issues: Partial<Record<PayeeField, PayeeIssue>> = {};
  for (const field of FIELDS[country]) {
    const value = fields[field]?.trim() ?? '';
    if (!value) {
      if (!OPTIONAL.has(field)) issues[field] = { rule: 'required', message: `The ${field} is required.` };
      continue;
    }
    if (field === 'ifsc' && !IFSC_PATTERN.test(value)) {
      issues.ifsc = { rule: 'ifsc_format', message: 'An IFSC is 4 letters, a 0 and 6 letters or digits.' };
    }
    if (field === 'cpf_cnpj') {
      const kind = taxIdOf(fields.account_type);
      if (digitsOf(value)?.length !== TAX_ID_DIGITS[kind]) {
        issues.cpf_cnpj = {
          rule: kind === 'cpf' ? 'cpf_length' : 'cnpj_length',
          message: `A ${kind.toUpperCase()} has ${TAX_ID_DIGITS[kind]} digits.`,
        };
      }
    }
  }
  return issues;
}

/** "6222020200112233" -> "************2233": all but the last 4 characters hidden, as the server answers. */
export const maskAccount = (account: string): string => {
  const value = account.trim();
  return value.length <= 4 ? value : '*'.repeat(value.length - 4) + value.slice(-4);
};
