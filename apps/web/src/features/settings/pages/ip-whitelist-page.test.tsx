import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { findPageRoute } from '../../../app/routes.ts';
import { changeLanguage } from '../../../i18n/index.ts';
import { renderRoute } from '../../../test/render.tsx';
import { http, json, server } from '../../../test/server.ts';

beforeEach(() => {
  server.use(http.get('/api/merchant/ip-address', () => json({ data: { ips: ['203.0.113.0/24'] } })));
});

/** The page the route table loads for the path, where it mounts it. */
async function renderPage(path: string) {
  const { default: Page } = await findPageRoute(path)!.load();
  return renderRoute(Page, { path });
}

describe('Settings > IP whitelist, a page of its own (spec section 2)', () => {
  it('is opened with ip-whitelist:manage and shows the whitelist form under its own title', async () => {
    await changeLanguage('en');
    expect(findPageRoute('/setting/ipWhitelist')?.perm).toBe('ip-whitelist:manage');
    await renderPage('/setting/ipWhitelist');
    expect(await screen.findByRole('heading', { name: 'IP whitelist', level: 4 })).toBeInTheDocument();
    const list = await screen.findByRole('textbox', { name: 'Allowed addresses' });
    await waitFor(() => expect(list).toHaveValue('203.0.113.0/24'));
  });

  it('has its title in Chinese', async () => {
    await changeLanguage('zh-cn');
    await renderPage('/setting/ipWhitelist');
    expect(await screen.findByRole('heading', { name: 'IP 白名单', level: 4 })).toBeInTheDocument();
  });
});
