import { MESSAGES } from '@paydesk/shared';

/** Services throw these; plugins/error-handler.ts turns them into answers. No route builds an error body. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    message: string,
    options: { code?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = options.code;
    this.headers = options.headers ?? {};
  }
}

/** 422 in the Laravel shape: {message, errors: {field: [messages]}}. */
export class ValidationError extends AppError {
  readonly errors: Record<string, string[]>;
  constructor(errors: Record<string, string[]>) {
    super(422, laravelMessage(errors));
    this.errors = errors;
  }
  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
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
export const conflict = (message: string, code?: string) => new AppError(409, message, { code });
export const badRequest = (message: string, code?: string) => new AppError(400, message, { code });
export const locked = (message: string, code?: string) => new AppError(423, message, { code });

export function tooManyRequests(
  retryAfterSeconds: number,
  message = 'Too many attempts. Please try again later.',
) {
  return new AppError(429, message, {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
}
