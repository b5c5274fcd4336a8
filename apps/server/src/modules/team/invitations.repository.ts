import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { merchants, userInvitations } from '../../db/schema/index.ts';

export type InvitationRow = typeof userInvitations.$inferSelect;

const isOpenAt = (now: Date) =>
  and(
    isNull(userInvitations.acceptedAt),
    isNull(userInvitations.revokedAt),
    gt(userInvitations.expiresAt, now),
  );

export const invitationsRepository = {
  /** The merchant's invitations still open at `now`, oldest first. */
  listOpen: (db: DbOrTx, merchantId: number, now: Date): Promise<InvitationRow[]> =>
    db
      .select()
      .from(userInvitations)
      .where(and(eq(userInvitations.merchantId, merchantId), isOpenAt(now)))
      .orderBy(asc(userInvitations.createdAt), asc(userInvitations.id)),
  insert: async (tx: Tx, row: typeof userInvitations.$inferInsert): Promise<InvitationRow> => {
    const [created] = await tx.insert(userInvitations).values(row).returning();
    return created;
  },
  /** A newer invitation of the same address to the same merchant replaces the open ones. */
  revokeOpenOf: async (tx: Tx, merchantId: number, email: string, now: Date): Promise<void> => {
    await tx
      .update(userInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(userInvitations.merchantId, merchantId),
          eq(userInvitations.email, email),
          isNull(userInvitations.acceptedAt),
          isNull(userInvitations.revokedAt),
        ),
      );
  },
  /** The invitation of a token's hash with its merchant's live row, whatever its state. */
  findByTokenHash: async (db: DbOrTx, tokenHash: string) => {
    const [row] = await db
      .select({ invitation: userInvitations, merchant: merchants })
      .from(userInvitations)
      .innerJoin(merchants, eq(merchants.id, userInvitations.merchantId))
      .where(eq(userInvitations.tokenHash, tokenHash));
    return row;
  },
  /**
   * Takes the invitation if it is still open at `now`: one statement, so of two accepts racing only one
   * gets the row (the other waits on its lock, then finds it taken).
   */
  claim: async (tx: Tx, tokenHash: string, now: Date): Promise<InvitationRow | undefined> => {
    const [row] = await tx
      .update(userInvitations)
      .set({ acceptedAt: now })
      .where(and(eq(userInvitations.tokenHash, tokenHash), isOpenAt(now)))
      .returning();
    return row;
  },
  setAcceptedUser: async (tx: Tx, id: number, userId: number): Promise<void> => {
    await tx.update(userInvitations).set({ acceptedUserId: userId }).where(eq(userInvitations.id, id));
  },
};
