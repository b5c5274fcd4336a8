import { describe, expect, it } from 'vitest';
import { maskAccount, payeeFieldsOf, payeeIssues } from './payee-rules.ts';

const rulesOf = (issues: ReturnType<typeof payeeIssues>) =>
  Object.fromEntries(Object.entries(issues).map(([field, issue]) => [field, issue.rule]));

describe('payee rules (until bank-rules.ts)', () => {
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

  it('requires every field but the branch', () => {
    expect(rulesOf(payeeIssues('CN', { account_type: 'individual', payee_name: '  ' }))).toEqual({
      bank_code: 'required',
      bank_name: 'required',
      payee_name: 'required',
      account_no: 'required',
    });
  });

  it('checks the IFSC pattern', () => {
    const base = { account_type: 'individual', payee_name: 'A', account_no: '1' } as const;
    expect(payeeIssues('IN', { ...base, ifsc: 'SBIN0001234' })).toEqual({});
    for (const ifsc of ['SBIN1001234', 'SBI00001234', 'sbin0001234', 'SBIN000123'])
      expect(rulesOf(payeeIssues('IN', { ...base, ifsc }))).toEqual({ ifsc: 'ifsc_format' });
  });

  it('wants a CPF of 11 digits from individuals and a CNPJ of 14 from companies', () => {
    const base = { bank_code: '001', payee_name: 'A', account_no: '1' };
    const cpf = '123.456.789-09';
    const cnpj = '12.345.678/0001-95';
    expect(payeeIssues('BR', { ...base, account_type: 'individual', cpf_cnpj: cpf })).toEqual({});
    expect(payeeIssues('BR', { ...base, account_type: 'company', cpf_cnpj: cnpj })).toEqual({});
    expect(rulesOf(payeeIssues('BR', { ...base, account_type: 'company', cpf_cnpj: cpf }))).toEqual({
      cpf_cnpj: 'cnpj_length',
    });
    expect(rulesOf(payeeIssues('BR', { ...base, account_type: 'individual', cpf_cnpj: cnpj }))).toEqual({
      cpf_cnpj: 'cpf_length',
    });
    expect(
      rulesOf(payeeIssues('BR', { ...base, account_type: 'individual', cpf_cnpj: '1234567890a' })),
    ).toEqual({ cpf_cnpj: 'cpf_length' });
  });

  it('masks all but the last 4 characters of an account', () => {
    expect(maskAccount(' 6222020200112233 ')).toBe('************2233');
    expect(maskAccount('1234')).toBe('1234');
  });
});
