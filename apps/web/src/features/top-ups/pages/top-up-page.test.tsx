import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TopUp, TopUpOptions } from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { renderRoute } from '../../../test/render.tsx';
import { apiError, http, json, server, stubNodeMultipart } from '../../../test/server.ts';
import TopUpPage from './top-up-page.tsx';

// antd renders slowly in jsdom when the machine is busy: wait longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

const OPTIONS: TopUpOptions = {
  currency: 'USDT',
  networks: [
    { network: 'TRC20', address: 'TJEh7TX8sNj5uq4hXKyYdTrnGmeeG48top' },
    { network: 'ERC20', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
  ],
  rate: '7.10',
  merchant_currency: 'CNY',
};

const created: TopUp = {
  recharge_no: 'R20260301003000000000123',
  status: 'pending_review',
  currency: 'USDT',
  network: 'ERC20',
  address: OPTIONS.networks[1].address,
  amount: '100.500000',
  received_amount: null,
  rate: null,
  credited_amount: null,
  credited_currency: 'CNY',
  credited_usd: null,
  reason: null,
  screenshot_type: 'image/png',
  created_at: '2026-03-01T00:30:00Z',
  reviewed_at: null,
};

/** What the mock API read from each multipart body the page posted: its fields and its file. */
type Posted = {
  amount: FormDataEntryValue | null;
  currency: FormDataEntryValue | null;
  network: FormDataEntryValue | null;
  screenshot: { name: string; type: string; size: number } | null;
};
let posted: Posted[];

beforeEach(async () => {
  await changeLanguage('en');
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }),
  );
  await stubNodeMultipart();
  posted = [];
  server.use(
    http.get('/api/merchant/recharge-options', () => json({ data: OPTIONS })),
    http.post('/api/merchant/recharges', async ({ request }) => {
      // As the server reads it: a multipart body, its fields and the screenshot as a file.
      if (!request.headers.get('content-type')?.startsWith('multipart/form-data; boundary=')) {
        return apiError(415, 'unsupported_media_type');
      }
      const form = await request.formData();
      const file = form.get('screenshot');
      posted.push({
        amount: form.get('amount'),
        currency: form.get('currency'),
        network: form.get('network'),
        screenshot: file instanceof File ? { name: file.name, type: file.type, size: file.size } : null,
      });
      return json({ data: created }, 201);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const renderPage = () =>
  renderRoute(TopUpPage, {
    path: '/recharge/topup',
    pages: { '/recharge/record': 'History page' },
  }).router;

const user = () => userEvent.setup({ delay: null, applyAccept: false });
const fileInput = () => document.querySelector('input[type=file]') as HTMLInputElement;
const png = (bytes = 64, name = 'transfer.png') =>
  new File([new Uint8Array(bytes)], name, { type: 'image/png' });
const errorUnder = (label: string) =>
  screen
    .getByText(label, { selector: 'label' })
    .closest('.ant-form-item')
    ?.querySelector('.ant-form-item-explain')?.textContent;

describe('Top-up', { timeout: 60_000 }, () => {
  it('shows the deposit address of the chosen network with its QR code, and the indicative rate', async () => {
    renderPage();
    expect((await screen.findByTestId('deposit-address')).textContent).toContain(OPTIONS.networks[0].address);
    expect(screen.getByTestId('deposit-qr')).toBeInTheDocument();
    await user().click(screen.getByText('ERC20'));
    expect(screen.getByTestId('deposit-address').textContent).toContain(OPTIONS.networks[1].address);
    expect(screen.getByText(/Send only USDT on the ERC20 network/)).toBeInTheDocument();
    await user().type(screen.getByLabelText('Recharge amount'), '100.5');
    // 100.5 x 7.10 = 713.55, rounded down like the operator's approval.
    expect(screen.getByTestId('top-up-rate').textContent).toContain('1 USDT ≈ 7.10 Yuan, about 713.55 Yuan');
  });

  it('requires the amount and the screenshot, and checks the image in the browser: PNG or JPG, at most 2M', async () => {
    renderPage();
    await screen.findByTestId('deposit-address');
    await user().click(screen.getByRole('button', { name: 'Submit for review' }));
    await waitFor(() => expect(errorUnder('Recharge amount')).toBe('Please enter the recharge amount'));
    expect(errorUnder('Transfer screenshot')).toBe('Please upload the screenshot of the transfer');

    await user().type(screen.getByLabelText('Recharge amount'), '1.1234567');
    await user().upload(fileInput(), new File(['GIF89a'], 'shot.png', { type: 'image/gif' }));
    await user().click(screen.getByRole('button', { name: 'Submit for review' }));
    await waitFor(() => expect(errorUnder('Transfer screenshot')).toBe('Only PNG or JPG images'));
    expect(errorUnder('Recharge amount')).toBe('Enter an amount greater than 0 with at most 6 decimals');

    await user().upload(fileInput(), png(2 * 1024 * 1024 + 1, 'big.png'));
    await user().click(screen.getByRole('button', { name: 'Submit for review' }));
    await waitFor(() => expect(errorUnder('Transfer screenshot')).toBe('The screenshot must be at most 2M'));
    expect(posted).toHaveLength(0);
  });

  it('previews the screenshot, sends the form as multipart and goes to the history', async () => {
    const router = renderPage();
    await screen.findByTestId('deposit-address');
    await user().click(screen.getByText('ERC20'));
    await user().type(screen.getByLabelText('Recharge amount'), ' 100.5 ');
    await user().upload(fileInput(), png(2 * 1024 * 1024, 'exactly-2m.png'));
    expect(screen.getByTestId('screenshot-preview').textContent).toContain('exactly-2m.png (2,048 KB)');
    expect(screen.getByAltText('Screenshot preview').getAttribute('src')).toBe('blob:preview');
    await user().click(screen.getByRole('button', { name: 'Submit for review' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/recharge/record'));
    expect(posted).toEqual([
      {
        amount: '100.5',
        currency: 'USDT',
        network: 'ERC20',
        screenshot: { name: 'exactly-2m.png', type: 'image/png', size: 2 * 1024 * 1024 },
      },
    ]);
  });

  it("shows the server's refusal of the screenshot under it (415)", async () => {
    server.use(
      http.post('/api/merchant/recharges', () =>
        apiError(415, 'screenshot_type', 'The screenshot must be a PNG or JPG image.'),
      ),
    );
    renderPage();
    await screen.findByTestId('deposit-address');
    await user().type(screen.getByLabelText('Recharge amount'), '10');
    await user().upload(fileInput(), png());
    await user().click(screen.getByRole('button', { name: 'Submit for review' }));
    await waitFor(() =>
      expect(errorUnder('Transfer screenshot')).toBe('The screenshot must be a PNG or JPG image.'),
    );
  });

  it('speaks Chinese', async () => {
    await changeLanguage('zh-cn');
    renderPage();
    await screen.findByTestId('deposit-address');
    expect(screen.getByText('充值地址')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '提交审核' })).toBeInTheDocument();
  });
});
