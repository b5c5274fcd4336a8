import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../lib/errors.ts';

// PostgreSQL cannot store NUL in text, nor an unpaired UTF-16 surrogate in jsonb: such a string reaching a
// query fails there as a server error. Text that no field can hold is refused at the edge, for every route.
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const isUnstorable = (value: string) => value.includes('\u0000') || UNPAIRED_SURROGATE.test(value);

/** Paths ("name", "items.0.note") of every string, key included, that cannot be stored. */
function unstorablePaths(input: unknown): string[] {
  const found: string[] = [];
  const pending: { value: unknown; path: string }[] = [{ value: input, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (isUnstorable(value)) found.push(path);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, path: join(path, String(index)) }));
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (isUnstorable(key)) found.push(path);
        else pending.push({ value: item, path: join(path, key) });
      }
    }
  }
  return found;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

const message = (field: string) =>
  `The ${field.replace(/_/g, ' ').replace(/\./g, ' ')} field contains a character that is not allowed (NUL or invalid Unicode).`;

/** 422 in the Laravel shape for a body, query string or path parameter holding unstorable text. */
export function refuseUnstorableText(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const paths = [request.params, request.query, request.body].flatMap(unstorablePaths);
    if (paths.length === 0) return;
    const errors: Record<string, string[]> = {};
    for (const path of paths) errors[path || 'input'] = [message(path || 'input')];
    throw new ValidationError(errors);
  });
}
