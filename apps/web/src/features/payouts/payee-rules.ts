import type { Country } from '@paydesk/shared/collections/collections.schemas.ts';
import {
  maskAccount,
  payeeIssues as bankRuleIssues,
  type PayeeIssue,
  type PayeeIssues,
} from '@paydesk/shared/payouts/bank-rules.ts';
import type { AccountType, PayeeFields } from '@paydesk/shared/payouts/payouts.schemas.ts';

// The payee part of the Send money form, per the channel's country (DESIGN section 4). The checks are the
// server's own (packages/shared/src/payouts/bank-rules.ts: CPF and CNPJ check digits, the IFSC's bank, the
// account's format, the bank lists); this file adds only what the form lays out: which fields, in what order.

export { maskAccount, type PayeeIssue };

export type PayeeField =
  'bank_code' | 'bank_name' | 'branch_name' | 'ifsc' | 'cpf_cnpj' | 'payee_name' | 'account_no';

export type PayeeValues = { account_type?: AccountType } & Partial<Record<PayeeField, string>>;

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

/** Individuals are identified by a CPF (11 digits), companies by a CNPJ (14 digits). */
export const taxIdOf = (accountType: AccountType | undefined): 'cpf' | 'cnpj' =>
  accountType === 'company' ? 'cnpj' : 'cpf';

/** What is wrong with each payee field of this country, by field, as the server would find it. */
export function payeeIssues(country: Country, values: PayeeValues): Partial<Record<PayeeField, PayeeIssue>> {
  const fields: Partial<PayeeFields> = { account_type: values.account_type ?? 'individual' };
  for (const field of FIELDS[country]) {
    const value = values[field]?.trim();
    if (value) fields[field] = value;
  }
  const issues: PayeeIssues = bankRuleIssues(country, fields as PayeeFields);
  if (!fields.payee_name) issues.payee_name = { rule: 'required', message: 'The payee field is required.' };
  return issues;
}
