import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/index.ts';
import { json, server } from '../../test/server.ts';
import { renderWithProviders } from '../../test/render.tsx';
import type { Notification } from './api.ts';
import { NotificationBell } from './notification-bell.tsx';

const row = (id: number, read = false) => ({
  id,
  type: 'ip_whitelist_changed' as const,
  params: {
    merchant: 'Demo Store (M100001)',
    actor: 'Demo Root <root@demo.paydesk.test>',
    at: '2026-11-29T04:30:00.000Z',
    ips: '203.0.113.7',
  },
  created_at: '2026-11-29T04:30:00.000Z',
  read_at: read ? '2026-11-29T05:00:00.000Z' : null,
});

/** The bell's API with `unread` unread rows; marking read is recorded and lowers the count. */
function bellApi(unread: number, rows: Notification[] = [row(2), row(1, true)]) {
  const marked: unknown[] = [];
  let count = unread;
  server.use(
    http.get('/api/merchant/notifications', () =>
      json({ data: rows, meta: { unread: count, next_before: null } }),
    ),
    http.post('/api/merchant/notifications/read', async ({ request }) => {
      const body = (await request.json()) as { ids?: number[]; all?: true };
      marked.push(body);
      count = body.all ? 0 : count - (body.ids?.length ?? 0);
      return json({ data: { unread: count } });
    }),
  );
  return marked;
}

const badge = () => screen.getByTestId('notification-bell');

afterEach(() => changeLanguage('en'));

describe('the header bell', () => {
  it('shows the unread count', async () => {
    bellApi(7);
    renderWithProviders(<NotificationBell />);
    await waitFor(() => expect(badge().textContent).toContain('7'));
  });

  it('shows 99+ past 99, as the spec says', async () => {
    bellApi(120);
    renderWithProviders(<NotificationBell />);
    await waitFor(() => expect(badge().textContent).toContain('99+'));
    expect(badge().textContent).not.toContain('120');
  });

  it('lists the newest with their text, marks one read on click and all with "Mark all read"', async () => {
    const marked = bellApi(2, [row(3), row(2), row(1, true)]);
    renderWithProviders(<NotificationBell />);
    await waitFor(() => expect(badge().textContent).toContain('2'));
    await userEvent.click(badge());
    const items = await screen.findAllByTestId('notification-item');
    expect(items).toHaveLength(3);
    expect(items[0]!.textContent).toContain('IP whitelist changed');
    expect(items[0]!.textContent).toContain('203.0.113.7');
    expect(items.map((i) => i.dataset.unread)).toEqual(['true', 'true', 'false']);

    await userEvent.click(items[0]!);
    await waitFor(() => expect(marked).toEqual([{ ids: [3] }]));
    await waitFor(() => expect(badge().textContent).toContain('1'));

    await userEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(marked).toEqual([{ ids: [3] }, { all: true }]));
    await waitFor(() =>
      expect(screen.getAllByTestId('notification-item').map((i) => i.dataset.unread)).toEqual([
        'false',
        'false',
        'false',
      ]),
    );
    // The badge animates out; the bell's name says the count at once.
    expect(badge().getAttribute('aria-label')).toBe('Notifications, 0 unread');
  });

  it('renders a type in the console language (zh-cn and vi)', async () => {
    bellApi(1, [row(1)]);
    await changeLanguage('zh-cn');
    const view = renderWithProviders(<NotificationBell />);
    await userEvent.click(badge());
    const [zh] = await screen.findAllByTestId('notification-item');
    expect(zh!.textContent).toContain('IP 白名单已修改');
    expect(zh!.textContent).toContain('将商户 Demo Store (M100001) 的 IP 白名单修改为 203.0.113.7');
    view.unmount();

    await changeLanguage('vi');
    renderWithProviders(<NotificationBell />);
    await userEvent.click(badge());
    const [vi] = await screen.findAllByTestId('notification-item');
    expect(vi!.textContent).toContain('Danh sách IP đã thay đổi');
  });

  it("shows a waiting payout's amount as money of its currency", async () => {
    bellApi(1, [
      {
        id: 1,
        type: 'payout_pending_approval' as const,
        params: {
          merchant: 'Cửa hàng Sài Gòn (M100004)',
          actor: 'Approval Maker',
          at: '2026-11-29T04:30:00.000Z',
          payout_no: 'P2026112900001',
          amount: '2000000',
          currency: 'VND',
        },
        created_at: '2026-11-29T04:30:00.000Z',
        read_at: null,
      },
    ]);
    renderWithProviders(<NotificationBell />);
    await userEvent.click(badge());
    const [item] = await screen.findAllByTestId('notification-item');
    expect(item!.textContent).toContain('Approval Maker created payout P2026112900001 of 2,000,000 VND.');
  });

  it('says so when there is nothing', async () => {
    renderWithProviders(<NotificationBell />);
    await userEvent.click(badge());
    expect(await screen.findByText('No notifications yet')).toBeTruthy();
  });
});
