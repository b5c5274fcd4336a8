import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CODES, errorCodeOfStatus } from '@paydesk/shared';
import { AppError, laravelMessage } from '../lib/errors.ts';

type Issue = { field: string; code: string; message: string; expected?: unknown };

const humanField = (field: string) => field.replace(/_/g, ' ').replace(/\./g, ' ');

/** Laravel's catalogue sentence for a value of the wrong JSON type, by the type zod expected. */
const TYPE_SENTENCES: Record<string, string> = {
  string: 'must be a string',
  number: 'must be a number',
  int: 'must be an integer',
  bigint: 'must be an integer',
  boolean: 'must be true or false',
  object: 'must be an object',
  array: 'must be an array',
};

/**
 * Zod issues -> Laravel's errors object, in the catalogue's sentences that name the field: a missing
 * field reads "The x field is required.", a value of the wrong type (a number where an amount string
 * goes) "The amount field must be a string.", never the validation library's own text.
 */
export function issuesToErrors(issues: readonly Issue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.field || 'body';
    const wrongType = issue.code === 'invalid_type';
    const missing = wrongType && /received (undefined|null)/.test(issue.message);
    // Only zod's own text is replaced: a schema's own message (a required field's sentence) stays.
    const rawText = /^Invalid input: expected /.test(issue.message);
    const sentence = wrongType && rawText ? TYPE_SENTENCES[String(issue.expected)] : undefined;
    const message = missing
      ? `The ${humanField(field)} field is required.`
      : sentence
        ? `The ${humanField(field)} field ${sentence}.`
        : issue.message;
    (errors[field] ??= []).push(message);
  }
  return errors;
}

const PG_UNAVAILABLE = /timeout exceeded when trying to connect|Connection terminated|ECONNREFUSED/i;
// query_canceled (statement_timeout), serialization_failure, deadlock_detected, too_many_connections,
// admin_shutdown, crash_shutdown, cannot_connect_now (shutting down or starting up)
const PG_RETRYABLE_CODES = new Set(['57014', '40001', '40P01', '53300', '57P01', '57P02', '57P03']);

/** Drizzle wraps driver errors ("Failed query: ..."); look through the causes. */
function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (PG_UNAVAILABLE.test(e.message)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && PG_RETRYABLE_CODES.has(code)) return true;
  }
  return false;
}

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22): a value from the request that a column cannot hold,
 * such as an amount or a running balance beyond bigint (22003). The statement failed, so nothing was
 * written; the caller gets a 400 rather than a 500, and the log keeps the error.
 */
function dataExceptionOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return code;
  }
  return undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the body, a multipart form included, has been read (see markBodyRead). */
    isBodyRead: boolean;
  }
}

/**
 * Marks each request whose body was read. Register it after @fastify/multipart: that plugin reads forms in
 * an earlier preValidation hook, and its parser's errors ("Multipart: Boundary not found", "Unexpected end
 * of form") carry no status code, so the error handler tells them from server faults by this mark.
 */
export function markBodyRead(app: FastifyInstance) {
  app.decorateRequest('isBodyRead', false);
  app.addHook('preValidation', async (request) => {
    request.isBodyRead = true;
  });
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const requestId = request.id;
    if (error instanceof AppError) {
      reply.headers(error.headers);
      const body: Record<string, unknown> = {
        message: error.message,
        code: error.code,
        request_id: requestId,
      };
      if ('errors' in error) body.errors = error.errors;
      // Fields a caller acts on (the existing trade_no of a repeated out_trade_no), never overriding ours.
      for (const [key, value] of Object.entries(error.fields)) if (!(key in body)) body[key] = value;
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = issuesToErrors(
        error.validation.map((v) => ({
          field: v.instancePath.slice(1).replace(/\//g, '.'),
          code: v.keyword,
          message: v.message ?? 'Invalid input data',
          expected: v.params?.expected,
        })),
      );
      return reply.status(422).send({
        message: laravelMessage(errors),
        code: ERROR_CODES.validationFailed,
        errors,
        request_id: requestId,
      });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const status = error.statusCode;
      const message =
        status === 413
          ? 'The upload is too large.'
          : status === 415
            ? 'Unsupported content type.'
            : error.message || 'Bad request.';
      if (status === 429 && !reply.getHeader('retry-after')) reply.header('retry-after', '60');
      return reply.status(status).send({ message, code: errorCodeOfStatus(status), request_id: requestId });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({
        message: 'The service is busy. Please try again in a moment.',
        code: ERROR_CODES.serviceUnavailable,
        request_id: requestId,
      });
    }
    const dataException = dataExceptionOf(error);
    if (dataException) {
      request.log.warn({ err: error }, 'data exception');
      const message =
        dataException === '22003'
          ? 'A number in the request is too large.'
          : 'A value in the request cannot be stored.';
      return reply.status(400).send({ message, code: ERROR_CODES.valueOutOfRange, request_id: requestId });
    }
    if (!request.isBodyRead && request.isMultipart()) {
      return reply.status(400).send({
        message: 'The form data could not be read.',
        code: ERROR_CODES.badRequest,
        request_id: requestId,
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send({ message: 'System error', code: ERROR_CODES.serverError, request_id: requestId });
  });
}
