import { configure, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Withdrawal, WithdrawalOptions } from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { dialogTitled, errorUnder, formLabels } from '../../../test/antd.ts';
import { answerCreations, type Creations } from '../../../test/forms.ts';
import { renderRoute, typist } from '../../../test/render.tsx';
import { TRON, withdrawal, withdrawalOptions } from '../../../test/withdrawals.ts';
import { apiError, http, HttpResponse, json, server, TEST_USER } from '../../../test/server.ts';
import WithdrawalApplyPage from './withdrawal-apply-page.tsx';

// antd renders slowly in jsdom when the machine is busy: wait longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const ETH = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

let user: Record<string, unknown>;
const USER = {
  ...TEST_USER,
  name: 'Demo Finance',
  email: 'finance@demo.paydesk.test',
  roles: ['FINANCE'],
  perms: ['withdrawal:view', 'withdrawal:create'],
};

let options: WithdrawalOptions;
const OPTIONS = withdrawalOptions();

const created = (changes: Partial<Withdrawal> = {}) => withdrawal('W20260301003000000123456', changes);

let creations: Creations;

beforeEach(async () => {
  await changeLanguage('en');
  user = USER;
  options = OPTIONS;
  creations = answerCreations('/api/merchant/withdrawals', () => json({ data: created() }, 201));
  server.use(
    http.get('/api/merchant/user', () => json({ data: user })),
    http.get('/api/merchant/withdrawal-options', () => json({ data: options })),
  );
});

const renderPage = () =>
  renderRoute(WithdrawalApplyPage, {
    path: '/withdrawal/apply',
    pages: { '/withdrawal/record': 'History page', '/setting/accountSecurity': 'Security page' },
  }).router;

/** What the page sent (it reads with GET only the user and the options). */
const posts = () => creations.sent;

async function fill({ address = TRON, amount = '100' } = {}) {
  const u = typist();
  await screen.findByLabelText('Wallet address');
  await u.type(screen.getByLabelText('Wallet address'), address);
  await u.type(screen.getByLabelText('Amount'), amount);
  await u.type(screen.getByLabelText('Payment password'), 'pay-123456');
  await u.type(screen.getByLabelText('Google code'), '123456');
}

const withdraw = async () => typist().click(screen.getByRole('button', { name: /Withdraw$/ }));
// Ends with: jsdom never ends the motion of an earlier answer's spinner, which stays in the button's name.
const confirm = async () =>
  typist().click(
    within(await dialogTitled('Confirm the withdrawal')).getByRole('button', {
      name: /Confirm and withdraw$/,
    }),
  );

describe('Withdraw', { timeout: 60_000 }, () => {
  it('shows the form with the fee text of the day, the rate and what the amount takes from the balance', async () => {
    renderPage();
    await screen.findByLabelText('Wallet address');
    expect(formLabels()).toEqual([
      'Currency',
      'Network type',
      'Wallet address',
      'Amount',
      'Fee',
      'Rate',
      'Deducted from the balance',
      'Available balance',
      'Payment password',
      'Google code',
    ]);
    expect(screen.getByTestId('withdrawal-fee-text').textContent).toBe(
      '2.00 USDT per withdrawal, 1 free per day. Free withdrawals left today: 0.',
    );
    expect(screen.getByTestId('withdrawal-fee').textContent).toBe('2.00 USDT');
    expect(screen.getByTestId('withdrawal-rate').textContent).toBe('1 USDT = 7.2 Yuan');
    expect(screen.getByTestId('withdrawal-warning').textContent).toMatch(
      /Check that the wallet address and the network are right/,
    );
    expect(screen.getByTestId('withdrawal-deducted').textContent).toBe('-');
    await typist().type(screen.getByLabelText('Amount'), '100');
    // 100 USDT at 7.2 + the 2 USDT fee at 7.2.
    expect(screen.getByTestId('withdrawal-deducted').textContent).toBe('734.40 Yuan');
    await typist().type(screen.getByLabelText('Amount'), '0');
    expect(screen.getByTestId('withdrawal-deducted').textContent).toBe('7,214.40 Yuan');
    expect(screen.getByText('More than the available balance')).toBeInTheDocument();
  });

  it('says the fee is free while the day has free withdrawals left', async () => {
    options = { ...OPTIONS, free_left_today: 1 };
    renderPage();
    await screen.findByLabelText('Amount');
    expect(screen.getByTestId('withdrawal-fee').textContent).toBe('Free');
    await typist().type(screen.getByLabelText('Amount'), '100');
    expect(screen.getByTestId('withdrawal-deducted').textContent).toBe('720.00 Yuan');
  });

  it('checks the wallet address for the network as it is typed (a wrong checksum says so)', async () => {
    renderPage();
    const u = typist();
    const address = await screen.findByLabelText('Wallet address');
    await u.type(address, `${TRON.slice(0, -1)}u`);
    await waitFor(() =>
      expect(errorUnder('Wallet address')).toBe(
        'The wallet address checksum is wrong: check every character.',
      ),
    );
    await u.clear(address);
    await u.type(address, TRON.slice(0, -1));
    await waitFor(() =>
      expect(errorUnder('Wallet address')).toBe('A TRC20 address is T followed by 33 letters and digits.'),
    );
    // An Ethereum address on TRC20, then the network switched to ERC20: checked again, and right.
    await u.clear(address);
    await u.type(address, ETH.toLowerCase());
    await waitFor(() => expect(errorUnder('Wallet address')).toMatch(/A TRC20 address/));
    await u.click(screen.getByText('ERC20 (Ethereum)'));
    await waitFor(() => expect(errorUnder('Wallet address')).toBeFalsy());
    await u.clear(address);
    await u.type(address, `${ETH.slice(0, -1)}8`);
    await waitFor(() =>
      expect(errorUnder('Wallet address')).toBe(
        'The wallet address checksum is wrong: check every character.',
      ),
    );
    await u.type(screen.getByLabelText('Amount'), '9.5');
    await withdraw();
    await waitFor(() => expect(errorUnder('Amount')).toBe('The amount must be at least 10.00 USDT.'));
    expect(posts()).toEqual([]);
  });

  it('asks to confirm with the warning to check wallet and network, then sends and opens the history', async () => {
    const router = renderPage();
    await fill({ amount: ' 100 ' });
    await withdraw();
    const dialog = await dialogTitled('Confirm the withdrawal');
    expect(dialog.textContent).toMatch(/Please check that the wallet address and the network are correct/);
    const summary = within(dialog).getByTestId('withdrawal-summary').textContent;
    expect(summary).toContain(TRON);
    expect(summary).toContain('TRC20 (TRON)');
    expect(summary).toContain('100.00 USDT');
    expect(summary).toContain('734.40 Yuan');
    expect(posts()).toEqual([]);
    await confirm();
    await waitFor(() => expect(router.state.location.pathname).toBe('/withdrawal/record'));
    expect(router.state.location.search).toBe('?withdrawal_no=W20260301003000000123456');
    expect(posts()).toEqual([
      {
        method: 'POST',
        path: '/api/merchant/withdrawals',
        body: {
          currency: 'USDT',
          network: 'TRC20',
          address: TRON,
          amount: '100',
          payment_password: 'pay-123456',
          code: '123456',
        },
      },
    ]);
  });

  it("shows the server's refusals under their fields: the balance, the address, the code and the lock", async () => {
    creations.answers = [
      () =>
        json(
          {
            message: 'Insufficient available balance.',
            code: 'insufficient_funds',
            errors: { amount: ['Insufficient available balance.'] },
          },
          422,
        ),
      () =>
        json(
          {
            message: 'The wallet address checksum is wrong.',
            code: 'invalid_wallet_address',
            errors: { address: ['The wallet address checksum is wrong.'] },
          },
          422,
        ),
      () =>
        json(
          {
            message: 'The provided two factor authentication code was invalid.',
            code: 'invalid_code',
            errors: { code: ['The provided two factor authentication code was invalid.'] },
          },
          422,
        ),
      () =>
        HttpResponse.json(
          { message: 'Too many wrong payment passwords.', code: 'payment_locked' },
          { status: 423, headers: { 'retry-after': '1500' } },
        ),
    ];
    renderPage();
    await fill();
    const send = async () => {
      await withdraw();
      await confirm();
    };
    await send();
    await waitFor(() => expect(errorUnder('Amount')).toBe('The available balance is not enough.'));
    expect(screen.queryByText('Notice')).toBeNull();
    await send();
    await waitFor(() =>
      expect(errorUnder('Wallet address')).toBe(
        'The wallet address is not valid for this network: check every character.',
      ),
    );
    // The field's check runs again as the user edits it; here it is still the same, so sent as it is.
    await send();
    await waitFor(() =>
      expect(errorUnder('Google code')).toBe('The verification code is invalid or has already been used.'),
    );
    await send();
    await waitFor(() => expect(errorUnder('Google code')).toMatch(/locked for 25 more minutes/));
    expect(posts()).toHaveLength(4);
  });

  it('shows the way to Security when the server says two-factor is not on (400), and before the form without it', async () => {
    creations.answers = [() => apiError(400, 'two_factor_required', 'This feature is not enabled yet')];
    renderPage();
    await fill();
    await withdraw();
    await confirm();
    expect(await screen.findByRole('link', { name: /Go to Security/ })).toBeInTheDocument();
  });

  it('shows no form to a user without two-factor', async () => {
    user = { ...USER, two_factor_enabled: false };
    renderPage();
    expect(await screen.findByRole('link', { name: /Go to Security/ })).toBeInTheDocument();
    expect(screen.queryByLabelText('Wallet address')).toBeNull();
  });

  it('speaks Chinese: labels, the fee text and the confirm warning', async () => {
    await changeLanguage('zh-cn');
    renderPage();
    await screen.findByLabelText('钱包地址');
    expect(formLabels()).toEqual([
      '币种',
      '网络类型',
      '钱包地址',
      '金额',
      '手续费',
      '汇率',
      '从余额扣除',
      '可用余额',
      '支付密码',
      '谷歌验证码',
    ]);
    expect(screen.getByTestId('withdrawal-fee-text').textContent).toBe(
      '每笔提现手续费 2.00 USDT，每天免费 1 笔。今日剩余免费次数：0。',
    );
    const u = typist();
    await u.type(screen.getByLabelText('钱包地址'), TRON);
    await u.type(screen.getByLabelText('金额'), '100');
    await u.type(screen.getByLabelText('支付密码'), 'pay-123456');
    await u.type(screen.getByLabelText('谷歌验证码'), '123456');
    await u.click(screen.getByRole('button', { name: /提现$/ }));
    const dialog = await dialogTitled('确认提现');
    expect(dialog.textContent).toMatch(/请核对钱包地址和网络是否准确/);
  });
});
