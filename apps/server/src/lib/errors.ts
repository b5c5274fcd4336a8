import { ERROR_CODES, type ErrorCode, errorCodeOfStatus, MESSAGES } from '@paydesk/shared';

/**
 * Services throw these; plugins/error-handler.ts turns them into answers. No route builds an error body.
 * Every one carries a code of the catalogue (ERROR_CODES): its own, or the one of its status.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;
  /** Extra fields of the answer's body beside message and code. */
  readonly fields: Record<string, unknown>;
  constructor(
    status: number,
    message: string,
    options: { code?: ErrorCode; headers?: Record<string, string>; fields?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = options.code ?? errorCodeOfStatus(status);
    this.headers = options.headers ?? {};
    this.fields = options.fields ?? {};
  }
}

/** 422 in the Laravel shape: {message, code, errors: {field: [messages]}}. */
export class ValidationError extends AppError {
  readonly errors: Record<string, string[]>;
  constructor(errors: Record<string, string[]>, code: ErrorCode = ERROR_CODES.validationFailed) {
    super(422, laravelMessage(errors), { code });
    this.errors = errors;
  }
  /** One field's error; `code` names the refusal when it is more than a malformed value. */
  static field(field: string, message: string, code?: ErrorCode): ValidationError {
    return new ValidationError({ [field]: [message] }, code);
  }
}

export function laravelMessage(errors: Record<string, string[]>): string {
  const all = Object.values(errors).flat();
  const first = all[0] ?? 'The given data was invalid.';
  const more = all.length - 1;
  if (more <= 0) return first;
  return `${first} (and ${more} more ${more === 1 ? 'error' : 'errors'})`;
}

export const unauthenticated = () => new AppError(401, MESSAGES.unauthenticated);
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, message);
export const conflict = (message: string, code?: ErrorCode) => new AppError(409, message, { code });
export const badRequest = (message: string, code?: ErrorCode) => new AppError(400, message, { code });
export const locked = (message: string, code?: ErrorCode) => new AppError(423, message, { code });

export function tooManyRequests(
  retryAfterSeconds: number,
  message = 'Too many attempts. Please try again later.',
) {
  return new AppError(429, message, {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
}
