// The error answer read without zod: the console's HTTP client is on its login route, which loads no zod,
// and an error answer must be understood even when no further chunk can be fetched (offline, or after a
// deploy). error-body.test.ts checks it agrees with a zod statement of the same shape on any input.

/** Every error answer: a message a person can act on, the request id, and, for validation, the fields. */
export type ErrorBody = {
  message: string;
  /** One of ERROR_CODES (a string, so a newer server's code does not break an older client). */
  code?: string;
  errors?: Record<string, string[]>;
  request_id?: string;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const optionalString = (value: unknown) => value === undefined || typeof value === 'string';

function isFieldErrors(value: unknown): value is Record<string, string[]> {
  if (!isRecord(value)) return false;
  return Object.values(value).every(
    (messages) => Array.isArray(messages) && messages.every((m) => typeof m === 'string'),
  );
}

/** The error body if `data` is one, else undefined; unknown keys are dropped, as zod's object does. */
export function parseErrorBody(data: unknown): ErrorBody | undefined {
  if (!isRecord(data) || typeof data.message !== 'string') return undefined;
  const { message, code, errors, request_id: requestId } = data;
  if (!optionalString(code) || !optionalString(requestId)) return undefined;
  if (errors !== undefined && !isFieldErrors(errors)) return undefined;
  const body: ErrorBody = { message };
  if (code !== undefined) body.code = code as string;
  if (errors !== undefined) body.errors = { ...errors };
  if (requestId !== undefined) body.request_id = requestId as string;
  return body;
}
