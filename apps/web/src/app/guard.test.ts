import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../i18n/index.ts';
import { setFeedback } from '../lib/feedback.ts';
import { queryClient } from '../lib/query-client.ts';
import { type Call, http, HttpResponse, json, recordCalls, server } from '../test/server.ts';
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

const USER_CALL = '/api/merchant/user';
/** The user call answers these, one each, then the last one from there on. */
function answerUser(...responses: (() => Response)[]) {
  const last = responses.pop()!;
  server.use(
    ...responses.map((response) => http.get(USER_CALL, response, { once: true })),
    http.get(USER_CALL, last),
  );
}
const unauthenticated = () => json({ message: 'Unauthenticated.' }, 401);
const signedIn =
  (overrides: Record<string, unknown> = {}) =>
  () =>
    json({ data: user(overrides) });

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
let calls: Call[];

beforeAll(async () => {
  await changeLanguage('en');
});

beforeEach(() => {
  toasts = [];
  alerts = [];
  queryClient.clear();
  setFeedback({
    alert: ({ content }) => alerts.push(String(content)),
    confirm: vi.fn(),
    toast: (_kind, content) => toasts.push(content),
  });
  calls = recordCalls();
  document.cookie = 'XSRF-TOKEN=t; path=/';
});

afterEach(() => {
  vi.useRealTimers();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('the route guard', () => {
  it('sends a browser without a session to the login page with the target, without a call', async () => {
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    expect(await run(guardPage(), '/fund/fundWater?page=2')).toBe(
      '/login?redirect=%2Ffund%2FfundWater%3Fpage%3D2',
    );
    expect(calls).toEqual([]);
  });

  it('sends an ended session (401 on the user call) to the login page, with no dialog', async () => {
    answerUser(unauthenticated);
    expect(await run(guardPage(), '/dashboard')).toBe('/login?redirect=%2Fdashboard');
    expect(toasts).toEqual([]);
  });

  it('asks once on a 401: an ended session is not retried', async () => {
    answerUser(unauthenticated);
    await run(guardPage(), '/dashboard');
    expect(calls).toHaveLength(1);
  });

  const userCalls = () => calls.filter((call) => call.url === USER_CALL).length;
  /** Runs the loader with the retries' waits passed at once (a fake clock: no test sleeps). */
  async function runWithRetries(path: string) {
    vi.useFakeTimers();
    const result = run(guardPage(), path);
    await vi.runAllTimersAsync();
    return result;
  }

  it('retries a user-info failure other than 401 (the server briefly down), then lets the user through', async () => {
    answerUser(
      () => json({ message: 'Service Unavailable', code: 'server_error' }, 503),
      // The network failing ("Failed to fetch").
      () => HttpResponse.error(),
      signedIn(),
    );
    expect(await runWithRetries('/withdrawal/record')).toBeNull();
    expect(userCalls()).toBe(3);
    expect([...toasts, ...alerts]).toEqual([]);
  });

  it('after the retries: "Verification failed, please Login again.", session reset, login page with the target', async () => {
    answerUser(() => HttpResponse.error());
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
    answerUser(signedIn());
    expect(await run(guardPage({ perm: 'withdrawal:view' }), '/withdrawal/record')).toBeNull();
  });

  it('sends a user without the permission to /403', async () => {
    answerUser(signedIn());
    expect(await run(guardPage({ perm: 'access-key:manage' }), '/setting/interfaceKey')).toBe('/403');
  });

  it('asks the server for the user once, not on every navigation', async () => {
    answerUser(signedIn());
    await run(guardPage({ perm: 'dashboard:view' }), '/dashboard');
    await run(guardPage({ perm: 'topup:view' }), '/recharge/record');
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['an empty array', []],
    ['missing', undefined],
    ['not an array', 'ROOT'],
  ])(
    'roles %s: "Verification failed, please Login again.", session reset, login page',
    async (_label, roles) => {
      answerUser(signedIn({ roles }));
      expect(await run(guardPage(), '/dashboard')).toBe('/login?redirect=%2Fdashboard');
      expect(toasts).toEqual(['Verification failed, please Login again.']);
      expect(calls.map((call) => `${call.method} ${call.url}`)).toContain('POST /api/logout');
      expect(queryClient.getQueryData(['merchant', 'user'])).toBeUndefined();
    },
  );

  it("a group's own path goes to its first page the user may open", async () => {
    answerUser(signedIn());
    const topUp = ROUTE_GROUPS.find((group) => group.path === '/recharge')!;
    expect(await run(redirectGroup(topUp), '/recharge')).toBe('/recharge/record');
  });
});
