import type { Role } from '@paydesk/shared';
import type { Db } from '../../src/db/client.ts';
import { merchants, users } from '../../src/db/schema/index.ts';
import { hashPassword } from '../../src/lib/password.ts';

export const TEST_PASSWORD = 'correct-horse-9';
let cachedHash: Promise<string> | undefined;
let sequence = 0;

/** A merchant with one user per role asked for; every user has TEST_PASSWORD. */
export async function createMerchant(
  db: Db,
  options: { currency?: string; roles?: Role[]; name?: string } = {},
): Promise<{ merchant: typeof merchants.$inferSelect; users: Record<string, typeof users.$inferSelect> }> {
  sequence += 1;
  const tag = `${process.pid}${sequence}${Math.random().toString(36).slice(2, 6)}`;
  const [merchant] = await db
    .insert(merchants)
    .values({ no: `MT${tag}`, name: options.name ?? `Merchant ${tag}`, currency: options.currency ?? 'CNY' })
    .returning();
  // Its test twin (DESIGN 12), as merchant creation makes it.
  await db.insert(merchants).values({
    no: merchant.no,
    name: merchant.name,
    currency: merchant.currency,
    mode: 'test',
    liveMerchantId: merchant.id,
  });
  cachedHash ??= hashPassword(TEST_PASSWORD);
  const passwordHash = await cachedHash;
  const created: Record<string, typeof users.$inferSelect> = {};
  for (const role of options.roles ?? ['ROOT']) {
    const [user] = await db
      .insert(users)
      .values({
        merchantId: merchant.id,
        name: `${role} user`,
        email: `${role.toLowerCase()}.${tag}@test.paydesk.test`,
        passwordHash,
        roles: [role],
      })
      .returning();
    created[role] = user;
  }
  return { merchant, users: created };
}

/**
 * A merchant with two ROOT users (the second, added by hand, reads vi) and a FINANCE user: whom a
 * notification for the ROOT users reaches, and whom it does not.
 */
export async function createMerchantWithTwoRoots(db: Db) {
  const { merchant, users: made } = await createMerchant(db, { roles: ['ROOT', 'FINANCE'] });
  const [second] = await db
    .insert(users)
    .values({
      merchantId: merchant.id,
      name: 'Second root',
      email: `second.${made.ROOT.email}`,
      passwordHash: made.ROOT.passwordHash,
      roles: ['ROOT'],
      locale: 'vi',
    })
    .returning();
  return { merchant, root: made.ROOT, finance: made.FINANCE, second: second! };
}
