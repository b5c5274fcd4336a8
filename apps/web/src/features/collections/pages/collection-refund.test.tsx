import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Collection, CollectionDetail } from '@paydesk/shared/collections/collections.schemas.ts';
import type { Refund, RefundDetail } from '@paydesk/shared/refunds/refunds.schemas.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { collection } from '../../../test/collections.ts';
import { type Call, listAnswer, recordCalls, signInAs, tableRows } from '../../../test/list.ts';
import { refund, refundPage } from '../../../test/refunds.ts';
import { renderRoute } from '../../../test/render.tsx';
import { apiError, http, json, server } from '../../../test/server.ts';
import CollectionsPage from './collections-page.tsx';

// The Refund action in a collection's drawer (DESIGN 14): the form, its checks, the server's refusals in
// place, and the drawer's figures and refunds read again after a refund.

configure({ asyncUtilTimeout: 10_000 });

const order = (changes: Partial<Collection> = {}) =>
  collection('C1', {
    settlement_status: 'settled',
    channel_ref: 'SBX1',
    settlement_no: 'S1',
    settled_at: '2026-03-02T00:00:00Z',
    ...changes,
  });

const detailOf = (refunded: string, changes: Partial<Collection> = {}): CollectionDetail => ({
  ...order(changes),
  timeline: [{ step: 'created', at: '2026-03-01T00:30:00Z' }],
  refunded,
  callbacks: [],
  attempts: [],
});

const detailOfRefund = (row: Refund): RefundDetail => ({
  ...row,
  timeline: [{ step: 'created', at: row.created_at }],
  callbacks: [],
});

let requests: Call[];
/** The server's state: what the order's refunds took so far, and the refunds themselves. */
let refunded: string;
let refunds: Refund[];
let orderChanges: Partial<Collection>;
let answerRefund: (body: Record<string, unknown>) => Response;

beforeEach(async () => {
  await changeLanguage('en');
  document.cookie = 'XSRF-TOKEN=t';
  requests = recordCalls({ page: true });
  signInAs({ perms: ['collection:view', 'refund:create'] });
  refunded = '100.00';
  refunds = [refund('R1', { created_at: '2026-03-02T01:00:00Z' })];
  orderChanges = {};
  server.use(
    http.get('/api/merchant/collections', () =>
      json(listAnswer([order(orderChanges)], { sums: { amount: '1234.5', count: 1, fee: '7.41' } })),
    ),
    http.get('/api/merchant/collections/:tradeNo', () => json({ data: detailOf(refunded, orderChanges) })),
    http.get('/api/merchant/refunds', ({ request }) => {
      const tradeNo = new URL(request.url).searchParams.get('trade_no');
      return json(refundPage(refunds.filter((row) => row.trade_no === tradeNo)));
    }),
    http.post('/api/merchant/collections/:tradeNo/refunds', async ({ request }) =>
      answerRefund((await request.json()) as Record<string, unknown>),
    ),
  );
});

/** The page with the order's drawer open. */
async function openDrawer() {
  renderRoute(CollectionsPage, { path: '/collection/payments' });
  await waitFor(() => expect(tableRows()).toHaveLength(1));
  const user = userEvent.setup({ delay: null });
  await user.click(within(tableRows()[0]).getByRole('button', { name: /Details|详情/ }));
  const drawer = await screen.findByRole('dialog');
  return { user, drawer };
}

/** A drawer field's value by its label. */
const fieldOf = (drawer: HTMLElement, label: string) =>
  within(drawer).getByText(label, { selector: 'th, th *' }).closest('tr')?.textContent?.replace(label, '');

/** The error shown under a form field, by the field's label. */
const errorUnder = (scope: HTMLElement, label: string) =>
  within(scope).getByLabelText(label).closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')
    ?.textContent;

/** The refund form's dialog (its form is named by its title; the dialog's own label is jsdom's test id). */
const refundDialog = async (title: string) =>
  (await screen.findByRole('form', { name: title })).closest<HTMLElement>('[role="dialog"]')!;

const refundPosts = () =>
  requests.filter((r) => r.method === 'POST' && r.path === '/api/merchant/collections/C1/refunds');

async function fillFactors(user: ReturnType<typeof userEvent.setup>, form: HTMLElement) {
  await user.type(within(form).getByLabelText('Payment password'), 'pay-123456');
  await user.type(within(form).getByLabelText('Google code'), '123456');
}

describe('Collection drawer: refunds', { timeout: 60_000 }, () => {
  it("shows what was refunded and what is left, the order's refunds, and refunds with the form prefilled", async () => {
    answerRefund = (body) => {
      const created = refund('R2', {
        amount: String(body.amount),
        reason: (body.reason as string | undefined) ?? null,
        status: 'processing',
        finished_at: null,
        created_at: '2026-03-03T02:00:00Z',
      });
      // The server's state after the refund: the drawer must read it again to show it.
      refunded = '300.00';
      refunds = [created, ...refunds];
      return json({ data: detailOfRefund(created) }, 201);
    };
    const { user, drawer } = await openDrawer();
    await waitFor(() => expect(fieldOf(drawer, 'Refundable')).toBe('1,134.50 Yuan'));
    expect(fieldOf(drawer, 'Refunded')).toBe('100.00 Yuan');
    const section = within(drawer).getByTestId('order-refunds');
    await waitFor(() => expect(tableRows(section)).toHaveLength(1));
    expect(tableRows(section)[0].textContent).toBe('R1100.00 YuanSucceeded2026-03-02 09:00:00');
    const orderRefunds = requests.filter((r) => r.path === '/api/merchant/refunds');
    expect(orderRefunds[0].query.get('trade_no')).toBe('C1');

    await user.click(within(section).getByRole('button', { name: /Refund/ }));
    const form = await refundDialog('Refund order C1');
    // Prefilled with all that is left of the order.
    expect(within(form).getByLabelText('Refund amount')).toHaveProperty('value', '1134.50');
    expect(within(form).getByText('At most 1,134.50 Yuan, what is left of the order.')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Refund amount'));
    await user.type(within(form).getByLabelText('Refund amount'), '200');
    await user.type(within(form).getByLabelText('Reason'), ' Wrong size ');
    await fillFactors(user, form);
    await user.click(within(form).getByRole('button', { name: 'Refund' }));

    await waitFor(() => expect(refundPosts()).toHaveLength(1));
    expect(refundPosts()[0].body).toEqual({
      amount: '200',
      reason: 'Wrong size',
      payment_password: 'pay-123456',
      code: '123456',
    });
    expect(await screen.findByText('Refund R2 created')).toBeInTheDocument();
    // The drawer reads the order and its refunds again.
    await waitFor(() => expect(fieldOf(drawer, 'Refundable')).toBe('934.50 Yuan'));
    expect(fieldOf(drawer, 'Refunded')).toBe('300.00 Yuan');
    await waitFor(() => expect(tableRows(section)).toHaveLength(2));
    expect(tableRows(section)[0].textContent).toBe('R2200.00 YuanProcessing2026-03-03 10:00:00');
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Refund order C1' })).toBeNull());
  });

  it('refuses more than is refundable before sending, and a number or reason the schema refuses', async () => {
    answerRefund = () => json({}, 500);
    const { user, drawer } = await openDrawer();
    await user.click(await within(drawer).findByRole('button', { name: /Refund/ }));
    const form = await refundDialog('Refund order C1');
    const amount = within(form).getByLabelText('Refund amount');
    await user.clear(amount);
    await user.type(amount, '1134.51');
    await user.type(within(form).getByLabelText('Merchant refund number'), 'has space');
    await fillFactors(user, form);
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    await waitFor(() =>
      expect(errorUnder(form, 'Refund amount')).toBe('At most 1,134.50 Yuan is left to refund'),
    );
    expect(errorUnder(form, 'Merchant refund number')).toBe('1 to 64 letters, digits, _ . : or -');
    await user.clear(amount);
    await user.type(amount, '1.005');
    await waitFor(() =>
      expect(errorUnder(form, 'Refund amount')).toBe('Enter an amount in Yuan, such as 100.00'),
    );
    await user.clear(amount);
    await user.type(amount, '0');
    await waitFor(() =>
      expect(errorUnder(form, 'Refund amount')).toBe('The refund amount must be more than zero'),
    );
    expect(refundPosts()).toHaveLength(0);
  });

  it("shows the server's refusals in place: over the amount, a number taken, an order no longer paid", async () => {
    let answers = [
      apiError(422, 'refund_exceeds_amount', 'The refund is more than what is left of the order.'),
      apiError(409, 'out_refund_no_taken', 'This refund number was already used.'),
      apiError(409, 'invalid_state', 'This order cannot be refunded in its current state.'),
    ];
    answerRefund = () => {
      const [next, ...rest] = answers;
      answers = rest;
      // Another refund of the order was made elsewhere meanwhile: the first refusal says so.
      refunded = '200.00';
      return next;
    };
    const { user, drawer } = await openDrawer();
    await user.click(await within(drawer).findByRole('button', { name: /Refund/ }));
    const form = await refundDialog('Refund order C1');
    await user.type(within(form).getByLabelText('Merchant refund number'), 'RF-1');
    await fillFactors(user, form);
    const submit = within(form).getByRole('button', { name: 'Refund' });

    await user.click(submit);
    await waitFor(() =>
      expect(errorUnder(form, 'Refund amount')).toBe('The refund is more than what is left of the order.'),
    );
    expect(refundPosts()[0].body).toMatchObject({ amount: '1134.50', out_refund_no: 'RF-1' });
    // The drawer reads the order again: its figures and the form's limit are the server's.
    await waitFor(() => expect(fieldOf(drawer, 'Refundable')).toBe('1,034.50 Yuan'));
    expect(within(form).getByText('At most 1,034.50 Yuan, what is left of the order.')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Refund amount'));
    await user.type(within(form).getByLabelText('Refund amount'), '500');

    await user.click(submit);
    await waitFor(() =>
      expect(errorUnder(form, 'Merchant refund number')).toBe('This refund number was already used.'),
    );

    await user.click(submit);
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'This order cannot be refunded in its current state.',
    );
    expect(refundPosts()).toHaveLength(3);
    expect(refundPosts()[2].body).toMatchObject({ amount: '500', out_refund_no: 'RF-1' });
    // Still open: nothing was refunded.
    expect(screen.getByRole('form', { name: 'Refund order C1' })).toBeInTheDocument();
  });

  it('tells a user without two-factor authentication where to enable it', async () => {
    answerRefund = () => apiError(400, 'two_factor_required');
    const { user, drawer } = await openDrawer();
    await user.click(await within(drawer).findByRole('button', { name: /Refund/ }));
    const form = await refundDialog('Refund order C1');
    await fillFactors(user, form);
    await user.click(within(form).getByRole('button', { name: 'Refund' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('This feature is not enabled yet');
    expect(within(form).getByRole('link', { name: /Go to Security/ })).toHaveAttribute(
      'href',
      '/setting/accountSecurity',
    );
  });

  it('offers no Refund action without refund:create, nor once the order is refunded in full', async () => {
    signInAs({ roles: ['VIEWER'], perms: ['collection:view'] });
    const first = await openDrawer();
    const section = await within(first.drawer).findByTestId('order-refunds');
    await waitFor(() => expect(tableRows(section)).toHaveLength(1));
    expect(within(section).queryByRole('button', { name: /Refund/ })).toBeNull();
    cleanup();

    signInAs({ perms: ['collection:view', 'refund:create'] });
    refunded = '1234.50';
    const second = await openDrawer();
    await waitFor(() => expect(fieldOf(second.drawer, 'Refundable')).toBe('0.00 Yuan'));
    const full = within(second.drawer).getByTestId('order-refunds');
    expect(within(full).getByText('This order has been refunded in full.')).toBeInTheDocument();
    expect(within(full).queryByRole('button', { name: /Refund/ })).toBeNull();
  });

  it('says an unpaid order cannot be refunded and asks nothing about its refunds', async () => {
    orderChanges = { status: 'to_be_paid', paid_at: null, settlement_status: 'unsettled' };
    const { drawer } = await openDrawer();
    expect(await within(drawer).findByText('Only a paid order can be refunded.')).toBeInTheDocument();
    expect(within(drawer).queryByText('Refundable')).toBeNull();
    expect(requests.filter((r) => r.path === '/api/merchant/refunds')).toHaveLength(0);
  });

  it('speaks Chinese: the figures, the action and the prefilled form', async () => {
    await changeLanguage('zh-cn');
    const { user, drawer } = await openDrawer();
    await waitFor(() => expect(fieldOf(drawer, '可退款')).toBe('1,134.50 元'));
    expect(fieldOf(drawer, '已退款')).toBe('100.00 元');
    const section = within(drawer).getByTestId('order-refunds');
    await waitFor(() => expect(tableRows(section)).toHaveLength(1));
    expect(within(section).getByText('退款成功')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: /退款/ }));
    const form = await refundDialog('订单 C1 退款');
    expect(within(form).getByLabelText('退款金额')).toHaveProperty('value', '1134.50');
    expect(within(form).getByLabelText('商户退款单号')).toBeInTheDocument();
  });
});
