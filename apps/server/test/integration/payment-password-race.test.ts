import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { users } from '../../src/db/schema/index.ts';
import { hashPassword, verifyPassword } from '../../src/lib/password.ts';
import { sealSecret } from '../../src/modules/security/authenticator.ts';
import { createPaymentPasswordService } from '../../src/modules/security/payment-password.service.ts';
import { generateTotpSecret } from '../../src/modules/security/totp.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// The payment password is set the first time with the login password, and changed only with the current
// payment password. A first-time set that started before another one committed must not overwrite it.

let ctx: TestContext;
let db: Db;

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
});
afterAll(() => ctx.close());

describe('a first-time payment password set that lost a race', () => {
  it('is refused with 409 and leaves the payment password that won', async () => {
    const { users: created } = await createMerchant(db, { roles: ['FINANCE'] });
    const secret = generateTotpSecret();
    const [stale] = await db
      .update(users)
      .set({ twoFactorSecret: sealSecret(ctx.config.appKey, secret), twoFactorConfirmedAt: new Date() })
      .where(eq(users.id, created.FINANCE.id))
      .returning();
    // Another request sets it after this one read the user (stale still has no payment password).
    await db
      .update(users)
      .set({ paymentPasswordHash: await hashPassword('the-winner-1') })
      .where(eq(users.id, stale.id));

    const service = createPaymentPasswordService({
      db,
      appKey: ctx.config.appKey,
      notifications: ctx.app.services.notifications,
      now: () => new Date(),
    });
    // A service takes plain inputs: no request needed to call it.
    const late = service.set({ ip: '127.0.0.1', userAgent: null }, stale, {
      password: TEST_PASSWORD,
      payment_password: 'the-latecomer-2',
      payment_password_confirmation: 'the-latecomer-2',
      code: await generate({ secret }),
    });
    await expect(late).rejects.toMatchObject({ status: 409 });

    const [row] = await db.select().from(users).where(eq(users.id, stale.id));
    expect(await verifyPassword(row.paymentPasswordHash!, 'the-winner-1')).toBe(true);
  });
});
