import { sql } from 'drizzle-orm';

/** 'a', 'b', 'c': a shared enum's values inside a CHECK constraint (constants only, never user input). */
export const quotedList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));
