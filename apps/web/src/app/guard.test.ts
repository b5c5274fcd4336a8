import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../i18n/index.ts';
import { setFeedback } from '../lib/feedback.ts';
import { resetHttpStateForTests } from '../lib/http.ts';
import { queryClient } from '../lib/query-client.ts';
import { guardPage, redirectGroup } from './guard.ts';
import { ROUTE_GROUPS } from './routes.ts';

const user = (overrides: Record<string, unknown> = {}) => ({
  id: 1,
  name: 'Demo Viewer',
  email: 'viewer@demo.paydesk.test',
  roles: ['VIEWER'],
  perms: ['dashboard:view', 'topup:view', 'withdrawal:view'],
  two_factor_enabled: false,
  timezone: null,
  merchant: { no: 'M1', name: 'Demo', currency: 'CNY' },
  ...overrides,
});

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** Runs a loader and gives back where it redirected, or null when it let the navigation through. */
async function run(loader: (args: { request: Request }) => Promise<unknown>, path: string) {
  try {
    await loader({ request: new Request(`http://console.test${path}`) });
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('Location');
    throw thrown;
  }
}

let toasts: string[];
let alerts: string[];
let fetchMock: ReturnType<typeof vi.fn>;

beforeAll(async () => {
  await changeLanguage('en');
});

beforeEach(() => {
  toasts = [];
  alerts = [];
  queryClient.clear();
  resetHttpStateForTests();
  setFeedback({
    alert: ({ content }) => alerts.push(String(content)),
    confirm: vi.fn(),
    toast: (_kind, content) => toasts.push(content),
  });
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  document.cookie = 'XSRF-TOKEN=t; path=/';
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('the route guard', () => {
  it('sends a browser without a session to the login page with the target, without a call', async () => {
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    expect(await run(guardPage(), '/fund/fundWater?page=2')).toBe(
      '/login?redirect=%2Ffund%2FfundWater%3Fpage%3D2',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends an ended session (401 on the user call) to the login page, with no dialog', async () => {
    fetchMock.mockResolvedValue(json(401, { message: 'Unauthenticated.' }));
    expect(await run(guardPage(), '/dashboard')).toBe('/login?redirect=%2Fdashboard');
    expect(toasts).toEqual([]);
  });

  it('asks once on a 401: an ended session is not retried', async () => {
    fetchMock.mockResolvedValue(json(401, { message: 'Unauthenticated.' }));
    await run(guardPage(), '/dashboard');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  const userCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/merchant/user').length;
  /** Runs the loader with the retries' waits passed at once (a fake clock: no test sleeps). */
  async function runWithRetries(path: string) {
    vi.useFakeTimers();
    const result = run(guardPage(), path);
    await vi.runAllTimersAsync();
    return result;
  }

  it('retries a user-info failure other than 401 (the server briefly down), then lets the user through', async () => {
    fetchMock
      .mockResolvedValueOnce(json(503, { message: 'Service Unavailable', code: 'server_error' }))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(json(200, { data: user() }));
    expect(await runWithRetries('/withdrawal/record')).toBeNull();
    expect(userCalls()).toBe(3);
    expect([...toasts, ...alerts]).toEqual([]);
  });

  it('after the retries: "Verification failed, please Login again.", session reset, login page with the target', async () => {
    fetchMock.mockImplementation(async (url: string) => {
      if (url === '/api/merchant/user') throw new TypeError('Failed to fetch');
      return new Response(null, { status: 204 });
    });
    expect(await runWithRetries('/fund/fundWater?page=2')).toBe(
      '/login?redirect=%2Ffund%2FfundWater%3Fpage%3D2',
    );
    expect(userCalls()).toBe(3);
    expect(toasts).toEqual(['Verification failed, please Login again.']);
    // One message, not one dialog per attempt.
    expect(alerts).toEqual([]);
    expect(queryClient.getQueryData(['merchant', 'user'])).toBeUndefined();
  });

  it('lets a user through to a page their permissions open', async () => {
    fetchMock.mockResolvedValue(json(200, { data: user() }));
    expect(await run(guardPage({ perm: 'withdrawal:view' }), '/withdrawal/record')).toBeNull();
  });

  it('sends a user without the permission to /403', async () => {
    fetchMock.mockResolvedValue(json(200, { data: user() }));
    expect(await run(guardPage({ perm: 'access-key:manage' }), '/setting/interfaceKey')).toBe('/403');
  });

  it('asks the server for the user once, not on every navigation', async () => {
    fetchMock.mockResolvedValue(json(200, { data: user() }));
    await run(guardPage({ perm: 'dashboard:view' }), '/dashboard');
    await run(guardPage({ perm: 'topup:view' }), '/recharge/record');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['an empty array', []],
    ['missing', undefined],
    ['not an array', 'ROOT'],
  ])(
    'roles %s: "Verification failed, please Login again.", session reset, login page',
    async (_label, roles) => {
      fetchMock.mockImplementation(async (url: string) =>
        url === '/api/merchant/user'
          ? json(200, { data: user({ roles }) })
          : new Response(null, { status: 204 }),
      );
      expect(await run(guardPage(), '/dashboard')).toBe('/login?redirect=%2Fdashboard');
      expect(toasts).toEqual(['Verification failed, please Login again.']);
      const calls = fetchMock.mock.calls.map(([url, init]) => `${(init as RequestInit).method} ${url}`);
      expect(calls).toContain('POST /api/logout');
      expect(queryClient.getQueryData(['merchant', 'user'])).toBeUndefined();
    },
  );

  it("a group's own path goes to its first page the user may open", async () => {
    fetchMock.mockResolvedValue(json(200, { data: user() }));
    const recharge = ROUTE_GROUPS.find((group) => group.path === '/recharge')!;
    expect(await run(redirectGroup(recharge), '/recharge')).toBe('/recharge/record');
  });
});
