import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuesToErrors } from './error-handler.ts';

/** What the error handler is given: zod's issues, with their path joined as the field. */
const issuesOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a refusal');
  return parsed.error.issues.map((issue) => ({ ...issue, field: issue.path.join('.') }));
};

describe('issuesToErrors', () => {
  const body = z.object({
    amount: z.string(),
    password: z.string({ error: 'The password field is required.' }),
  });

  it("replaces zod's own text with the catalogue's sentence naming the field", () => {
    expect(issuesToErrors(issuesOf(body, { amount: 10, password: 'x' }))).toEqual({
      amount: ['The amount field must be a string.'],
    });
    expect(issuesToErrors(issuesOf(body, { password: 'x' }))).toEqual({
      amount: ['The amount field is required.'],
    });
  });

  it("keeps a schema's own message, for a missing field or a wrong type", () => {
    expect(issuesToErrors(issuesOf(body, { amount: '1.00' }))).toEqual({
      password: ['The password field is required.'],
    });
    expect(issuesToErrors(issuesOf(body, { amount: '1.00', password: 5 }))).toEqual({
      password: ['The password field is required.'],
    });
  });
});
