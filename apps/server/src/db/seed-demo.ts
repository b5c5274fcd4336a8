import { sql } from 'drizzle-orm';
import type { Role } from '@paydesk/shared';
import { hashPassword } from '../lib/password.ts';
import type { Db } from './client.ts';
import { merchants, users } from './schema/index.ts';

export const DEMO_PASSWORD = 'paydesk-demo';
export const DEMO_MERCHANT_NO = 'M100001';
export const DEMO_USERS: { email: string; name: string; role: Role }[] = [
  { email: 'root@demo.paydesk.test', name: 'Demo Root', role: 'ROOT' },
  { email: 'finance@demo.paydesk.test', name: 'Demo Finance', role: 'FINANCE' },
  { email: 'operator@demo.paydesk.test', name: 'Demo Operator', role: 'OPERATOR' },
  { email: 'viewer@demo.paydesk.test', name: 'Demo Viewer', role: 'VIEWER' },
];

/** Seeds the demo merchant and its four users into an empty database; does nothing otherwise. */
export async function seedDemo(db: Db): Promise<boolean> {
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(merchants);
  if (Number(count) > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const [merchant] = await tx
      .insert(merchants)
      .values({ no: DEMO_MERCHANT_NO, name: 'Demo Store', currency: 'CNY' })
      .returning();
    await tx.insert(users).values(
      DEMO_USERS.map((u) => ({
        merchantId: merchant.id,
        email: u.email,
        name: u.name,
        passwordHash,
        roles: [u.role],
      })),
    );
  });
  return true;
}
