import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PayoutChannel, PayoutDetail } from '@paydesk/shared/payouts/payouts.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { dialogTitled, errorUnder, formLabels } from '../../../test/antd.ts';
import { answerCreations, type Creations } from '../../../test/forms.ts';
import { payout, payoutChannel, SANDBOX_CN } from '../../../test/payouts.ts';
import { renderRoute, typist } from '../../../test/render.tsx';
import { apiError, http, json, server, signInAs } from '../../../test/server.ts';
import PayoutApplyPage from './payout-apply-page.tsx';

// antd renders slowly in jsdom when the machine is busy: wait longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const CHANNELS: Record<PayoutChannel['country'], PayoutChannel> = {
  CN: SANDBOX_CN,
  IN: payoutChannel('IN', 'INR', ['1', '5.00'], ['100.00', '200000.00']),
  BR: payoutChannel(
    'BR',
    'BRL',
    ['2', '1.00'],
    ['5.00', '50000.00'],
    [{ code: '001', name: 'Banco do Brasil' }],
  ),
  VN: payoutChannel(
    'VN',
    'VND',
    ['0.8', '5000'],
    ['50000', '500000000'],
    [
      { code: 'VCB', name: 'Vietcombank' },
      { code: 'TCB', name: 'Techcombank' },
    ],
  ),
};

const created = (changes: Partial<PayoutDetail> = {}): PayoutDetail => ({
  ...payout('P20260301000001', {
    out_trade_no: 'C20260301000001',
    status: 'processing',
    amount: '1000.00',
    fee: '15.50',
    finished_at: null,
    note: 'March rent',
    created_by_user_id: 1,
  }),
  timeline: [{ step: 'created', at: '2026-03-01T00:30:00Z' }],
  callbacks: [],
  attempts: [],
  created_by: { id: 1, name: 'Root user' },
  reviewed_by: null,
  reviewed_at: null,
  ...changes,
});

/** The payouts sent (the page reads with GET only the user and the channels), and the answers to them. */
let creations: Creations;
let channels: { channels: PayoutChannel[]; available: string; currency: string };

beforeEach(async () => {
  await changeLanguage('en');
  channels = { channels: [CHANNELS.CN], available: '20000.00', currency: 'CNY' };
  creations = answerCreations('/api/merchant/payouts', () => json({ data: created() }, 201));
  signInAs({ perms: ['payout:view', 'payout:create', 'contact:view'] });
  server.use(http.get('/api/merchant/payout-channels', () => json({ data: channels })));
});

const renderPage = () =>
  renderRoute(PayoutApplyPage, {
    path: '/behalfPay/apply',
    pages: { '/behalfPay/transfers': 'History page', '/contactUs': 'Contact page' },
  }).router;

// "Confirm and pay" is found by how its name ends: jsdom never ends the motion of an earlier answer's
// spinner, which stays in the name.

/** antd leaves a closed dialog in the document under jsdom, in its leaving state. */
const isClosing = (dialog: HTMLElement) => /-leave\b/.test(dialog.className);

async function choose(label: string, option: string) {
  const u = typist();
  await u.click(screen.getByRole('combobox', { name: label }));
  await u.click(await screen.findByTitle(option));
}

async function fillChina({ amount = '1000.00' } = {}) {
  const u = typist();
  await screen.findByLabelText('Payee');
  await choose('Bank', 'China Merchants Bank');
  await u.type(screen.getByLabelText('Branch name'), 'Shenzhen Branch');
  await u.type(screen.getByLabelText('Payee'), ' Li Lei ');
  await u.type(screen.getByLabelText('Receiving account'), '6222020200112233');
  await u.type(screen.getByLabelText('Amount'), amount);
  await u.type(screen.getByLabelText('Note'), 'March rent');
  await u.type(screen.getByLabelText('Payment password'), 'pay-123456');
  await u.type(screen.getByLabelText('Google code'), '123456');
}

const CHINA_BODY = {
  channel: 'sandbox-cn',
  account_type: 'individual',
  bank_code: 'CMB',
  // Filled from the bank chosen.
  bank_name: 'China Merchants Bank',
  branch_name: 'Shenzhen Branch',
  payee_name: 'Li Lei',
  account_no: '6222020200112233',
  amount: '1000.00',
  note: 'March rent',
  payment_password: 'pay-123456',
  code: '123456',
};

const pay = async () => typist().click(screen.getByRole('button', { name: /Pay$/ }));

describe('Send money', { timeout: 60_000 }, () => {
  const COMMON_TAIL = [
    'Payee',
    'Receiving account',
    'Amount',
    'Service fee',
    'Total deducted',
    'Available balance',
    'Note',
    'Payment password',
    'Google code',
  ];
  it.each([
    ['CN', ['Bank', 'Bank name', 'Branch name'], 'China Merchants Bank'],
    ['IN', ['IFSC code'], undefined],
    ['BR', ['Bank', 'CPF'], 'Banco do Brasil'],
    ['VN', ['Bank'], 'Techcombank'],
  ] as const)('asks a %s channel for its own bank details', async (country, bankFields, aBank) => {
    channels = { channels: [CHANNELS[country]], available: '1000', currency: CHANNELS[country].currency };
    renderPage();
    await screen.findByLabelText('Payee');
    expect(formLabels()).toEqual(['Channel', 'Account type', ...bankFields, ...COMMON_TAIL]);
    // The banks are the channel's own.
    if (aBank) {
      await typist().click(screen.getByRole('combobox', { name: 'Bank' }));
      expect(await screen.findByTitle(aBank)).toBeInTheDocument();
    }
  });

  it('asks a company in Brazil for its CNPJ instead of a CPF', async () => {
    channels = { channels: [CHANNELS.BR], available: '1000.00', currency: 'BRL' };
    renderPage();
    const u = typist();
    await u.type(await screen.findByLabelText('CPF'), '123.456.789-09');
    await u.click(screen.getByRole('radio', { name: 'Company' }));
    expect(screen.queryByLabelText('CPF')).toBeNull();
    expect(screen.getByLabelText('CNPJ')).toHaveProperty('placeholder', "The company's 14-digit CNPJ");
    await pay();
    await waitFor(() =>
      expect(errorUnder('CNPJ')).toBe('Please enter a valid CNPJ (14 digits with correct check digits)'),
    );
    expect(creations.sent).toEqual([]);
  });

  it('offers the channels to choose from, and forgets the bank details of the one left', async () => {
    const other: PayoutChannel = {
      ...CHANNELS.CN,
      code: 'bank-cn-2',
      fee_rate: '0.6',
      fixed_fee: '2.00',
      min_amount: '100.00',
      max_amount: '20000.00',
      banks: [{ code: 'BOC', name: 'Bank of China' }],
    };
    channels = { channels: [CHANNELS.CN, other], available: '1000.00', currency: 'CNY' };
    renderPage();
    await screen.findByRole('combobox', { name: 'Channel' });
    // Nothing is asked before a channel is chosen.
    expect(formLabels()).toEqual(['Channel']);
    await choose('Channel', 'sandbox-cn (China)');
    expect(
      await screen.findByText('Fee 1.5% + 0.50 Yuan per payout, amounts from 10.00 to 50,000.00 Yuan'),
    ).toBeInTheDocument();
    await choose('Bank', 'China Merchants Bank');
    expect(screen.getByLabelText('Bank name')).toHaveProperty('value', 'China Merchants Bank');
    await typist().type(screen.getByLabelText('Amount'), '1000');
    expect(screen.getByTestId('payout-fee').textContent).toBe('15.50 Yuan');

    await choose('Channel', 'bank-cn-2 (China)');
    expect(
      await screen.findByText('Fee 0.6% + 2.00 Yuan per payout, amounts from 100.00 to 20,000.00 Yuan'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Bank name')).toHaveProperty('value', '');
    // The amount stays and is priced by the new channel: 1,000 x 0.6% + 2.00.
    expect(screen.getByTestId('payout-fee').textContent).toBe('8.00 Yuan');
    await typist().click(screen.getByRole('combobox', { name: 'Bank' }));
    expect(await screen.findByTitle('Bank of China')).toBeInTheDocument();
    expect(screen.queryByTitle('China Merchants Bank')).toBeNull();
  });

  it('says the form is incomplete and sends nothing', async () => {
    renderPage();
    await screen.findByLabelText('Payee');
    await pay();
    expect(
      await screen.findByText('Please check if the form information is filled in completely'),
    ).toBeInTheDocument();
    await waitFor(() => expect(errorUnder('Bank')).toBe('Please select the bank'));
    expect(errorUnder('Bank name')).toBe('Please enter the bank name');
    expect(errorUnder('Branch name')).toBeUndefined();
    expect(errorUnder('Payee')).toBe('Please enter the payee');
    expect(errorUnder('Receiving account')).toBe('Please enter the receiving account');
    expect(errorUnder('Amount')).toBe('Please enter the amount');
    expect(errorUnder('Payment password')).toBe('Please enter the payment password');
    expect(errorUnder('Google code')).toBe('Please enter the verification code');
    expect(creations.sent).toEqual([]);
  });

  it('shows the fee and the total of the amount exactly, and the available balance', async () => {
    channels = { ...channels, available: '1015.49' };
    renderPage();
    const amount = await screen.findByLabelText('Amount');
    expect(screen.getByTestId('payout-fee').textContent).toBe('-');
    await typist().type(amount, '1000.00');
    // 1,000.00 x 1.5% + 0.50
    expect(screen.getByTestId('payout-fee').textContent).toBe('15.50 Yuan');
    expect(screen.getByTestId('payout-total').textContent).toBe('1,015.50 Yuan');
    expect(screen.getByTestId('payout-available').textContent).toBe('1,015.49 Yuan');
    expect(screen.getByText('The total is more than the available balance.')).toBeInTheDocument();
    await typist().clear(amount);
    await typist().type(amount, '33.33');
    // 0.49995 rounds half up to 0.50.
    expect(screen.getByTestId('payout-fee').textContent).toBe('1.00 Yuan');
    expect(screen.getByTestId('payout-total').textContent).toBe('34.33 Yuan');
    expect(screen.queryByText('The total is more than the available balance.')).toBeNull();
    await typist().type(amount, '5');
    await typist().tab();
    expect(screen.getByTestId('payout-fee').textContent).toBe('-');
    await waitFor(() => expect(errorUnder('Amount')).toBe('Please enter a valid amount in Yuan'));
    await typist().clear(amount);
    await typist().type(amount, '9.99');
    await waitFor(() => expect(errorUnder('Amount')).toBe('The amount must be from 10.00 to 50,000.00 Yuan'));
  });

  it('confirms the payee, masked account, amount, fee and total, then sends the payout with both factors', async () => {
    const router = renderPage();
    await fillChina();
    await pay();
    const dialog = await dialogTitled('Confirm information is correct and pay');
    const summary = within(dialog).getByTestId('payout-summary').textContent;
    for (const shown of [
      'PayeeLi Lei',
      'BankChina Merchants Bank',
      'Receiving account************2233',
      'Amount1,000.00 Yuan',
      'Service fee15.50 Yuan',
      'Total deducted1,015.50 Yuan',
    ])
      expect(summary).toContain(shown);
    expect(summary).not.toContain('6222020200112233');
    // Nothing leaves before the confirmation; the code is checked with the payout, never before it.
    expect(creations.sent).toEqual([]);
    await typist().click(within(dialog).getByRole('button', { name: /Confirm and pay$/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/behalfPay/transfers'));
    expect(creations.sent).toEqual([{ method: 'POST', path: '/api/merchant/payouts', body: CHINA_BODY }]);
    expect(router.state.location.search).toBe('?trade_no=P20260301000001');
    expect(await screen.findByText('Payout P20260301000001 has been submitted')).toBeInTheDocument();
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    renderPage();
    await fillChina();
    await pay();
    const dialog = await dialogTitled('Confirm information is correct and pay');
    await typist().click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(isClosing(dialog)).toBe(true));
    expect(creations.sent).toEqual([]);
  });

  it('asks again about a near-duplicate and sends it once more with confirm_duplicate', async () => {
    creations.answers = [
      () =>
        json(
          {
            message: 'A payout of this amount to this account was sent in the last 10 minutes.',
            code: 'possible_duplicate',
          },
          409,
        ),
      () => json({ data: created({ trade_no: 'P2' }) }, 201),
    ];
    const router = renderPage();
    await fillChina();
    await pay();
    const confirm = await dialogTitled('Confirm information is correct and pay');
    await typist().click(within(confirm).getByRole('button', { name: /Confirm and pay$/ }));
    const again = await dialogTitled('Possible duplicate payout');
    expect(
      within(again).getByText(
        'A payout of this amount to this account was sent in the last 10 minutes. Send it again?',
      ),
    ).toBeInTheDocument();
    expect(creations.sent).toHaveLength(1);
    await typist().click(within(again).getByRole('button', { name: 'Send it again' }));
    await waitFor(() => expect(router.state.location.search).toBe('?trade_no=P2'));
    expect(creations.sent.map((call) => call.body)).toEqual([
      CHINA_BODY,
      { ...CHINA_BODY, confirm_duplicate: true },
    ]);
  });

  it('sends nothing more when the near-duplicate is not confirmed', async () => {
    creations.answers = [() => json({ message: 'Possible duplicate.', code: 'possible_duplicate' }, 409)];
    const router = renderPage();
    await fillChina();
    await pay();
    await typist().click(
      within(await dialogTitled('Confirm information is correct and pay')).getByRole('button', {
        name: /Confirm and pay$/,
      }),
    );
    const again = await dialogTitled('Possible duplicate payout');
    await typist().click(within(again).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(isClosing(again)).toBe(true));
    expect(creations.sent).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/behalfPay/apply');
  });

  it('shows a refusal for lack of funds under the amount, and a wrong code under the code', async () => {
    creations.answers = [
      () => json({ message: 'Insufficient funds.', code: 'insufficient_funds' }, 422),
      () =>
        json(
          {
            message: 'The provided two factor authentication code was invalid.',
            code: 'invalid_code',
            errors: { code: ['The provided two factor authentication code was invalid.'] },
          },
          422,
        ),
    ];
    const router = renderPage();
    await fillChina();
    const confirmAndPay = async () => {
      await pay();
      await typist().click(
        within(await dialogTitled('Confirm information is correct and pay')).getByRole('button', {
          name: /Confirm and pay$/,
        }),
      );
    };
    await confirmAndPay();
    await waitFor(() => expect(errorUnder('Amount')).toBe('The available balance is not enough.'));
    // The form shows it: no alert dialog on top.
    expect(screen.queryByText('Notice')).toBeNull();
    await confirmAndPay();
    await waitFor(() =>
      expect(errorUnder('Google code')).toBe('The verification code is invalid or has already been used.'),
    );
    expect(creations.sent).toHaveLength(2);
    expect(router.state.location.pathname).toBe('/behalfPay/apply');
  });

  it('upper-cases an Indian IFSC as typed, checks its pattern and sends no bank', async () => {
    channels = { channels: [CHANNELS.IN], available: '100000.00', currency: 'INR' };
    creations.answers = [() => json({ data: created({ currency: 'INR', channel: 'sandbox-in' }) }, 201)];
    renderPage();
    const u = typist();
    const ifsc = await screen.findByLabelText('IFSC code');
    await u.type(ifsc, 'sbin1001234');
    expect(ifsc).toHaveProperty('value', 'SBIN1001234');
    await u.tab();
    await waitFor(() =>
      expect(errorUnder('IFSC code')).toBe('An IFSC code is 4 letters, then 0, then 6 letters or digits'),
    );
    await u.clear(ifsc);
    await u.type(ifsc, 'sbin0001234');
    await u.type(screen.getByLabelText('Payee'), 'Asha Rao');
    await u.type(screen.getByLabelText('Receiving account'), '00112233445566');
    await u.type(screen.getByLabelText('Amount'), '2500');
    await u.type(screen.getByLabelText('Payment password'), 'pay-123456');
    await u.type(screen.getByLabelText('Google code'), '654321');
    await pay();
    const dialog = await dialogTitled('Confirm information is correct and pay');
    // 2,500 x 1% + 5.00
    expect(within(dialog).getByTestId('payout-summary').textContent).toContain('Total deducted2,530.00 INR');
    await u.click(within(dialog).getByRole('button', { name: /Confirm and pay$/ }));
    await waitFor(() => expect(creations.sent).toHaveLength(1));
    expect(creations.sent[0].body).toEqual({
      channel: 'sandbox-in',
      account_type: 'individual',
      ifsc: 'SBIN0001234',
      payee_name: 'Asha Rao',
      account_no: '00112233445566',
      amount: '2500',
      payment_password: 'pay-123456',
      code: '654321',
    });
  });

  it('shows the server’s word on a field under it, and one this form does not show above the button', async () => {
    channels = { channels: [CHANNELS.IN], available: '100000.00', currency: 'INR' };
    creations.answers = [
      () =>
        json(
          {
            message: 'The receiving account is not valid. (and 1 more error)',
            code: 'validation_failed',
            errors: {
              account_no: ['The receiving account is not valid.'],
              bank_code: ['This channel does not pay to the bank of this IFSC.'],
            },
          },
          422,
        ),
    ];
    renderPage();
    const u = typist();
    await u.type(await screen.findByLabelText('IFSC code'), 'HDFC0001234');
    await u.type(screen.getByLabelText('Payee'), 'Asha Rao');
    await u.type(screen.getByLabelText('Receiving account'), '123456789');
    await u.type(screen.getByLabelText('Amount'), '2500');
    await u.type(screen.getByLabelText('Payment password'), 'pay-123456');
    await u.type(screen.getByLabelText('Google code'), '654321');
    await pay();
    await u.click(
      within(await dialogTitled('Confirm information is correct and pay')).getByRole('button', {
        name: /Confirm and pay$/,
      }),
    );
    await waitFor(() => expect(errorUnder('Receiving account')).toBe('The receiving account is not valid.'));
    expect(screen.getByRole('alert').textContent).toBe('This channel does not pay to the bank of this IFSC.');
  });

  it('tells the user to contact customer service when no payout channel is open', async () => {
    channels = { channels: [], available: '0.00', currency: 'CNY' };
    const router = renderPage();
    expect(await screen.findByText('No payout channel is open')).toBeInTheDocument();
    expect(
      screen.getByText('Payouts need an open payout channel. Please contact customer service to open one.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Pay$/ })).toBeNull();
    await typist().click(screen.getByRole('button', { name: /Contact us/ }));
    await screen.findByText('Contact page');
    expect(router.state.location.pathname).toBe('/contactUs');
  });

  it('shows the way to Security when the server wants two-factor authentication first', async () => {
    creations.answers = [() => apiError(400, 'two_factor_required', 'This feature is not enabled yet')];
    renderPage();
    await fillChina();
    await pay();
    await typist().click(
      within(await dialogTitled('Confirm information is correct and pay')).getByRole('button', {
        name: /Confirm and pay$/,
      }),
    );
    expect(await screen.findByRole('link', { name: /Go to Security/ })).toBeInTheDocument();
  });

  it('speaks Chinese: labels, the incomplete form and the confirmation', async () => {
    await changeLanguage('zh-cn');
    renderPage();
    await screen.findByLabelText('收款人');
    expect(formLabels()).toEqual([
      '通道',
      '账户类型',
      '银行',
      '开户行名称',
      '支行名称',
      '收款人',
      '收款账号',
      '金额',
      '手续费',
      '扣款合计',
      '可用余额',
      '备注',
      '支付密码',
      '谷歌验证码',
    ]);
    await typist().click(screen.getByRole('button', { name: /支付$/ }));
    expect(await screen.findByText('请检查表单信息是否填写完整')).toBeInTheDocument();
    await waitFor(() => expect(errorUnder('银行')).toBe('请选择银行'));
  });
  // The server's bank rules, checked in the form before anything is sent, in each of the three languages.
  const BAD_PAYEES = {
    en: {
      pay: /Pay$/,
      labels: { ifsc: 'IFSC code', cpf: 'CPF', account: 'Receiving account' },
      ifsc: 'ZZZZ is not the code of a known bank: check the IFSC',
      cpf: 'Please enter a valid CPF (11 digits with correct check digits)',
      account: 'The receiving account is 9 to 18 digits',
    },
    'zh-cn': {
      pay: /支付$/,
      labels: { ifsc: 'IFSC 代码', cpf: 'CPF 号码', account: '收款账号' },
      ifsc: 'ZZZZ 不是已知银行的代码，请检查 IFSC',
      cpf: '请输入有效的 CPF（11 位数字，校验位正确）',
      account: '收款账号为 9 至 18 位数字',
    },
    vi: {
      pay: /Thanh toán$/,
      labels: { ifsc: 'Mã IFSC', cpf: 'Số CPF', account: 'Tài khoản nhận' },
      ifsc: 'ZZZZ không phải mã của ngân hàng nào đã biết: hãy kiểm tra mã IFSC',
      cpf: 'Vui lòng nhập số CPF hợp lệ (11 chữ số, chữ số kiểm tra đúng)',
      account: 'Tài khoản nhận gồm 9 đến 18 chữ số',
    },
  } as const;

  it.each(Object.keys(BAD_PAYEES) as (keyof typeof BAD_PAYEES)[])(
    'names a wrong IFSC bank, account and CPF check digit in %s, sending nothing',
    async (language) => {
      const want = BAD_PAYEES[language];
      await changeLanguage(language);
      channels = { channels: [CHANNELS.IN], available: '100000.00', currency: 'INR' };
      renderPage();
      const u = typist();
      await u.type(await screen.findByLabelText(want.labels.ifsc), 'ZZZZ0001234');
      await u.type(screen.getByLabelText(want.labels.account), '12345');
      await u.click(screen.getByRole('button', { name: want.pay }));
      await waitFor(() => expect(errorUnder(want.labels.ifsc)).toBe(want.ifsc));
      await waitFor(() => expect(errorUnder(want.labels.account)).toBe(want.account));
      cleanup();

      channels = { channels: [CHANNELS.BR], available: '1000.00', currency: 'BRL' };
      renderPage();
      await u.type(await screen.findByLabelText(want.labels.cpf), '123.456.789-00');
      await u.click(screen.getByRole('button', { name: want.pay }));
      await waitFor(() => expect(errorUnder(want.labels.cpf)).toBe(want.cpf));
      expect(creations.sent).toEqual([]);
    },
  );
});
