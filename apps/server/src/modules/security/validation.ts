import type { z } from 'zod';
import { ValidationError } from '../../lib/errors.ts';
import { issuesToErrors } from '../../plugins/error-handler.ts';

/** Zod issues as Laravel's 422 errors object. */
export function zodErrors(error: z.ZodError): Record<string, string[]> {
  return issuesToErrors(
    error.issues.map((issue) => ({
      field: issue.path.join('.'),
      code: issue.code,
      message: issue.message,
      expected: 'expected' in issue ? issue.expected : undefined,
    })),
  );
}

/** Parses a body inside a service (where the order of checks matters), throwing the Laravel 422 shape. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw new ValidationError(zodErrors(parsed.error));
  return parsed.data;
}

/** Laravel reads a field from the body or the query string alike; the body wins. */
export const mergedInput = (query: unknown, body: unknown): Record<string, unknown> => ({
  ...(isRecord(query) ? query : {}),
  ...(isRecord(body) ? body : {}),
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
