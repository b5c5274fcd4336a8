import { ERROR_CODES } from '@paydesk/shared';
import { ValidationError } from './errors.ts';

/** A list's position: the last row a client saw, in the list's order (created_at desc, id desc). */
export type Cursor = { createdAt: Date; id: number };

// Opaque to clients: base64url of "<created_at ms>.<id>".
export const encodeCursor = (row: Cursor): string =>
  Buffer.from(`${row.createdAt.getTime()}.${row.id}`).toString('base64url');

// A cursor of ours points at a row written before now; a later time (beyond year 9999 the database cannot
// even read it) is not one.
const LATEST_CURSOR_MS = Date.UTC(9999, 11, 31);

export function decodeCursor(cursor: string): Cursor {
  const match = /^(\d{1,15})\.(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number(match[1]) > LATEST_CURSOR_MS) {
    throw ValidationError.field('cursor', 'The cursor is not valid.', ERROR_CODES.invalidCursor);
  }
  return { createdAt: new Date(Number(match[1])), id: Number(match[2]) };
}
