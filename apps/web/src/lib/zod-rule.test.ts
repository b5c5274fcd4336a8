import type { RuleObject } from 'antd/es/form';
import { describe, expect, it } from 'vitest';
import { NotifyUrlSchema } from '@paydesk/shared/collections/collections.schemas.ts';
import { StepUpFieldsSchema } from '@paydesk/shared/security/security.schemas.ts';
import { isMissing, trimmed, zodRule } from './zod-rule.ts';

/** The rule's verdict on a value: undefined when accepted, else the message shown under the field. */
async function verdict(rule: ReturnType<typeof zodRule>, value: unknown): Promise<string | undefined> {
  const { validator } = rule as RuleObject;
  try {
    await validator!({} as never, value, () => undefined);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('zodRule', () => {
  const code = zodRule(StepUpFieldsSchema.shape.code, (issue) =>
    isMissing(issue) ? 'missing' : 'six digits',
  );

  it('accepts what the shared schema accepts', async () => {
    expect(await verdict(code, '123456')).toBeUndefined();
  });

  it("refuses what it refuses, in the form's words for the refusal", async () => {
    expect(await verdict(code, undefined)).toBe('missing');
    expect(await verdict(code, '')).toBe('missing');
    expect(await verdict(code, '12345')).toBe('six digits');
    expect(await verdict(code, '12345a')).toBe('six digits');
  });

  it('checks the value as the form sends it', async () => {
    const url = zodRule(NotifyUrlSchema, (issue) => issue.code, trimmed);
    expect(await verdict(url, '   ')).toBeUndefined();
    expect(await verdict(url, ' https://shop.example/callbacks ')).toBeUndefined();
    expect(await verdict(url, 'ftp://shop.example')).toBe('custom');
    expect(await verdict(url, `https://shop.example/${'a'.repeat(500)}`)).toBe('too_big');
  });
});
