import { getBankByCode } from '@brazilian-utils/brazilian-utils/get-bank-by-code';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Country } from '../collections/collections.schemas.ts';
import {
  banksOf,
  gatewayPayoutSchema,
  ifscBankOf,
  isIfscFormat,
  isValidCnpj,
  isValidCpf,
  maskAccount,
  payeeIssues,
  payoutFormSchema,
} from './bank-rules.ts';
import type { PayeeFields } from './payouts.schemas.ts';

const VALID: Record<Country, PayeeFields> = {
  CN: {
    account_type: 'individual',
    bank_code: 'ICBC',
    bank_name: '中国工商银行',
    branch_name: '上海分行营业部',
    payee_name: '张三',
    account_no: '6222021234567890123',
  },
  IN: { account_type: 'individual', ifsc: 'SBIN0001234', payee_name: 'Asha Rao', account_no: '123456789012' },
  BR: {
    account_type: 'individual',
    cpf_cnpj: '123.456.789-09',
    bank_code: '341',
    payee_name: 'João Silva',
    account_no: '12345-6',
  },
  VN: {
    account_type: 'individual',
    bank_code: '970436',
    payee_name: 'Nguyen Van A',
    account_no: '0123456789',
  },
};

const COUNTRIES = Object.keys(VALID) as Country[];
const ruleOf = (country: Country, fields: Partial<PayeeFields>) =>
  Object.fromEntries(
    Object.entries(payeeIssues(country, { ...VALID[country], ...fields })).map(([field, issue]) => [
      field,
      issue?.rule,
    ]),
  );

// The mod-11 check digits of CPF and CNPJ, written from the Receita Federal's rule independently of the
// library the code uses: the weighted sum's remainder r gives 11 - r, or 0 when r < 2.
const checkDigit = (digits: readonly number[], weights: readonly number[]) => {
  const r = digits.reduce((sum, digit, i) => sum + digit * weights[i], 0) % 11;
  return r < 2 ? 0 : 11 - r;
};
const withCpfCheckDigits = (base: number[]) => {
  const first = checkDigit(base, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...base, first, checkDigit([...base, first], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])];
};
const CNPJ_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const withCnpjCheckDigits = (base: number[]) => {
  const first = checkDigit(base, CNPJ_WEIGHTS);
  return [...base, first, checkDigit([...base, first], [6, ...CNPJ_WEIGHTS])];
};
const allSame = (digits: readonly number[]) => digits.every((digit) => digit === digits[0]);

describe('banksOf', () => {
  it('lists the Chinese banks by their common codes, with their Chinese names', () => {
    const banks = banksOf('CN');
    expect(banks).toContainEqual({ code: 'ICBC', name: '中国工商银行' });
    for (const code of ['CCB', 'ABC', 'BOC', 'BOCOM', 'CMB', 'CITIC', 'CEB', 'HXB', 'CMBC', 'PAB', 'CIB']) {
      expect(banks.map((bank) => bank.code)).toContain(code);
    }
    for (const code of ['SPDB', 'GDB', 'PSBC']) expect(banks.map((bank) => bank.code)).toContain(code);
  });

  it('lists the Brazilian banks by COMPE codes that the Banco Central publishes', () => {
    const banks = banksOf('BR');
    expect(banks).toContainEqual({ code: '001', name: 'Banco do Brasil' });
    expect(banks.find((bank) => bank.code === '260')?.name).toMatch(/Nu/);
    for (const bank of banks) expect(getBankByCode(bank.code), bank.code).toBeDefined();
  });

  it('lists the NAPAS banks by BIN, Vietcombank among them, each BIN once', () => {
    const banks = banksOf('VN');
    expect(banks).toContainEqual({ code: '970436', name: 'Vietcombank' });
    expect(banks.length).toBeGreaterThanOrEqual(40);
    for (const bank of banks) expect(bank.code).toMatch(/^\d{6}$/);
    expect(new Set(banks.map((bank) => bank.code)).size).toBe(banks.length);
    // LienVietPostBank was renamed LPBank: only the current name is offered.
    expect(banks.filter((bank) => bank.code === '970449')).toEqual([{ code: '970449', name: 'LPBank' }]);
  });

  it('offers no banks for India, and every list has unique codes', () => {
    expect(banksOf('IN')).toEqual([]);
    for (const country of COUNTRIES) {
      const codes = banksOf(country).map((bank) => bank.code);
      expect(new Set(codes).size, country).toBe(codes.length);
    }
  });

  it('hands out copies, so a caller cannot change the list', () => {
    banksOf('CN')[0].name = 'changed';
    expect(banksOf('CN')[0].name).toBe('中国工商银行');
  });
});

describe('IFSC', () => {
  it('is 4 letters, a 0, then 6 letters or digits', () => {
    expect(isIfscFormat('SBIN0001234')).toBe(true);
    expect(isIfscFormat('HDFC0CAACOB')).toBe(true);
    for (const code of ['SBIN1001234', 'sbin0001234', 'SBIN000123', 'SBIN00012345', 'SB1N0001234', '']) {
      expect(isIfscFormat(code), code).toBe(false);
    }
  });

  it('names the bank of a known prefix from the published IFSC data', () => {
    expect(ifscBankOf('SBIN0001234')).toBe('State Bank of India');
    expect(ifscBankOf('HDFC0000001')).toBe('HDFC Bank');
    expect(ifscBankOf('ZZZZ0001234')).toBeUndefined();
    expect(ifscBankOf('SBIN1001234')).toBeUndefined();
  });
});

describe('CPF and CNPJ', () => {
  it('accepts valid numbers with or without punctuation', () => {
    for (const cpf of ['123.456.789-09', '12345678909', '529.982.247-25', '11144477735']) {
      expect(isValidCpf(cpf), cpf).toBe(true);
    }
    for (const cnpj of ['12.345.678/0001-95', '12345678000195', '11.222.333/0001-81', '11444777000161']) {
      expect(isValidCnpj(cnpj), cnpj).toBe(true);
    }
  });

  it('refuses wrong check digits, wrong lengths, letters and all-same-digit numbers', () => {
    for (const cpf of [
      '123.456.789-00',
      '12345678919',
      '1234567890',
      '123456789090',
      '111.111.111-11',
      '00000000000',
    ]) {
      expect(isValidCpf(cpf), cpf).toBe(false);
    }
    for (const cnpj of [
      '12.345.678/0001-90',
      '12345678000196',
      '1234567800019',
      '11111111111111',
      'AB345678000195',
    ]) {
      expect(isValidCnpj(cnpj), cnpj).toBe(false);
    }
    // The alphanumeric CNPJ (check digits valid) is not taken yet: a CNPJ is 14 digits here.
    expect(isValidCnpj('Q0.SLF.MBD/7VX4-39')).toBe(false);
    // A CPF is not a CNPJ and the other way round.
    expect(isValidCnpj('12345678909')).toBe(false);
    expect(isValidCpf('12345678000195')).toBe(false);
  });

  it('a 9-digit base with its computed check digits is a CPF; a changed check digit never is', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 }),
        fc.integer({ min: 9, max: 10 }),
        fc.integer({ min: 1, max: 9 }),
        (base, position, delta) => {
          fc.pre(!allSame(base));
          const cpf = withCpfCheckDigits(base);
          expect(isValidCpf(cpf.join(''))).toBe(true);
          const changed = cpf.with(position, (cpf[position] + delta) % 10);
          expect(isValidCpf(changed.join(''))).toBe(false);
        },
      ),
    );
  });

  // Mod 11 maps the remainders 0 and 1 to the same check digit, so a few single-digit changes of the base
  // keep both check digits (65247069005 -> 55247069005): those are skipped here and pinned below.
  it('changing one digit of a CPF base makes it invalid unless the check digits happen to stay the same', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 1, max: 9 }),
        (base, position, delta) => {
          const cpf = withCpfCheckDigits(base);
          const changedBase = base.with(position, (base[position] + delta) % 10);
          fc.pre(withCpfCheckDigits(changedBase).slice(9).join('') !== cpf.slice(9).join(''));
          expect(isValidCpf([...changedBase, ...cpf.slice(9)].join(''))).toBe(false);
        },
      ),
    );
    expect(isValidCpf('65247069005')).toBe(true);
    expect(isValidCpf('55247069005')).toBe(true);
  });

  it('a 12-digit base with its computed check digits is a CNPJ; one changed digit is not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 12 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 1, max: 9 }),
        (base, position, delta) => {
          fc.pre(!allSame(base));
          const cnpj = withCnpjCheckDigits(base);
          expect(isValidCnpj(cnpj.join(''))).toBe(true);
          const changed = cnpj.with(position, (cnpj[position] + delta) % 10);
          fc.pre(position >= 12 || withCnpjCheckDigits(changed.slice(0, 12)).join('') !== changed.join(''));
          expect(isValidCnpj(changed.join(''))).toBe(false);
        },
      ),
    );
    expect(isValidCnpj('51728998412700')).toBe(true);
    expect(isValidCnpj('51728998612700')).toBe(true);
  });
});

describe('payeeIssues', () => {
  it("passes each country's valid example", () => {
    for (const country of COUNTRIES) expect(payeeIssues(country, VALID[country]), country).toEqual({});
    expect(
      payeeIssues('BR', { ...VALID.BR, account_type: 'company', cpf_cnpj: '12.345.678/0001-95' }),
    ).toEqual({});
    expect(payeeIssues('BR', { ...VALID.BR, account_no: '1234567' })).toEqual({});
    expect(payeeIssues('BR', { ...VALID.BR, account_no: '1234567-X' })).toEqual({});
  });

  it('CN: a bank from the list and its name (the branch is optional), an account of 8 to 30 digits', () => {
    expect(ruleOf('CN', { bank_code: undefined })).toEqual({ bank_code: 'required' });
    expect(ruleOf('CN', { bank_code: 'HSBC' })).toEqual({ bank_code: 'unknown_bank' });
    expect(ruleOf('CN', { bank_name: undefined, branch_name: undefined })).toEqual({
      bank_name: 'required',
    });
    expect(ruleOf('CN', { account_no: '1234567' })).toEqual({ account_no: 'format' });
    expect(ruleOf('CN', { account_no: '1'.repeat(31) })).toEqual({ account_no: 'format' });
    expect(ruleOf('CN', { account_no: '6222 0212 3456' })).toEqual({ account_no: 'format' });
    expect(ruleOf('CN', { account_no: '12345678' })).toEqual({});
  });

  it('IN: an IFSC of the right format and a known bank, an account of 9 to 18 digits', () => {
    expect(ruleOf('IN', { ifsc: undefined })).toEqual({ ifsc: 'required' });
    expect(ruleOf('IN', { ifsc: 'SBIN1001234' })).toEqual({ ifsc: 'format' });
    expect(ruleOf('IN', { ifsc: 'ZZZZ0001234' })).toEqual({ ifsc: 'unknown_bank' });
    expect(payeeIssues('IN', { ...VALID.IN, ifsc: 'ZZZZ0001234' }).ifsc?.message).toBe(
      "The IFSC's bank code ZZZZ is not a known bank.",
    );
    expect(ruleOf('IN', { account_no: '12345678' })).toEqual({ account_no: 'format' });
    expect(ruleOf('IN', { account_no: '1'.repeat(19) })).toEqual({ account_no: 'format' });
  });

  it('BR: a CPF for an individual, a CNPJ for a company, saying which one is expected', () => {
    const individual = payeeIssues('BR', { ...VALID.BR, cpf_cnpj: undefined });
    expect(individual.cpf_cnpj).toEqual({ rule: 'required', message: expect.stringMatching(/CPF/) });
    const company = payeeIssues('BR', { ...VALID.BR, account_type: 'company', cpf_cnpj: undefined });
    expect(company.cpf_cnpj).toEqual({ rule: 'required', message: expect.stringMatching(/CNPJ/) });

    const cnpjForIndividual = payeeIssues('BR', { ...VALID.BR, cpf_cnpj: '12.345.678/0001-95' }).cpf_cnpj;
    expect(cnpjForIndividual).toEqual({
      rule: 'invalid_cpf',
      message: expect.stringMatching(/CPF \(11 digits\)/),
    });
    const cpfForCompany = payeeIssues('BR', { ...VALID.BR, account_type: 'company' }).cpf_cnpj;
    expect(cpfForCompany).toEqual({
      rule: 'invalid_cnpj',
      message: expect.stringMatching(/CNPJ \(14 digits\)/),
    });

    expect(ruleOf('BR', { cpf_cnpj: '123.456.789-00' })).toEqual({ cpf_cnpj: 'invalid_cpf' });
    expect(ruleOf('BR', { account_type: 'company', cpf_cnpj: '12.345.678/0001-90' })).toEqual({
      cpf_cnpj: 'invalid_cnpj',
    });
  });

  it('BR: a bank from the list and an account of 1 to 20 digits with an optional check digit', () => {
    expect(ruleOf('BR', { bank_code: undefined })).toEqual({ bank_code: 'required' });
    expect(ruleOf('BR', { bank_code: '999' })).toEqual({ bank_code: 'unknown_bank' });
    expect(ruleOf('BR', { bank_code: '1' })).toEqual({ bank_code: 'unknown_bank' });
    for (const account_no of ['1'.repeat(21), '12345-', '12345-67', '-6', '12.345-6']) {
      expect(ruleOf('BR', { account_no }), account_no).toEqual({ account_no: 'format' });
    }
  });

  it('VN: a NAPAS bank and an account of 6 to 19 digits', () => {
    expect(ruleOf('VN', { bank_code: undefined })).toEqual({ bank_code: 'required' });
    expect(ruleOf('VN', { bank_code: 'VCB' })).toEqual({ bank_code: 'unknown_bank' });
    expect(ruleOf('VN', { account_no: '12345' })).toEqual({ account_no: 'format' });
    expect(ruleOf('VN', { account_no: '1'.repeat(20) })).toEqual({ account_no: 'format' });
  });

  it('ignores the fields a country does not use', () => {
    const unused = {
      bank_code: 'NOPE',
      ifsc: 'bad',
      cpf_cnpj: '1',
      bank_name: undefined,
      branch_name: undefined,
    };
    expect(payeeIssues('IN', { ...VALID.IN, ...unused, ifsc: VALID.IN.ifsc })).toEqual({});
    expect(payeeIssues('VN', { ...VALID.VN, ...unused, bank_code: VALID.VN.bank_code })).toEqual({});
    expect(payeeIssues('CN', { ...VALID.CN, ifsc: 'bad', cpf_cnpj: '1' })).toEqual({});
    expect(
      payeeIssues('BR', { ...VALID.BR, ifsc: 'bad', bank_name: undefined, branch_name: undefined }),
    ).toEqual({});
  });
});

describe('payoutFormSchema and gatewayPayoutSchema', () => {
  const consoleBody = {
    ...VALID.IN,
    channel: 'sandbox-in',
    amount: '100.00',
    payment_password: 'secret1',
    code: '123456',
  };
  const gatewayBody = { ...VALID.BR, out_trade_no: 'ORDER-1', amount: '50.00' };
  const issuesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    (result.error?.issues ?? []).map((issue) => ({
      path: issue.path.join('.'),
      rule: (issue as { params?: { rule?: string } }).params?.rule,
    }));

  it('pass valid bodies', () => {
    expect(payoutFormSchema('IN').safeParse(consoleBody).success).toBe(true);
    expect(gatewayPayoutSchema('BR').safeParse(gatewayBody).success).toBe(true);
  });

  it("report the country's rules on the fields' paths with the rule's id", () => {
    const form = payoutFormSchema('IN').safeParse({ ...consoleBody, ifsc: 'ZZZZ0001234', account_no: '12' });
    expect(issuesOf(form)).toEqual([
      { path: 'ifsc', rule: 'unknown_bank' },
      { path: 'account_no', rule: 'format' },
    ]);
    const gateway = gatewayPayoutSchema('BR').safeParse({ ...gatewayBody, account_type: 'company' });
    expect(issuesOf(gateway)).toEqual([{ path: 'cpf_cnpj', rule: 'invalid_cnpj' }]);
    expect(gateway.error?.issues[0].message).toMatch(/CNPJ/);
  });

  it("report the rules together with the other fields' errors", () => {
    const form = payoutFormSchema('IN').safeParse({ ...consoleBody, amount: '', ifsc: 'sbin0001234' });
    expect(issuesOf(form)).toEqual([
      { path: 'amount', rule: undefined },
      { path: 'ifsc', rule: 'format' },
    ]);
  });

  it('leave the country rules until the payee fields themselves parse', () => {
    const gateway = gatewayPayoutSchema('VN').safeParse({
      ...VALID.VN,
      out_trade_no: 'O-2',
      amount: '1',
      payee_name: '',
    });
    expect(issuesOf(gateway)).toEqual([{ path: 'payee_name', rule: undefined }]);
  });

  it('read an empty optional field as missing', () => {
    const form = payoutFormSchema('CN').safeParse({ ...consoleBody, ...VALID.CN, bank_name: '  ' });
    expect(issuesOf(form)).toEqual([{ path: 'bank_name', rule: 'required' }]);
  });
});

describe('maskAccount', () => {
  it('hides all but the last 4 characters', () => {
    expect(maskAccount('6222021234561234')).toBe('************1234');
    expect(maskAccount('12345678')).toBe('****5678');
  });

  it('shows at most the last 2 of a short value, and never all of it', () => {
    expect(maskAccount('1234567')).toBe('*****67');
    expect(maskAccount('1234')).toBe('**34');
    expect(maskAccount('123')).toBe('**3');
    expect(maskAccount('1')).toBe('*');
    expect(maskAccount('')).toBe('');
  });
});
