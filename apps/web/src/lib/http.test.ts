import { delay } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import { changeLanguage } from '../i18n/index.ts';
import { http as mock, HttpResponse, server } from '../test/server.ts';
import { type AlertOptions, type ConfirmOptions, setFeedback } from './feedback.ts';
import { configureHttp, http, HttpError, REQUEST_TIMEOUT_MS, resetHttpStateForTests } from './http.ts';
import { registerPasswordPrompt } from './password-prompt.ts';

/** An answer of the mock API: JSON with this status (no body when none is given) and these headers. */
const json = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
  new HttpResponse(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

type Answer = Response | ((request: Request) => Response | Promise<Response>);

let alerts: (AlertOptions & { afterClose: () => void })[];
let confirms: ConfirmOptions[];
let navigate: ReturnType<typeof vi.fn<(path: string) => void>>;
let onSessionExpired: ReturnType<typeof vi.fn<() => void>>;
/** Every request the mock API received, in order, as the client sent it (a copy, its body unread). */
let received: Request[];

/** The mock API answers every call, whatever its path, with this (a response, or one made per request). */
const answerAll = (answer: Answer) =>
  server.use(
    mock.all('*', ({ request }) => {
      received.push(request.clone());
      return typeof answer === 'function' ? answer(request) : answer.clone();
    }),
  );

/** The mock API answers the next calls, whatever their paths, with these, one each, in order. */
const answerInTurn = (...answers: Response[]) =>
  server.use(
    ...answers.map((answer) =>
      mock.all(
        '*',
        ({ request }) => {
          received.push(request.clone());
          return answer;
        },
        { once: true },
      ),
    ),
  );

/** A request's path and query, as the client asked for it. */
const pathOf = (request: Request) => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

/** An answer that never comes: the call waits until it is aborted. */
const never = async (): Promise<Response> => {
  await delay('infinite');
  return new HttpResponse(null, { status: 204 });
};

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
  received = [];
  resetHttpStateForTests();
  setFeedback({
    alert: (options) => alerts.push(options),
    confirm: (options) => confirms.push(options),
    toast: vi.fn(),
  });
  configureHttp({ navigate, onSessionExpired });
  clearCookies();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const settle = (promise: Promise<unknown>) => promise.catch((error: unknown) => error);

describe('the HTTP client sends', () => {
  it('credentials, JSON, the browser time zone and the XSRF token', async () => {
    document.cookie = 'XSRF-TOKEN=abc%2Bdef';
    answerAll(json(200, { ok: true }));
    // The credentials mode never reaches the mock API (MSW sees the request below fetch, where Node has
    // dropped it): watched on its way into fetch, which still sends the call.
    const sent = vi.spyOn(globalThis, 'fetch');
    await expect(
      http.put(
        '/api/thing',
        { a: 1 },
        { query: { page: 2, empty: '', none: undefined }, schema: z.object({ ok: z.boolean() }) },
      ),
    ).resolves.toEqual({
      ok: true,
    });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(pathOf(request)).toBe('/api/thing?page=2');
    expect(sent.mock.calls.map(([, init]) => init?.credentials)).toEqual(['include']);
    expect(request.method).toBe('PUT');
    expect(await request.text()).toBe('{"a":1}');
    expect(request.headers.get('Accept')).toBe('application/json');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.headers.get('X-XSRF-TOKEN')).toBe('abc+def');
    expect(request.headers.get('X-Timezone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('asks for the XSRF cookie first when there is none, once for concurrent calls', async () => {
    answerAll((request) => {
      // The server's answer sets the cookie; here the handler does, as the browser would on reading it.
      if (pathOf(request) === '/api/csrf-cookie') document.cookie = 'XSRF-TOKEN=fresh';
      return new HttpResponse(null, { status: 204 });
    });
    await Promise.all([http.post('/api/a'), http.post('/api/b')]);
    expect(received.map(pathOf).sort()).toEqual(['/api/a', '/api/b', '/api/csrf-cookie']);
    expect(pathOf(received[0])).toBe('/api/csrf-cookie');
    for (const post of received.slice(1)) expect(post.headers.get('X-XSRF-TOKEN')).toBe('fresh');
  });

  it('multipart bodies as they are, without a JSON content type', async () => {
    document.cookie = 'XSRF-TOKEN=t';
    answerAll(json(200, { two_factor: false }));
    const form = new FormData();
    form.set('email', 'a@b.c');
    await http.post('/api/login', form);
    const [request] = received;
    // The browser's own multipart type with its boundary, not the JSON type a plain body gets.
    expect(request.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(Object.fromEntries(await request.formData())).toEqual({ email: 'a@b.c' });
  });
});

describe('the error catalogue (spec section 8)', () => {
  it('401: one "log in again" dialog however many calls fail; OK resets and goes to login', async () => {
    answerAll(json(401, { message: 'Unauthenticated.' }));
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
    answerInTurn(
      json(403, { message: 'You do not have permission to do this.', code: 'forbidden' }),
      json(403),
    );
    await settle(http.get('/api/merchant/access-key'));
    expect(navigate).toHaveBeenCalledWith('/403');
    expect(alerts.map((a) => a.content)).toEqual(['Forbidden. Please contact our support team']);
    alerts[0].afterClose();
    await settle(http.get('/api/x'));
    expect(alerts[1].content).toBe('Forbidden. Please contact our support team');
  });

  it("419: 'The page has expired, please refresh and try again'", async () => {
    document.cookie = 'XSRF-TOKEN=stale';
    answerAll(json(419, { message: 'CSRF token mismatch.', code: 'csrf_mismatch' }));
    await settle(http.post('/api/x', {}));
    expect(alerts.map((a) => a.content)).toEqual(['The page has expired, please refresh and try again']);
    expect(navigate).not.toHaveBeenCalled();
  });

  it("422 validation_failed: an alert with the server's message and the button 'Got it'", async () => {
    document.cookie = 'XSRF-TOKEN=t';
    answerAll(
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
    answerAll(
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
    answerInTurn(
      json(500, { message: 'System error', code: 'server_error', request_id: 'req-1' }),
      new HttpResponse('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    await settle(http.get('/api/x'));
    alerts[0].afterClose();
    await settle(http.get('/api/y'));
    expect(alerts.map((a) => [a.content, a.kind, a.okText])).toEqual([
      ['System error', 'error', 'Got it'],
      ['System error', 'error', 'Got it'],
    ]);
  });

  it("a code this console does not know yet: the server's message as sent", async () => {
    answerAll(json(409, { message: 'The channel is closed.', code: 'channel_closed' }));
    const error = (await settle(http.get('/api/x'))) as HttpError;
    expect(error.code).toBe('channel_closed');
    expect(alerts.map((a) => a.content)).toEqual(['The channel is closed.']);
  });

  it('the same message from several calls at once is one alert', async () => {
    answerAll(json(500));
    await Promise.all([settle(http.get('/a')), settle(http.get('/b'))]);
    expect(alerts).toHaveLength(1);
    alerts[0].afterClose();
    await settle(http.get('/c'));
    expect(alerts).toHaveLength(2);
  });

  it('a call that takes more than 50 s is abandoned with an alert', async () => {
    vi.useFakeTimers();
    expect(REQUEST_TIMEOUT_MS).toBe(50_000);
    answerAll(never);
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
    answerAll(never);
    const controller = new AbortController();
    const pending = settle(http.get('/api/x', { signal: controller.signal }));
    controller.abort();
    expect(await pending).not.toBeInstanceOf(HttpError);
    expect(alerts).toHaveLength(0);
  });

  it("shows the code's text in the user's language, never the server's English", async () => {
    await changeLanguage('zh-cn');
    try {
      answerAll(json(400, { message: 'This feature is not enabled yet', code: 'two_factor_required' }));
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
      answerAll(
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
    answerAll(
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
    answerAll(() => json(429, { message: 'Too many attempts.', code: 'throttled' }, { 'retry-after': '42' }));
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
    answerAll(json(423, { message: 'Locked.', code: 'payment_locked' }, { 'retry-after': '1741' }));
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
      answerAll(() =>
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
      expect(received.map(pathOf)).toEqual(Array(4).fill('/api/user/other-browser-sessions'));
      expect(alerts).toHaveLength(0);
    } finally {
      unregister();
    }
  });

  it('423 password_confirmation_required: closing the prompt cancels quietly; without a prompt it is an alert', async () => {
    answerAll(() =>
      json(423, { message: 'Password confirmation required.', code: 'password_confirmation_required' }),
    );
    const unregister = registerPasswordPrompt(async () => false);
    const cancelled = (await settle(http.post('/api/user/two-factor-recovery-codes'))) as HttpError;
    unregister();
    expect(cancelled.kind).toBe('cancelled');
    expect(alerts).toHaveLength(0);
    expect(received).toHaveLength(1);

    await settle(http.post('/api/user/two-factor-recovery-codes'));
    expect(alerts.map((a) => a.content)).toEqual(['Please confirm your password first.']);
  });
});

describe('answers are parsed with the shared schemas', () => {
  const Schema = z.object({ data: z.object({ total: z.string(), count: z.coerce.number() }) });

  it('resolves to what the schema parses', async () => {
    answerAll(json(200, { data: { total: '1.00', count: '3', extra: true } }));
    await expect(http.get('/api/x', { schema: Schema })).resolves.toEqual({
      data: { total: '1.00', count: 3 },
    });
  });

  it("an answer the schema refuses is a 'System error' and a console error naming the call", async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    answerAll(json(200, { data: { total: 1 } }));
    const error = (await settle(http.get('/api/x', { schema: Schema }))) as HttpError;
    expect(error.kind).toBe('contract');
    expect(alerts.map((a) => [a.content, a.kind])).toEqual([['System error', 'error']]);
    expect(String(consoleError.mock.calls[0][0])).toContain('GET /api/x');
    consoleError.mockRestore();
  });

  it('takes the promise of a schema (one still loading) and parses with it once the answer is in', async () => {
    answerAll(json(200, { data: { total: '1.00', count: '3' } }));
    await expect(http.get('/api/x', { schema: Promise.resolve(Schema) })).resolves.toEqual({
      data: { total: '1.00', count: 3 },
    });
  });

  it('a schema that fails to load fails the call as the network would', async () => {
    answerAll(json(200, { data: { total: '1.00', count: '3' } }));
    const schema = Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    const error = (await settle(http.get('/api/x', { schema }))) as HttpError;
    expect([error.kind, error.status]).toEqual(['network', 0]);
    expect(alerts.map((a) => [a.content, a.kind])).toEqual([[error.message, 'error']]);
  });

  it("a caller may claim the refusal ('contract') and show it its own way", async () => {
    answerAll(json(200, { data: null }));
    const error = (await settle(http.get('/api/x', { schema: Schema, handled: ['contract'] }))) as HttpError;
    expect(error.kind).toBe('contract');
    expect(alerts).toHaveLength(0);
  });
});
