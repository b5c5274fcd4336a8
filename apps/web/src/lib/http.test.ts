import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import { changeLanguage } from '../i18n/index.ts';
import { type AlertOptions, type ConfirmOptions, setFeedback } from './feedback.ts';
import { configureHttp, http, HttpError, REQUEST_TIMEOUT_MS, resetHttpStateForTests } from './http.ts';
import { registerPasswordPrompt } from './password-prompt.ts';

const json = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

let alerts: (AlertOptions & { afterClose: () => void })[];
let confirms: ConfirmOptions[];
let navigate: ReturnType<typeof vi.fn<(path: string) => void>>;
let onSessionExpired: ReturnType<typeof vi.fn<() => void>>;
let fetchMock: ReturnType<typeof vi.fn>;

const clearCookies = () => {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0].trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
};

beforeAll(async () => {
  await changeLanguage('en');
});

beforeEach(() => {
  alerts = [];
  confirms = [];
  navigate = vi.fn<(path: string) => void>();
  onSessionExpired = vi.fn<() => void>();
  resetHttpStateForTests();
  setFeedback({
    alert: (options) => alerts.push(options),
    confirm: (options) => confirms.push(options),
    toast: vi.fn(),
  });
  configureHttp({ navigate, onSessionExpired });
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  clearCookies();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const settle = (promise: Promise<unknown>) => promise.catch((error: unknown) => error);

describe('the HTTP client sends', () => {
  it('credentials, JSON, the browser time zone and the XSRF token', async () => {
    document.cookie = 'XSRF-TOKEN=abc%2Bdef';
    fetchMock.mockResolvedValue(json(200, { ok: true }));
    await expect(
      http.put(
        '/api/thing',
        { a: 1 },
        { query: { page: 2, empty: '', none: undefined }, schema: z.object({ ok: z.boolean() }) },
      ),
    ).resolves.toEqual({
      ok: true,
    });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/thing?page=2');
    expect(init.credentials).toBe('include');
    expect(init.method).toBe('PUT');
    expect(init.body).toBe('{"a":1}');
    const headers = init.headers as Record<string, string>;
    expect(headers.Accept).toBe('application/json');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['X-XSRF-TOKEN']).toBe('abc+def');
    expect(headers['X-Timezone']).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('asks for the XSRF cookie first when there is none, once for concurrent calls', async () => {
    fetchMock.mockImplementation(async (url: string) => {
      if (url === '/api/csrf-cookie') {
        document.cookie = 'XSRF-TOKEN=fresh';
        return new Response(null, { status: 204 });
      }
      return new Response(null, { status: 204 });
    });
    await Promise.all([http.post('/api/a'), http.post('/api/b')]);
    const urls = fetchMock.mock.calls.map(([url]) => url);
    expect(urls.filter((url) => url === '/api/csrf-cookie')).toHaveLength(1);
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/a')![1] as RequestInit;
    expect((post.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('fresh');
  });

  it('multipart bodies as they are, without a JSON content type', async () => {
    document.cookie = 'XSRF-TOKEN=t';
    fetchMock.mockResolvedValue(json(200, { two_factor: false }));
    const form = new FormData();
    form.set('email', 'a@b.c');
    await http.post('/api/login', form);
    const init = fetchMock.mock.calls[0][1] as RequestInit;
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });
});

describe('the error catalogue (spec section 8)', () => {
  it('401: one "log in again" dialog however many calls fail; OK resets and goes to login', async () => {
    fetchMock.mockImplementation(async () => json(401, { message: 'Unauthenticated.' }));
    const errors = await Promise.all([
      settle(http.get('/api/a')),
      settle(http.get('/api/b')),
      settle(http.get('/api/c')),
    ]);
    expect(errors.every((error) => error instanceof HttpError && error.status === 401)).toBe(true);
    expect(confirms).toHaveLength(1);
    expect(confirms[0].content).toBe('The current page is invalid, please log in again');
    expect(alerts).toHaveLength(0);
    expect(onSessionExpired).not.toHaveBeenCalled();

    // More failures while the dialog is open: still one dialog.
    await settle(http.get('/api/d'));
    expect(confirms).toHaveLength(1);

    confirms[0].onOk();
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    confirms[0].afterClose();
    await settle(http.get('/api/e'));
    expect(confirms).toHaveLength(2);
  });

  it("403: goes to /403 and says 'Forbidden. Please contact our support team', with or without a body", async () => {
    fetchMock.mockResolvedValueOnce(
      json(403, { message: 'You do not have permission to do this.', code: 'forbidden' }),
    );
    fetchMock.mockResolvedValueOnce(json(403));
    await settle(http.get('/api/merchant/access-key'));
    expect(navigate).toHaveBeenCalledWith('/403');
    expect(alerts.map((a) => a.content)).toEqual(['Forbidden. Please contact our support team']);
    alerts[0].afterClose();
    await settle(http.get('/api/x'));
    expect(alerts[1].content).toBe('Forbidden. Please contact our support team');
  });

  it("419: 'The page has expired, please refresh and try again'", async () => {
    document.cookie = 'XSRF-TOKEN=stale';
    fetchMock.mockResolvedValue(json(419, { message: 'CSRF token mismatch.', code: 'csrf_mismatch' }));
    await settle(http.post('/api/x', {}));
    expect(alerts.map((a) => a.content)).toEqual(['The page has expired, please refresh and try again']);
    expect(navigate).not.toHaveBeenCalled();
  });

  it("422 validation_failed: an alert with the server's message and the button 'Got it'", async () => {
    document.cookie = 'XSRF-TOKEN=t';
    fetchMock.mockResolvedValue(
      json(422, {
        message: 'The amount field is required.',
        code: 'validation_failed',
        errors: { amount: ['The amount field is required.'] },
      }),
    );
    const error = (await settle(http.post('/api/x', {}))) as HttpError;
    expect(error.status).toBe(422);
    expect(error.fieldErrors()).toEqual({ amount: 'The amount field is required.' });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ content: 'The amount field is required.', okText: 'Got it' });
  });

  it('422 handled by the caller (a form): no dialog, field errors to show in place', async () => {
    document.cookie = 'XSRF-TOKEN=t';
    fetchMock.mockResolvedValue(
      json(422, {
        message: 'These credentials do not match our records.',
        code: 'bad_credentials',
        errors: { email: ['These credentials do not match our records.'] },
      }),
    );
    const error = (await settle(http.post('/api/login', {}, { handled: [422] }))) as HttpError;
    expect(error.code).toBe('bad_credentials');
    expect(error.fieldErrors()).toEqual({ email: 'These credentials do not match our records.' });
    expect(alerts).toHaveLength(0);
  });

  it("500: 'System error' (the server_error code), or when the answer is not JSON at all", async () => {
    fetchMock.mockResolvedValueOnce(
      json(500, { message: 'System error', code: 'server_error', request_id: 'req-1' }),
    );
    fetchMock.mockResolvedValueOnce(new Response('<html>Bad gateway</html>', { status: 502 }));
    await settle(http.get('/api/x'));
    alerts[0].afterClose();
    await settle(http.get('/api/y'));
    expect(alerts.map((a) => [a.content, a.kind, a.okText])).toEqual([
      ['System error', 'error', 'Got it'],
      ['System error', 'error', 'Got it'],
    ]);
  });

  it("a code this console does not know yet: the server's message as sent", async () => {
    fetchMock.mockResolvedValue(json(409, { message: 'The channel is closed.', code: 'channel_closed' }));
    const error = (await settle(http.get('/api/x'))) as HttpError;
    expect(error.code).toBe('channel_closed');
    expect(alerts.map((a) => a.content)).toEqual(['The channel is closed.']);
  });

  it('the same message from several calls at once is one alert', async () => {
    fetchMock.mockImplementation(async () => json(500));
    await Promise.all([settle(http.get('/a')), settle(http.get('/b'))]);
    expect(alerts).toHaveLength(1);
    alerts[0].afterClose();
    await settle(http.get('/c'));
    expect(alerts).toHaveLength(2);
  });

  it('a call that takes more than 50 s is abandoned with an alert', async () => {
    vi.useFakeTimers();
    expect(REQUEST_TIMEOUT_MS).toBe(50_000);
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = settle(http.get('/api/slow'));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(alerts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    const error = (await pending) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.kind).toBe('timeout');
    expect(alerts.map((a) => a.content)).toEqual(['The request timed out, please try again']);
  });

  it('a call the page cancels shows nothing', async () => {
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const controller = new AbortController();
    const pending = settle(http.get('/api/x', { signal: controller.signal }));
    controller.abort();
    expect(await pending).not.toBeInstanceOf(HttpError);
    expect(alerts).toHaveLength(0);
  });

  it("shows the code's text in the user's language, never the server's English", async () => {
    await changeLanguage('zh-cn');
    try {
      fetchMock.mockResolvedValue(
        json(400, { message: 'This feature is not enabled yet', code: 'two_factor_required' }),
      );
      await settle(http.get('/api/x'));
      expect(alerts[0].content).toBe('此功能尚未开启');
      expect(alerts[0].okText).toBe('知道了');
    } finally {
      await changeLanguage('en');
    }
  });
});

describe('codes with fields, time left and password confirmation', () => {
  beforeEach(() => {
    document.cookie = 'XSRF-TOKEN=t';
  });

  it('a 422 with a domain code shows its text under the field the server names, in the user language', async () => {
    await changeLanguage('zh-cn');
    try {
      fetchMock.mockResolvedValue(
        json(422, {
          message: 'The provided password was incorrect.',
          code: ERROR_CODES.passwordIncorrect,
          errors: { password: ['The provided password was incorrect.'] },
        }),
      );
      const error = (await settle(
        http.post('/api/user/confirm-password', {}, { handled: [422] }),
      )) as HttpError;
      expect(error.fieldErrors()).toEqual({ password: '密码不正确。' });
      expect(error.formErrors('password')).toEqual([{ name: 'password', errors: ['密码不正确。'] }]);
    } finally {
      await changeLanguage('en');
    }
  });

  it("a 422 validation_failed keeps the server's own message under each field", async () => {
    fetchMock.mockResolvedValue(
      json(422, {
        message: 'The name field is required. (and 1 more error)',
        code: ERROR_CODES.validationFailed,
        errors: {
          name: ['The name field is required.'],
          email: ['The email field must be a valid email address.'],
        },
      }),
    );
    const error = (await settle(
      http.put('/api/user/profile-information', {}, { handled: [422] }),
    )) as HttpError;
    expect(error.formErrors('email')).toEqual([
      { name: 'name', errors: ['The name field is required.'] },
      { name: 'email', errors: ['The email field must be a valid email address.'] },
    ]);
  });

  it('429: "try again in N seconds" from Retry-After, as an alert or, for a form, under its field', async () => {
    fetchMock.mockImplementation(async () =>
      json(429, { message: 'Too many attempts.', code: 'throttled' }, { 'retry-after': '42' }),
    );
    const alerted = (await settle(http.post('/api/x', {}))) as HttpError;
    expect(alerts.map((a) => a.content)).toEqual(['Too many attempts. Please try again in 42 seconds.']);
    expect(alerted.formErrors('code')).toEqual([]);

    const handled = (await settle(http.post('/api/x', {}, { handled: [429] }))) as HttpError;
    expect(alerts).toHaveLength(1);
    expect(handled.formErrors('code')).toEqual([
      { name: 'code', errors: ['Too many attempts. Please try again in 42 seconds.'] },
    ]);
  });

  it('423 payment_locked: the minutes left, from Retry-After', async () => {
    fetchMock.mockResolvedValue(
      json(423, { message: 'Locked.', code: 'payment_locked' }, { 'retry-after': '1741' }),
    );
    const error = (await settle(
      http.put('/api/merchant/payment-password', {}, { handled: [423] }),
    )) as HttpError;
    expect(error.message).toBe(
      'Too many wrong payment passwords. Money-moving actions are locked for 30 more minutes.',
    );
  });

  it('423 password_confirmation_required: asks for the password once, then sends the call again', async () => {
    let isConfirmed = false;
    const prompt = vi.fn(async () => {
      isConfirmed = true;
      return true;
    });
    const unregister = registerPasswordPrompt(prompt);
    try {
      fetchMock.mockImplementation(async () =>
        isConfirmed
          ? json(200, { data: { ended: 2 } })
          : json(423, { message: 'Password confirmation required.', code: 'password_confirmation_required' }),
      );
      const schema = z.object({ data: z.object({ ended: z.number() }) });
      const [a, b] = await Promise.all([
        http.delete('/api/user/other-browser-sessions', undefined, { schema }),
        http.delete('/api/user/other-browser-sessions', undefined, { schema }),
      ]);
      expect([a.data.ended, b.data.ended]).toEqual([2, 2]);
      expect(prompt).toHaveBeenCalledTimes(1);
      expect(fetchMock).toHaveBeenCalledTimes(4);
      expect(alerts).toHaveLength(0);
    } finally {
      unregister();
    }
  });

  it('423 password_confirmation_required: closing the prompt cancels quietly; without a prompt it is an alert', async () => {
    fetchMock.mockImplementation(async () =>
      json(423, { message: 'Password confirmation required.', code: 'password_confirmation_required' }),
    );
    const unregister = registerPasswordPrompt(async () => false);
    const cancelled = (await settle(http.post('/api/user/two-factor-recovery-codes'))) as HttpError;
    unregister();
    expect(cancelled.kind).toBe('cancelled');
    expect(alerts).toHaveLength(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await settle(http.post('/api/user/two-factor-recovery-codes'));
    expect(alerts.map((a) => a.content)).toEqual(['Please confirm your password first.']);
  });
});

describe('answers are parsed with the shared schemas', () => {
  const Schema = z.object({ data: z.object({ total: z.string(), count: z.coerce.number() }) });

  it('resolves to what the schema parses', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { total: '1.00', count: '3', extra: true } }));
    await expect(http.get('/api/x', { schema: Schema })).resolves.toEqual({
      data: { total: '1.00', count: 3 },
    });
  });

  it("an answer the schema refuses is a 'System error' and a console error naming the call", async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockResolvedValue(json(200, { data: { total: 1 } }));
    const error = (await settle(http.get('/api/x', { schema: Schema }))) as HttpError;
    expect(error.kind).toBe('contract');
    expect(alerts.map((a) => [a.content, a.kind])).toEqual([['System error', 'error']]);
    expect(String(consoleError.mock.calls[0][0])).toContain('GET /api/x');
    consoleError.mockRestore();
  });

  it('takes the promise of a schema (one still loading) and parses with it once the answer is in', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { total: '1.00', count: '3' } }));
    await expect(http.get('/api/x', { schema: Promise.resolve(Schema) })).resolves.toEqual({
      data: { total: '1.00', count: 3 },
    });
  });

  it('a schema that fails to load fails the call as the network would', async () => {
    fetchMock.mockResolvedValue(json(200, { data: { total: '1.00', count: '3' } }));
    const schema = Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    const error = (await settle(http.get('/api/x', { schema }))) as HttpError;
    expect([error.kind, error.status]).toEqual(['network', 0]);
    expect(alerts.map((a) => [a.content, a.kind])).toEqual([[error.message, 'error']]);
  });

  it("a caller may claim the refusal ('contract') and show it its own way", async () => {
    fetchMock.mockResolvedValue(json(200, { data: null }));
    const error = (await settle(http.get('/api/x', { schema: Schema, handled: ['contract'] }))) as HttpError;
    expect(error.kind).toBe('contract');
    expect(alerts).toHaveLength(0);
  });
});
