import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseErrorBody } from './error-body.ts';
import { z } from 'zod';

// The error answer's shape stated the usual way, as the oracle the hand-written reader must agree with.
const ErrorBodySchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  request_id: z.string().optional(),
});

const zodParse = (data: unknown) => {
  const parsed = ErrorBodySchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
};

// Error-shaped values with every field sometimes right, sometimes of a wrong type, sometimes absent.
const almostString = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined));
const fieldErrors = fc.oneof(
  fc.dictionary(fc.string(), fc.array(fc.string())),
  fc.dictionary(fc.string(), fc.array(fc.oneof(fc.string(), fc.integer()))),
  fc.dictionary(fc.string(), fc.string()),
  fc.array(fc.string()),
  fc.constant(null),
  fc.constant(undefined),
);
const errorLike = fc.record(
  {
    message: almostString,
    code: almostString,
    errors: fieldErrors,
    request_id: almostString,
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

describe('parseErrorBody, the error answer read without zod', () => {
  it('reads a validation refusal as the console shows it', () => {
    expect(
      parseErrorBody({
        message: 'The given data was invalid.',
        code: 'validation_failed',
        errors: { amount: ['The amount must be at least 10.00.'] },
        request_id: 'req-1',
        debug: 'dropped',
      }),
    ).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { amount: ['The amount must be at least 10.00.'] },
      request_id: 'req-1',
    });
  });

  it('refuses what is not an error answer', () => {
    expect(parseErrorBody('Bad Gateway')).toBeUndefined();
    expect(parseErrorBody({ code: 'locked' })).toBeUndefined();
    expect(parseErrorBody({ message: 'x', errors: { amount: 'not a list' } })).toBeUndefined();
    expect(parseErrorBody([{ message: 'x' }])).toBeUndefined();
  });

  it('agrees with ErrorBodySchema on any value', () => {
    fc.assert(
      fc.property(fc.oneof(errorLike, fc.anything()), (data) => {
        expect(parseErrorBody(data)).toEqual(zodParse(data));
      }),
      { numRuns: 2000 },
    );
  });
});
