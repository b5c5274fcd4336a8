import { bigint } from 'drizzle-orm/pg-core';
import { merchants } from './merchants.ts';

// Columns many tables declare alike, written once (a column's SQL is what drizzle-kit compares, so these
// change no migration).

/** A row's own id: a bigint the database generates. */
export const idColumn = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

/** The merchant a row belongs to (every merchant-scoped read filters by it). */
export const merchantIdColumn = () =>
  bigint('merchant_id', { mode: 'number' })
    .notNull()
    .references(() => merchants.id);
