import { describe, expect, it } from 'vitest';
import { maskAccount, payeeFieldsOf, payeeIssues } from './payee-rules.ts';

const rulesOf = (issues: ReturnType<typeof payeeIssues>) =>
  Object.fromEntries(Object.entries(issues).map(([field, issue]) => [field, issue.rule]));

describe('the Send money form’s payee rules', () => {
  it('asks each country for its own bank details', () => {
    expect(payeeFieldsOf('CN')).toEqual([
      'bank_code',
      'bank_name',
      'branch_name',
      'payee_name',
      'account_no',
    ]);
    expect(payeeFieldsOf('IN')).toEqual(['ifsc', 'payee_name', 'account_no']);
    expect(payeeFieldsOf('BR')).toEqual(['bank_code', 'cpf_cnpj', 'payee_name', 'account_no']);
    expect(payeeFieldsOf('VN')).toEqual(['bank_code', 'payee_name', 'account_no']);
  });

  it('requires every field but the branch, blank counting as empty', () => {
    expect(rulesOf(payeeIssues('CN', { account_type: 'individual', payee_name: '  ' }))).toEqual({
      bank_code: 'required',
      bank_name: 'required',
      payee_name: 'required',
      account_no: 'required',
    });
  });

  it('checks the IFSC’s pattern and its bank as the server does', () => {
    const base = { account_type: 'individual', payee_name: 'A', account_no: '123456789' } as const;
    expect(payeeIssues('IN', { ...base, ifsc: 'SBIN0001234' })).toEqual({});
    for (const ifsc of ['SBIN1001234', 'SBI00001234', 'sbin0001234', 'SBIN000123'])
      expect(rulesOf(payeeIssues('IN', { ...base, ifsc }))).toEqual({ ifsc: 'format' });
    expect(rulesOf(payeeIssues('IN', { ...base, ifsc: 'ZZZZ0001234' }))).toEqual({ ifsc: 'unknown_bank' });
  });

  it('checks the CPF’s and the CNPJ’s check digits, and which one the account type takes', () => {
    const base = { bank_code: '001', payee_name: 'A', account_no: '12345-6' };
    const cpf = '123.456.789-09';
    const cnpj = '12.345.678/0001-95';
    expect(payeeIssues('BR', { ...base, account_type: 'individual', cpf_cnpj: cpf })).toEqual({});
    expect(payeeIssues('BR', { ...base, account_type: 'company', cpf_cnpj: cnpj })).toEqual({});
    expect(rulesOf(payeeIssues('BR', { ...base, account_type: 'company', cpf_cnpj: cpf }))).toEqual({
      cpf_cnpj: 'invalid_cnpj',
    });
    expect(
      rulesOf(payeeIssues('BR', { ...base, account_type: 'individual', cpf_cnpj: '123.456.789-00' })),
    ).toEqual({
      cpf_cnpj: 'invalid_cpf',
    });
  });

  it('checks the account’s format per country and the bank against the country’s list', () => {
    const cn = {
      account_type: 'individual',
      bank_code: 'CMB',
      bank_name: '招商银行',
      payee_name: '张三',
    } as const;
    expect(rulesOf(payeeIssues('CN', { ...cn, account_no: '6222 0202' }))).toEqual({ account_no: 'format' });
    expect(rulesOf(payeeIssues('VN', { ...cn, bank_code: 'NOPE', account_no: '0123456789' }))).toEqual({
      bank_code: 'unknown_bank',
    });
  });

  it('masks an account as the server does: the last 4 characters of a long one', () => {
    expect(maskAccount('6222020200112233')).toBe('************2233');
    expect(maskAccount('1234')).toBe('**34');
  });
});
