import type { Currency } from '@paydesk/shared';

// A valid payee of each country's payout form, for the demo data and demo traffic (never real people).

/** The payee of a demo payout in the merchant's country. */
export const DEMO_PAYEES: Record<Extract<Currency, 'CNY' | 'INR' | 'BRL' | 'VND'>, Record<string, string>> = {
  CNY: {
    account_type: 'individual',
    bank_code: 'ICBC',
    bank_name: '中国工商银行',
    branch_name: '上海分行',
    payee_name: '张伟',
    account_no: '6222020200112233445',
  },
  INR: {
    account_type: 'individual',
    ifsc: 'SBIN0001234',
    payee_name: 'Priya Sharma',
    account_no: '123456789012',
  },
  BRL: {
    account_type: 'individual',
    bank_code: '341',
    cpf_cnpj: '529.982.247-25',
    payee_name: 'Ana Souza',
    account_no: '12345-6',
  },
  VND: {
    account_type: 'individual',
    bank_code: '970436',
    payee_name: 'Nguyen Van An',
    account_no: '0011004455667',
  },
};
