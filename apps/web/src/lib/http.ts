// The one HTTP client of the console and the only place that knows the error catalogue (spec section 8).
// Every error answer carries a stable `code` (ERROR_CODES in packages/shared); its text in the user's
// language is errors:codes.<code>, the one mapping of codes to the console's three languages.
import type { z } from 'zod';
import { ERROR_CODES, errorCodeOfStatus } from '@paydesk/shared/error-codes.ts';
import { type ErrorBody, parseErrorBody } from '@paydesk/shared/error-body.ts';
import i18n from '../i18n/index.ts';
import { currentMode } from '../stores/mode.ts';
import { browserTimeZone } from './date-time.ts';
import { feedback } from './feedback.ts';
import { askForPassword } from './password-prompt.ts';

export const REQUEST_TIMEOUT_MS = 50_000;
const XSRF_COOKIE = 'XSRF-TOKEN';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// MODE_HEADER of @paydesk/shared/modes/modes.schemas.ts, which the entry cannot import (it loads zod).
const MODE_HEADER = 'X-Mode';

/**
 * http: the server answered an error; timeout and network: no answer; contract: an answer the shared
 * schema refuses; cancelled: the user closed the password prompt the call needed (nothing to show).
 */
export type HttpErrorKind = 'http' | 'timeout' | 'network' | 'contract' | 'cancelled';

const t = (key: string, options?: Record<string, unknown>): string =>
  i18n.t(key, { ns: 'errors', ...options });

// A refusal of the user's input as such: its field messages are the server's own (forms check the same
// rules with the same schemas first, so these are rare). Every other code has its own text.
const isPlainValidation = (code: string | undefined) => code === ERROR_CODES.validationFailed;

/** The code's text in the user's language, with the time left of a throttle or a lock; undefined when unknown. */
function catalogueText(code: string | undefined, retryAfterSeconds: number | undefined): string | undefined {
  if (!code || isPlainValidation(code) || !i18n.exists(`codes.${code}`, { ns: 'errors' })) return undefined;
  const count =
    code === ERROR_CODES.paymentLocked
      ? Math.max(1, Math.ceil((retryAfterSeconds ?? 60) / 60))
      : code === ERROR_CODES.throttled
        ? (retryAfterSeconds ?? 60)
        : undefined;
  return t(`codes.${code}`, count === undefined ? undefined : { count });
}

export class HttpError extends Error {
  readonly status: number;
  readonly kind: HttpErrorKind;
  /** One of ERROR_CODES (a string: a newer server may send one this console does not know yet). */
  readonly code: string | undefined;
  readonly body: ErrorBody | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** What the schema refused in an answer (kind contract). */
  readonly issues: readonly z.core.$ZodIssue[] | undefined;
  /** The client showed it already (a dialog): the caller has nothing more to show. */
  isShown = false;

  constructor(init: {
    status: number;
    kind: HttpErrorKind;
    body?: ErrorBody;
    retryAfterSeconds?: number;
    message?: string;
    issues?: readonly z.core.$ZodIssue[];
  }) {
    const code = init.kind === 'http' ? (init.body?.code ?? errorCodeOfStatus(init.status)) : undefined;
    super(
      init.message ??
        catalogueText(code, init.retryAfterSeconds) ??
        (init.body?.message || t(`codes.${ERROR_CODES.serverError}`)),
    );
    this.name = 'HttpError';
    this.status = init.status;
    this.kind = init.kind;
    this.code = code;
    this.body = init.body;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.issues = init.issues;
  }

  /**
   * The first message of each invalid field (Laravel's 422 shape): the text of the answer's code
   * ("password_incorrect" under `password`), or the server's own words for plain validation.
   */
  fieldErrors(): Record<string, string> {
    const coded = isPlainValidation(this.code) ? undefined : catalogueText(this.code, this.retryAfterSeconds);
    const fields: Record<string, string> = {};
    for (const [field, messages] of Object.entries(this.body?.errors ?? {})) {
      const text = coded ?? messages[0];
      if (text) fields[field] = text;
    }
    return fields;
  }

  /**
   * What a form shows (antd's form.setFields takes it as it is): each invalid field's message, or, for an
   * answer that names no field (a throttle, a lock, a refusal of the whole form), the message under
   * `fallbackField`; nothing when the client already showed the failure in a dialog.
   */
  formErrors<Name extends string>(fallbackField: Name): { name: Name; errors: string[] }[] {
    const fields = Object.entries(this.fieldErrors()).map(([name, text]) => ({
      name: name as Name,
      errors: [text],
    }));
    if (fields.length > 0 || this.isShown) return fields;
    return [{ name: fallbackField, errors: [this.message] }];
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
   * throws them without any dialog; 'contract' is an answer the call's schema refuses. Use 'all' for calls
   * whose failure the caller fully owns.
   */
  handled?: readonly (number | 'contract')[] | 'all';
};
/**
 * A schema, or the promise of one: the login route loads no zod, so its calls import their schema as they
 * start and the client awaits it once the answer is in.
 */
type SchemaSource<S extends z.ZodType = z.ZodType> = S | Promise<S>;
type SendOptions = RequestOptions & { schema?: SchemaSource };

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

/** A schema that could not be loaded (the network went away) fails the call as the network would. */
async function loadSchema<T>(source: T | Promise<T>): Promise<T> {
  try {
    return await source;
  } catch {
    throw new HttpError({ status: 0, kind: 'network', message: t('network') });
  }
}

const isHandled = (error: HttpError, { handled }: RequestOptions) =>
  handled === 'all' ||
  (handled?.includes(error.kind === 'contract' ? 'contract' : error.status) ?? false) ||
  false;

async function send(method: string, url: string, body: unknown, options: SendOptions): Promise<unknown> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Timezone': browserTimeZone(),
    'X-Requested-With': 'XMLHttpRequest',
  };
  // DESIGN 12: every call in test mode says so; live mode sends nothing (the server's default), as before.
  if (currentMode() === 'test') headers[MODE_HEADER] = 'test';
  // Awaited once the answer is in; a failure to load it is handled there, not reported as unhandled now.
  if (options.schema instanceof Promise) options.schema.catch(() => undefined);
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
    throw timedOut
      ? new HttpError({ status: 0, kind: 'timeout', message: t('timeout') })
      : new HttpError({ status: 0, kind: 'network', message: t('network') });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }

  const data = await readBody(response);
  if (response.ok) {
    if (!options.schema) return undefined;
    const parsed = (await loadSchema(options.schema)).safeParse(data);
    if (parsed.success) return parsed.data;
    throw new HttpError({ status: response.status, kind: 'contract', issues: parsed.error.issues });
  }
  // Read without zod, in the entry: a console that can fetch no further chunk still understands a refusal.
  const errorBody = parseErrorBody(data);
  const retryAfter = Number(response.headers.get('retry-after'));
  throw new HttpError({
    status: response.status,
    kind: 'http',
    body: errorBody,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  });
}

async function request(
  method: string,
  url: string,
  body: unknown,
  options: SendOptions = {},
  hasAskedPassword = false,
): Promise<unknown> {
  try {
    return await send(method, url, body, options);
  } catch (error) {
    if (!isHttpError(error)) throw error;
    // A call that needs a fresh password confirmation: ask for it once, here, and send the call again.
    const needsPassword = error.code === ERROR_CODES.passwordConfirmationRequired;
    if (needsPassword && !hasAskedPassword && !isHandled(error, options)) {
      const isConfirmed = await askForPassword();
      if (isConfirmed) return request(method, url, body, options, true);
      if (isConfirmed === false) {
        throw new HttpError({ status: error.status, kind: 'cancelled', body: error.body });
      }
    }
    report(error, options, `${method} ${url}`);
    throw error;
  }
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

/** The spec's error catalogue: what the console does with a failure the caller does not show itself. */
function report(error: HttpError, options: RequestOptions, call: string) {
  if (error.kind === 'cancelled' || isHandled(error, options)) return;
  error.isShown = true;
  // The server and this console disagree on a shape: a bug to see, not data to show.
  if (error.kind === 'contract') console.error(`Unexpected answer to ${call}`, error.issues);
  switch (error.status) {
    case 401:
      return showSessionExpired();
    case 403:
      hooks.navigate('/403');
      return alertOnce(error.message, 'warning');
    default: {
      const isFault = error.status === 0 || error.status >= 500 || error.kind === 'contract';
      return alertOnce(error.message, isFault ? 'error' : 'warning');
    }
  }
}

type WithSchema<S extends z.ZodType> = RequestOptions & {
  /** The shared schema of the answer (packages/shared): the call resolves to what it parses. */
  schema: SchemaSource<S>;
};
type Read = {
  <S extends z.ZodType>(url: string, options: WithSchema<S>): Promise<z.output<S>>;
  (url: string, options?: RequestOptions): Promise<void>;
};
type Write = {
  <S extends z.ZodType>(url: string, body: unknown, options: WithSchema<S>): Promise<z.output<S>>;
  (url: string, body?: unknown, options?: RequestOptions): Promise<void>;
};

const read =
  (method: string): Read =>
  (url: string, options?: RequestOptions) =>
    request(method, url, undefined, options) as Promise<never>;
const write =
  (method: string): Write =>
  (url: string, body?: unknown, options?: RequestOptions) =>
    request(method, url, body, options) as Promise<never>;

/** Without a schema a call resolves to nothing: the console reads no answer it has no schema for. */
export const http = {
  get: read('GET'),
  post: write('POST'),
  put: write('PUT'),
  patch: write('PATCH'),
  delete: write('DELETE'),
};

/** For tests: forget open dialogs between cases. */
export function resetHttpStateForTests(): void {
  isSessionDialogOpen = false;
  openAlerts.clear();
  csrfRequest = null;
}
