// The one HTTP client of the console and the only place that knows the error catalogue (spec section 8).
import i18n from '../i18n/index.ts';
import { feedback } from './feedback.ts';

export const REQUEST_TIMEOUT_MS = 50_000;
const XSRF_COOKIE = 'XSRF-TOKEN';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type ErrorBody = {
  message?: string;
  code?: string;
  errors?: Record<string, string[]>;
  request_id?: string;
};

export type HttpErrorKind = 'http' | 'timeout' | 'network';

export class HttpError extends Error {
  readonly status: number;
  readonly kind: HttpErrorKind;
  readonly body: ErrorBody | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    init: { status: number; kind: HttpErrorKind; body?: ErrorBody; retryAfterSeconds?: number },
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = init.status;
    this.kind = init.kind;
    this.body = init.body;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** The first message of each invalid field (Laravel's 422 shape), translated when we know it. */
  fieldErrors(): Record<string, string> {
    const fields: Record<string, string> = {};
    for (const [field, messages] of Object.entries(this.body?.errors ?? {})) {
      if (messages[0]) fields[field] = translateServerMessage(messages[0]);
    }
    return fields;
  }
}

export const isHttpError = (error: unknown): error is HttpError => error instanceof HttpError;

type Hooks = {
  /** Client-side navigation (the router's). */
  navigate: (path: string) => void;
  /** The user confirmed the "log in again" dialog: forget the session and go to the login page. */
  onSessionExpired: () => void;
};

let hooks: Hooks = {
  navigate: (path) => window.location.assign(path),
  onSessionExpired: () => window.location.assign('/login'),
};

export const configureHttp = (next: Hooks): void => {
  hooks = next;
};

export type QueryValue = string | number | boolean | null | undefined;

export type RequestOptions = {
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Error statuses the caller shows itself (a form that puts 422 errors under its fields); the client
   * throws them without any dialog. Use 'all' for calls whose failure the caller fully owns.
   */
  handled?: readonly number[] | 'all';
};

const t = (key: string, options?: Record<string, unknown>): string =>
  i18n.t(key, { ns: 'errors', ...options });

/** Known server messages (English on the wire) in the user's language; anything else as sent. */
export function translateServerMessage(message: string): string {
  const lookup = { ns: 'server', keySeparator: false, nsSeparator: false } as const;
  return i18n.exists(message, lookup) ? i18n.t(message, lookup) : message;
}

export function readCookie(name: string): string | null {
  const match = document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
  return match ? decodeURIComponent(match[1]) : null;
}

let csrfRequest: Promise<void> | null = null;

/** Sanctum: the XSRF-TOKEN cookie comes from GET /api/csrf-cookie; fetch it once when absent. */
export async function ensureXsrfToken(): Promise<string | null> {
  if (!readCookie(XSRF_COOKIE)) {
    csrfRequest ??= fetch('/api/csrf-cookie', {
      credentials: 'include',
      headers: { Accept: 'application/json' },
    })
      .then(() => undefined)
      .finally(() => {
        csrfRequest = null;
      });
    await csrfRequest;
  }
  return readCookie(XSRF_COOKIE);
}

/** Whether this browser holds a session at all (the XSRF cookie lives and dies with it). */
export const hasSessionCookie = (): boolean => readCookie(XSRF_COOKIE) !== null;

const browserTimeZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

function buildUrl(url: string, query: RequestOptions['query']): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  return text;
}

async function request<T>(
  method: string,
  url: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Timezone': browserTimeZone(),
    'X-Requested-With': 'XMLHttpRequest',
  };
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  let response: Response;
  try {
    if (UNSAFE_METHODS.has(method)) {
      const token = await ensureXsrfToken();
      if (token) headers['X-XSRF-TOKEN'] = token;
    } else {
      const token = readCookie(XSRF_COOKIE);
      if (token) headers['X-XSRF-TOKEN'] = token;
    }
    response = await fetch(buildUrl(url, options.query), {
      method,
      credentials: 'include',
      headers,
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (cause) {
    // The caller cancelled (a page left, a query replaced): not an error anyone should see.
    if (options.signal?.aborted && !timedOut) throw cause;
    const error = timedOut
      ? new HttpError(t('timeout'), { status: 0, kind: 'timeout' })
      : new HttpError(t('network'), { status: 0, kind: 'network' });
    report(error, options);
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }

  const data = await readBody(response);
  if (response.ok) return data as T;

  const errorBody = typeof data === 'object' && data !== null ? (data as ErrorBody) : undefined;
  const retryAfter = Number(response.headers.get('retry-after'));
  const error = new HttpError(errorBody?.message ? translateServerMessage(errorBody.message) : t('system'), {
    status: response.status,
    kind: 'http',
    body: errorBody,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  });
  report(error, options);
  throw error;
}

let isSessionDialogOpen = false;
const openAlerts = new Set<string>();

function alertOnce(content: string, kind: 'warning' | 'error') {
  // The same message from several calls at once is one dialog, not a stack of them.
  if (openAlerts.has(content)) return;
  openAlerts.add(content);
  feedback().alert({
    title: t('alertTitle'),
    content,
    okText: t('gotIt'),
    kind,
    afterClose: () => openAlerts.delete(content),
  });
}

function showSessionExpired() {
  if (isSessionDialogOpen) return;
  isSessionDialogOpen = true;
  feedback().confirm({
    title: t('sessionExpiredTitle'),
    content: t('sessionExpired'),
    okText: t('loginAgain'),
    cancelText: t('cancel'),
    onOk: () => hooks.onSessionExpired(),
    afterClose: () => {
      isSessionDialogOpen = false;
    },
  });
}

/** The spec's error catalogue. */
function report(error: HttpError, options: RequestOptions) {
  const { handled } = options;
  if (handled === 'all' || (error.status && handled?.includes(error.status))) return;
  switch (error.status) {
    case 401:
      return showSessionExpired();
    case 403:
      hooks.navigate('/403');
      return alertOnce(error.body?.message ? error.message : t('forbidden'), 'warning');
    case 419:
      return alertOnce(t('pageExpired'), 'warning');
    default:
      return alertOnce(error.message, error.status >= 500 || error.status === 0 ? 'error' : 'warning');
  }
}

export const http = {
  get: <T>(url: string, options?: RequestOptions) => request<T>('GET', url, undefined, options),
  post: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('POST', url, body, options),
  put: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', url, body, options),
  patch: <T>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', url, body, options),
  delete: <T>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T>('DELETE', url, body, options),
};

/** For tests: forget open dialogs between cases. */
export function resetHttpStateForTests(): void {
  isSessionDialogOpen = false;
  openAlerts.clear();
  csrfRequest = null;
}
