import { and, eq, gt, ne, or, sql } from 'drizzle-orm';
import { type BuiltQuery, type DbOrTx, preparedOnce, queryBuilt, sqlOf } from '../../db/client.ts';
import { merchants, sessions, users } from '../../db/schema/index.ts';

export type SessionRow = typeof sessions.$inferSelect;
type UserRow = typeof users.$inferSelect;
type MerchantRow = typeof merchants.$inferSelect;

/** A live session with its signed-in user and the user's merchant (none while the challenge is owed). */
export type LoadedSession = {
  session: SessionRow;
  user: UserRow | null;
  merchant: MerchantRow | null;
  /** SESSION_FINGERPRINT as read with it. */
  fingerprint: string;
};

/**
 * What a remembered session must still read as, hashed by PostgreSQL: the session (its activity times
 * aside), its password confirmation, and its user's and merchant's rows to the last column. A process
 * confirms a remembered session by this one value instead of reading the rows again.
 */
const SESSION_FINGERPRINT = sql<string>`encode(sha256(row(${sessions.id}, ${sessions.userId},
  ${sessions.pendingUserId}, ${sessions.passwordConfirmedAt}, ${users}.*, ${merchants}.*)::text::bytea), 'hex')`;

/** A live session's fingerprint and last activity, by the statement's value `session_id`. */
const CONFIRM_SELECT = sql`select ${SESSION_FINGERPRINT} as fingerprint, ${sessions.lastActiveAt} as last_active_at
  from ${sessions}
  left join ${users} on ${users.id} = ${sessions.userId}
  left join ${merchants} on ${merchants.id} = ${users.merchantId}
  where ${sessions.id} = ${sql.placeholder('session_id')} and ${sessions.expiresAt} > now()`;
let confirmBuilt: BuiltQuery | undefined;

export const sessionsRepository = {
  /**
   * Every console request's one read: the session, its user and the merchant, in one round trip, fresh each
   * time (a logout, a password change, a role change or a disabled merchant counts on the very next request,
   * in every process).
   */
  findLiveWithUser: async (db: DbOrTx, id: string): Promise<LoadedSession | undefined> => {
    const [row] = await preparedOnce(db, 'session_with_user', (on) =>
      on
        .select({ session: sessions, user: users, merchant: merchants, fingerprint: SESSION_FINGERPRINT })
        .from(sessions)
        .leftJoin(users, eq(users.id, sessions.userId))
        .leftJoin(merchants, eq(merchants.id, users.merchantId))
        .where(and(eq(sessions.id, sql.placeholder('id')), gt(sessions.expiresAt, sql`now()`)))
        .prepare('session_with_user'),
    ).execute({ id });
    return row;
  },
  /**
   * confirmLive's select, for a reader to run inside its own statement (SessionCheck): the session named by
   * the statement's value `session_id`.
   */
  confirmSelect: CONFIRM_SELECT,
  /** A live session's fingerprint and last activity, to confirm it as remembered (one short row). */
  confirmLive: async (
    db: DbOrTx,
    id: string,
  ): Promise<{ fingerprint: string; lastActiveAt: Date } | undefined> => {
    confirmBuilt ??= sqlOf(db, CONFIRM_SELECT);
    const [row] = await queryBuilt<{ fingerprint: string; last_active_at: Date | string }>(db, confirmBuilt, {
      session_id: id,
    });
    return row && { fingerprint: row.fingerprint, lastActiveAt: new Date(row.last_active_at) };
  },
  findLive: async (db: DbOrTx, id: string): Promise<SessionRow | undefined> => {
    const [row] = await db
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, id), gt(sessions.expiresAt, sql`now()`)));
    return row;
  },
  insert: async (db: DbOrTx, row: typeof sessions.$inferInsert): Promise<SessionRow> => {
    const [created] = await db.insert(sessions).values(row).returning();
    return created;
  },
  touch: async (db: DbOrTx, id: string, expiresAt: Date): Promise<void> => {
    await db
      .update(sessions)
      .set({ lastActiveAt: sql`now()`, expiresAt })
      .where(eq(sessions.id, id));
  },
  update: async (db: DbOrTx, id: string, values: Partial<typeof sessions.$inferInsert>): Promise<void> => {
    await db.update(sessions).set(values).where(eq(sessions.id, id));
  },
  delete: async (db: DbOrTx, id: string): Promise<void> => {
    await db.delete(sessions).where(eq(sessions.id, id));
  },
  listLiveForUser: (db: DbOrTx, userId: number) =>
    db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
      .orderBy(sql`${sessions.lastActiveAt} desc`),
  /**
   * Ends every session of the user except the one kept (password change, "sign out other sessions"),
   * including logins still waiting for the two-factor challenge. Answers how many signed-in ones ended.
   */
  deleteOthersOfUser: async (db: DbOrTx, userId: number, keepId: string): Promise<number> => {
    const rows = await db
      .delete(sessions)
      .where(
        and(or(eq(sessions.userId, userId), eq(sessions.pendingUserId, userId)), ne(sessions.id, keepId)),
      )
      .returning({ userId: sessions.userId });
    return rows.filter((row) => row.userId === userId).length;
  },
  /** Ends every session of the user, signed in or owing the challenge (a ROOT disabled them). */
  deleteAllOfUser: async (db: DbOrTx, userId: number): Promise<number> => {
    const rows = await db
      .delete(sessions)
      .where(or(eq(sessions.userId, userId), eq(sessions.pendingUserId, userId)))
      .returning({ id: sessions.id });
    return rows.length;
  },
  /** Housekeeping: sessions past their idle expiry. */
  deleteExpired: async (db: DbOrTx): Promise<void> => {
    await db.delete(sessions).where(sql`${sessions.expiresAt} < now()`);
  },
};
