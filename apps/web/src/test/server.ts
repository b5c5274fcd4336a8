import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { File as NodeFile } from 'node:buffer';
import { vi } from 'vitest';
import type { MerchantLimits } from '@paydesk/shared/limits/limits.schemas.ts';

// One mock API for every web test (MSW): the handlers below answer what any page asks on its way in; a
// test adds its own with `server.use(...)`, which setup.ts drops after each test. A call no handler
// answers fails the test (onUnhandledFrame: 'error'), so a page that asks something new is noticed.

/** The console's signed-in user as most tests want it (ROOT of the CNY demo merchant, zone +08:00). */
export const TEST_USER = {
  id: 1,
  name: 'Demo Root',
  email: 'root@demo.paydesk.test',
  roles: ['ROOT'],
  perms: [] as string[],
  two_factor_enabled: true,
  timezone: '+08:00' as string | null,
  merchant: { no: 'M100001', name: 'Demo Store', currency: 'CNY' },
};

/** A JSON answer as the API gives it: `{ data }` for success bodies is the caller's to wrap. */
export const json = (body: unknown, status = 200) => HttpResponse.json(body as never, { status });

/** The API's error shape (DESIGN 5): a message and a code. */
export const apiError = (status: number, code: string, message = code) =>
  HttpResponse.json({ message, code }, { status });

/** A refusal of one field (422 unless told): the API's error shape with the field's message in `errors`. */
export const fieldError = (field: string, code: string, message: string, status = 422) =>
  HttpResponse.json({ message, code, errors: { [field]: [message] } }, { status });

/** GET /api/merchant/limits of a merchant without limits of the kind, but for `changes`. */
export const noLimits = (
  kind: MerchantLimits['kind'],
  changes: Partial<MerchantLimits> = {},
): MerchantLimits => ({
  kind,
  currency: kind === 'withdrawal' ? 'USDT' : 'CNY',
  day: '2026-03-01',
  per_order_min: null,
  per_order_max: null,
  daily_amount: null,
  daily_count: null,
  payee_daily_count: null,
  used_amount: kind === 'withdrawal' ? '0.000000' : '0.00',
  used_count: 0,
  remaining_amount: null,
  remaining_count: null,
  ...changes,
});

export const defaultHandlers: RequestHandler[] = [
  http.get('/api/csrf-cookie', () => new HttpResponse(null, { status: 204 })),
  http.get('/api/merchant/user', () => json({ data: TEST_USER })),
  http.post('/api/logout', () => new HttpResponse(null, { status: 204 })),
  // The layout records the console's language as the user's mail language (DESIGN 16).
  http.put('/api/user/locale', async ({ request }) => json({ data: await request.json() })),
  // The header bell polls the unread count (DESIGN 16): none unless a test says so.
  http.get('/api/merchant/notifications', () => json({ data: [], meta: { unread: 0, next_before: null } })),
  // The payout and withdrawal forms ask which limits apply (DESIGN 14): none unless a test says so.
  http.get('/api/merchant/limits', ({ request }) =>
    json({
      data: noLimits((new URL(request.url).searchParams.get('kind') ?? 'payout') as MerchantLimits['kind']),
    }),
  ),
];

export const server = setupServer(...defaultHandlers);

/**
 * A request as a test asserts on it: its method, path with query (`url`), the path and query apart, and
 * its body (JSON or a form's fields).
 */
export type Call = { method: string; url: string; path: string; query: URLSearchParams; body: unknown };

async function bodyOf(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) return Object.fromEntries(await request.formData());
  const text = await request.text();
  return text === '' ? undefined : JSON.parse(text);
}

/** The session's own calls, sent by every page on its way in: not what a page under test asked. */
const SESSION_PATHS = new Set(['/api/csrf-cookie', '/api/merchant/user']);

/**
 * Every request sent from now until the test ends, in order (setup.ts stops the recording); with
 * `{ page: true }`, only the page's own (without the session's csrf and user calls).
 */
export function recordCalls({ page = false }: { page?: boolean } = {}): Call[] {
  const calls: Call[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (page && SESSION_PATHS.has(url.pathname)) return;
    const call: Call = {
      method: request.method,
      url: url.pathname + url.search,
      path: url.pathname,
      query: url.searchParams,
      body: undefined,
    };
    calls.push(call);
    // Read before the handler answers, so the body is there by the time the page shows the answer.
    void bodyOf(request.clone()).then((body) => (call.body = body));
  });
  return calls;
}

/**
 * Node's own FormData and File in place of jsdom's, for a test that uploads a file: Node's fetch (which the
 * mock API answers) cannot send a jsdom File in a form, nor can a handler read a form's file while File is
 * jsdom's. Call it before the page renders; `vi.unstubAllGlobals()` puts jsdom's back.
 */
export async function stubNodeMultipart() {
  const form = await new Response(new URLSearchParams()).formData();
  vi.stubGlobal('FormData', form.constructor);
  vi.stubGlobal('File', NodeFile);
}

/** The signed-in user as TEST_USER with these changes (its permissions, two-factor...), for this test. */
export const signInAs = (changes: Partial<typeof TEST_USER>) =>
  server.use(http.get('/api/merchant/user', () => json({ data: { ...TEST_USER, ...changes } })));

export { http, HttpResponse };
