import type { FormRule } from 'antd';

/** What a zod refusal says about itself (its `code`: invalid_type, too_small, too_big, invalid_format...). */
export type SchemaIssue = { code: string; minimum?: unknown; maximum?: unknown; origin?: string };

/** A shared zod schema, as far as a form needs one. */
export type FieldSchema = {
  safeParse: (value: unknown) => { success: true } | { success: false; error: { issues: SchemaIssue[] } };
};

/** The refusal is of a missing value: none at all, or an empty one where one character is the least. */
export const isMissing = (issue: SchemaIssue): boolean =>
  issue.code === 'invalid_type' || (issue.code === 'too_small' && issue.minimum === 1);

/**
 * An antd Form rule that checks a field with the shared zod schema the server parses the request with
 * (packages/shared), so the form refuses what the server would. The schema's own messages are the API's
 * English; `messageOf` says the refusal in the user's language. `valueOf` reads the field as the form
 * sends it (a form that trims before sending checks the trimmed text).
 */
export function zodRule(
  schema: FieldSchema,
  messageOf: (issue: SchemaIssue) => string,
  valueOf: (value: unknown) => unknown = (value) => value,
): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const parsed = schema.safeParse(valueOf(value));
      if (!parsed.success) throw new Error(messageOf(parsed.error.issues[0]!));
    },
  };
}

/** A text field's value trimmed, as forms send it; anything else as it is. */
export const trimmed = (value: unknown): unknown => (typeof value === 'string' ? value.trim() : value);
