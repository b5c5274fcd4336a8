import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../src/db/client.ts';
import {
  notifications,
  securityEvents,
  sessions,
  userInvitations,
  users,
} from '../../src/db/schema/index.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { enableTwoFactor, freezeClock, releaseClock, setUpStepUp } from '../helpers/two-factor.ts';

// Settings > Team (DESIGN 16): a ROOT lists the merchant's users, invites a colleague (a one-time link,
// 24 hours, only its hash stored), changes a role, disables (the user's sessions end at once), enables and
// resets two-factor; every change takes the step-up and writes its security event; the last active ROOT
// stays; another merchant's user is 404. The invitation page: valid, expired, used, two racing accepts.

let ctx: TestContext;
let db: Db;
const PAY = 'pay-secret-1';
type Clock = ReturnType<typeof freezeClock>;
let clock: Clock;

// Migrating a fresh database takes minutes on a machine shared by many runs.
beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
}, 300_000);
afterAll(() => ctx.close());
afterEach(() => releaseClock());

/** A signed-in user with two-factor on and a payment password: `stepUp()` gives fresh fields each time. */
async function withStepUp(client: TestClient) {
  const { secret, nextCode } = await setUpStepUp(client, clock, PAY);
  return { secret, stepUp: async () => ({ payment_password: PAY, code: await nextCode() }) };
}

/** A merchant with a ROOT (step-up ready) and the other roles, each signed in. */
async function team(roles: ('ROOT' | 'FINANCE' | 'OPERATOR' | 'VIEWER')[] = ['ROOT', 'FINANCE', 'VIEWER']) {
  clock = freezeClock();
  const { merchant, users: made } = await createMerchant(db, { roles });
  const root = await loginAs(ctx.app, made.ROOT.email, TEST_PASSWORD);
  const { stepUp } = await withStepUp(root);
  return { merchant, users: made, root, stepUp };
}

const list = async (client: TestClient) => {
  const response = await client.get('/api/merchant/team');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<Record<string, unknown>>;
};

const eventsOf = (merchantId: number, type: string) =>
  db
    .select()
    .from(securityEvents)
    .where(and(eq(securityEvents.merchantId, merchantId), eq(securityEvents.type, type)));

/** An invitation written as the invite call writes it, with a token the test knows. */
async function invitation(merchantId: number, email: string, role = 'OPERATOR', hours = 24) {
  const token = `tok-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  await db.insert(userInvitations).values({
    merchantId,
    email,
    role,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(Date.now() + hours * 3_600_000),
    createdAt: new Date(),
  });
  return token;
}

const accept = async (token: string, body: Record<string, unknown> = {}) => {
  const client = new TestClient(ctx.app);
  await client.csrf();
  const response = await client.post(`/api/auth/invitations/${token}/accept`, {
    name: 'New Colleague',
    password: 'brand-new-pass-1',
    password_confirmation: 'brand-new-pass-1',
    ...body,
  });
  return { client, response };
};

describe('the team list', () => {
  it("shows the merchant's users with their role, status, two-factor and last sign-in, and open invitations", async () => {
    const { merchant, users: made, root, stepUp } = await team();
    const invited = await root.post('/api/merchant/team/invitations', {
      email: 'Someone.New@Example.test',
      role: 'VIEWER',
      ...(await stepUp()),
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const rows = await list(root);
    const byEmail = Object.fromEntries(rows.map((row) => [row.email, row]));
    expect(byEmail[made.ROOT.email]).toMatchObject({
      user_id: made.ROOT.id,
      status: 'active',
      roles: ['ROOT'],
      two_factor_enabled: true,
      is_self: true,
    });
    expect(byEmail[made.ROOT.email].last_login_at).toEqual(expect.any(String));
    expect(byEmail[made.FINANCE.email]).toMatchObject({
      status: 'active',
      two_factor_enabled: false,
      last_login_at: null,
      is_self: false,
    });
    // The address is kept lower-case; the invitation is a row of the team until accepted.
    expect(byEmail['someone.new@example.test']).toMatchObject({
      status: 'invited',
      roles: ['VIEWER'],
      user_id: null,
      name: null,
    });
    const [stored] = await db
      .select()
      .from(userInvitations)
      .where(eq(userInvitations.merchantId, merchant.id));
    // Only the token's hash is stored: 64 hex characters, not a token of the link.
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(24 * 3_600_000);
    expect(await eventsOf(merchant.id, 'user_invited')).toHaveLength(1);
  });

  it("is the same in test mode: the users and invitations are the company's, not a mode's", async () => {
    const t = await team();
    await invitation(t.merchant.id, `invited.${t.users.ROOT.email}`);
    const live = await list(t.root);
    expect(live.map((row) => row.email)).toContain(`invited.${t.users.ROOT.email}`);
    t.root.mode = 'test';
    expect(await list(t.root)).toEqual(live);
  });

  it('is refused to other roles (403)', async () => {
    const { users: made } = await team();
    const viewer = await loginAs(ctx.app, made.VIEWER.email, TEST_PASSWORD);
    expect((await viewer.get('/api/merchant/team')).statusCode).toBe(403);
  });
});

/** The mail.send jobs queued for an address (the mail as rendered when queued). */
const mailsTo = async (to: string) =>
  (
    await queryRows<{ data: { to: string; subject: string; text: string } }>(
      db,
      sql`select data from pgboss.job where name = 'mail.send' order by created_on, id`,
    )
  )
    .map((row) => row.data)
    .filter((mail) => mail.to === to);

describe('inviting', () => {
  it("mails the link in the inviter's language; the link opens the invitation; the ROOT users are told", async () => {
    const { merchant, users: made, root, stepUp } = await team();
    await db.update(users).set({ locale: 'vi' }).where(eq(users.id, made.ROOT.id));
    const invited = await root.post('/api/merchant/team/invitations', {
      email: 'mailed@example.test',
      role: 'FINANCE',
      ...(await stepUp()),
    });
    expect(invited.statusCode, invited.body).toBe(201);
    // The answer carries no link: it travels only by mail.
    expect(invited.body).not.toContain('/invite/');
    const [mail] = await mailsTo('mailed@example.test');
    expect(mail.subject).toContain(merchant.name);
    const link = /https?:\/\/\S+\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text);
    expect(link, mail.text).not.toBeNull();
    // Vietnamese, as the inviter's console is.
    expect(mail.text).toMatch(/mời/);
    const shown = await ctx.app.inject({ method: 'GET', url: `/api/auth/invitations/${link![1]}` });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data).toMatchObject({ email: 'mailed@example.test', role: 'FINANCE' });
    const told = await db.select().from(notifications).where(eq(notifications.type, 'user_invited'));
    expect(told.filter((n) => n.userId === made.ROOT.id)).toHaveLength(1);
  });

  it('takes the step-up, and writes nothing without it', async () => {
    const { merchant, root } = await team();
    const wrong = await root.post('/api/merchant/team/invitations', {
      email: 'x@example.test',
      role: 'VIEWER',
      payment_password: 'wrong-one',
      code: '123456',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().code).toBe('payment_password_incorrect');
    const none = await root.post('/api/merchant/team/invitations', {
      email: 'x@example.test',
      role: 'VIEWER',
    });
    expect(none.statusCode).toBe(422);
    expect(
      await db.select().from(userInvitations).where(eq(userInvitations.merchantId, merchant.id)),
    ).toEqual([]);
  });

  it('refuses an address already in use (409 email_taken) and a role that does not exist (422 on role)', async () => {
    const { merchant, users: made, root, stepUp } = await team();
    const taken = await root.post('/api/merchant/team/invitations', {
      email: made.FINANCE.email.toUpperCase(),
      role: 'VIEWER',
      ...(await stepUp()),
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('email_taken');
    const badRole = await root.post('/api/merchant/team/invitations', {
      email: 'fresh@example.test',
      role: 'GOD',
      ...(await stepUp()),
    });
    expect(badRole.statusCode).toBe(422);
    expect(Object.keys(badRole.json().errors)).toEqual(['role']);
    const badEmail = await root.post('/api/merchant/team/invitations', {
      email: 'not-an-email',
      role: 'VIEWER',
    });
    expect(badEmail.statusCode).toBe(422);
    expect(Object.keys(badEmail.json().errors)).toEqual(['email']);
    expect(
      await db.select().from(userInvitations).where(eq(userInvitations.merchantId, merchant.id)),
    ).toEqual([]);
  });

  it('a newer invitation of the same address replaces the open one', async () => {
    const { merchant, root, stepUp } = await team();
    const old = await invitation(merchant.id, 'twice@example.test');
    const again = await root.post('/api/merchant/team/invitations', {
      email: 'twice@example.test',
      role: 'FINANCE',
      ...(await stepUp()),
    });
    expect(again.statusCode).toBe(201);
    const stale = await ctx.app.inject({ method: 'GET', url: `/api/auth/invitations/${old}` });
    expect(stale.statusCode).toBe(410);
    expect(stale.json().code).toBe('invitation_used');
    expect((await list(root)).filter((row) => row.status === 'invited')).toHaveLength(1);
  });
});

describe('accepting an invitation', () => {
  it('shows the merchant and address, then creates the user with its role and signs them in', async () => {
    const { merchant, root } = await team();
    const token = await invitation(merchant.id, 'colleague@example.test', 'OPERATOR');
    const shown = await ctx.app.inject({ method: 'GET', url: `/api/auth/invitations/${token}` });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data).toMatchObject({
      merchant: { no: merchant.no, name: merchant.name },
      email: 'colleague@example.test',
      role: 'OPERATOR',
    });

    const { client, response } = await accept(token);
    expect(response.statusCode, response.body).toBe(200);
    const me = await client.get('/api/merchant/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({
      email: 'colleague@example.test',
      name: 'New Colleague',
      roles: ['OPERATOR'],
      two_factor_enabled: false,
    });
    // The password set works for the next sign-in, without a challenge (no authenticator yet).
    const again = new TestClient(ctx.app);
    expect((await again.login('colleague@example.test', 'brand-new-pass-1')).json()).toEqual({
      two_factor: false,
    });
    const row = (await list(root)).find((r) => r.email === 'colleague@example.test');
    expect(row).toMatchObject({ status: 'active', roles: ['OPERATOR'] });
    expect(await eventsOf(merchant.id, 'invitation_accepted')).toHaveLength(1);
  });

  it('works once: a used link answers 410 invitation_used and creates nobody', async () => {
    const { merchant } = await team();
    const token = await invitation(merchant.id, 'once@example.test');
    expect((await accept(token)).response.statusCode).toBe(200);
    const second = await accept(token, { name: 'Someone else' });
    expect(second.response.statusCode).toBe(410);
    expect(second.response.json().code).toBe('invitation_used');
    const shown = await ctx.app.inject({ method: 'GET', url: `/api/auth/invitations/${token}` });
    expect(shown.statusCode).toBe(410);
    const [user] = await db.select().from(users).where(eq(users.email, 'once@example.test'));
    expect(user.name).toBe('New Colleague');
  });

  it('two accepts racing: one wins, the other is refused, one user exists', async () => {
    const { merchant } = await team();
    const token = await invitation(merchant.id, 'race@example.test');
    const results = await Promise.all([accept(token, { name: 'First' }), accept(token, { name: 'Second' })]);
    const statuses = results.map((r) => r.response.statusCode).sort();
    expect(statuses).toEqual([200, 410]);
    expect(await db.select().from(users).where(eq(users.email, 'race@example.test'))).toHaveLength(1);
  });

  it('expires after 24 hours: 410 invitation_expired, nothing created', async () => {
    const { merchant } = await team();
    const token = await invitation(merchant.id, 'late@example.test');
    clock.advance(24 * 3_600_000 + 1000);
    const shown = await ctx.app.inject({ method: 'GET', url: `/api/auth/invitations/${token}` });
    expect(shown.statusCode).toBe(410);
    expect(shown.json().code).toBe('invitation_expired');
    const late = await accept(token);
    expect(late.response.statusCode).toBe(410);
    expect(late.response.json().code).toBe('invitation_expired');
    expect(await db.select().from(users).where(eq(users.email, 'late@example.test'))).toEqual([]);
  });

  it('an unknown link is 404 invitation_not_found; a short password is 422 on password', async () => {
    const { merchant } = await team();
    const unknown = await ctx.app.inject({ method: 'GET', url: '/api/auth/invitations/no-such-token' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('invitation_not_found');
    const token = await invitation(merchant.id, 'short@example.test');
    const short = await accept(token, { password: 'short', password_confirmation: 'short' });
    expect(short.response.statusCode).toBe(422);
    expect(Object.keys(short.response.json().errors)).toEqual(['password']);
    // Nothing was spent: the link still works.
    expect((await accept(token)).response.statusCode).toBe(200);
  });

  it('an address that got an account meanwhile: 409 email_taken, the invitation stays open', async () => {
    const { merchant, users: made } = await team();
    const token = await invitation(merchant.id, made.FINANCE.email);
    const taken = await accept(token);
    expect(taken.response.statusCode).toBe(409);
    expect(taken.response.json().code).toBe('email_taken');
    const [row] = await db
      .select()
      .from(userInvitations)
      .where(eq(userInvitations.tokenHash, sha256Hex(token)));
    expect(row.acceptedAt).toBeNull();
  });
});

describe('changing a colleague', () => {
  it('disabling ends their sessions at once (401 on the next request), and they cannot sign in until enabled', async () => {
    const { merchant, users: made, root, stepUp } = await team();
    const finance = await loginAs(ctx.app, made.FINANCE.email, TEST_PASSWORD);
    expect((await finance.get('/api/merchant/user')).statusCode).toBe(200);
    const disabled = await root.post(`/api/merchant/team/${made.FINANCE.id}/disable`, await stepUp());
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().data).toMatchObject({ status: 'disabled' });
    expect((await finance.get('/api/merchant/user')).statusCode).toBe(401);
    expect(await db.select().from(sessions).where(eq(sessions.userId, made.FINANCE.id))).toEqual([]);
    const refused = await new TestClient(ctx.app).login(made.FINANCE.email, TEST_PASSWORD);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('user_disabled');
    expect(await eventsOf(merchant.id, 'user_disabled')).toHaveLength(1);
    const told = await db.select().from(notifications).where(eq(notifications.type, 'user_disabled'));
    expect(told.filter((n) => n.userId === made.ROOT.id)).toHaveLength(1);

    const enabled = await root.post(`/api/merchant/team/${made.FINANCE.id}/enable`, await stepUp());
    expect(enabled.json().data).toMatchObject({ status: 'active' });
    expect((await new TestClient(ctx.app).login(made.FINANCE.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect(await eventsOf(merchant.id, 'user_enabled')).toHaveLength(1);
  });

  it("a role change counts on the colleague's next request", async () => {
    const { merchant, users: made, root, stepUp } = await team();
    const viewer = await loginAs(ctx.app, made.VIEWER.email, TEST_PASSWORD);
    expect((await viewer.get('/api/merchant/collections')).statusCode).toBe(200);
    const changed = await root.put(`/api/merchant/team/${made.VIEWER.id}/role`, {
      role: 'FINANCE',
      ...(await stepUp()),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.roles).toEqual(['FINANCE']);
    expect((await viewer.get('/api/merchant/collections')).statusCode).toBe(403);
    const [event] = await eventsOf(merchant.id, 'user_role_changed');
    expect(event.detail).toMatchObject({ from: ['VIEWER'], to: ['FINANCE'] });
    const badRole = await root.put(`/api/merchant/team/${made.VIEWER.id}/role`, {
      role: 'ADMIN',
      ...(await stepUp()),
    });
    expect(badRole.statusCode).toBe(422);
    expect(Object.keys(badRole.json().errors)).toEqual(['role']);
  });

  it('resetting two-factor ends their sessions; they sign in with the password alone and bind again', async () => {
    const { merchant, users: made, root, stepUp } = await team();
    const finance = await loginAs(ctx.app, made.FINANCE.email, TEST_PASSWORD);
    await enableTwoFactor(finance, TEST_PASSWORD);
    expect((await new TestClient(ctx.app).login(made.FINANCE.email, TEST_PASSWORD)).json()).toEqual({
      two_factor: true,
    });
    const reset = await root.post(`/api/merchant/team/${made.FINANCE.id}/reset-two-factor`, await stepUp());
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data.two_factor_enabled).toBe(false);
    expect((await finance.get('/api/merchant/user')).statusCode).toBe(401);
    const next = new TestClient(ctx.app);
    expect((await next.login(made.FINANCE.email, TEST_PASSWORD)).json()).toEqual({ two_factor: false });
    expect((await next.get('/api/merchant/user')).json().data.two_factor_enabled).toBe(false);
    expect(await eventsOf(merchant.id, 'user_two_factor_reset')).toHaveLength(1);
    const told = await db.select().from(notifications).where(eq(notifications.type, 'two_factor_disabled'));
    expect(told.filter((n) => n.userId === made.ROOT.id).map((n) => n.params.user)).toEqual([
      `${made.FINANCE.name} <${made.FINANCE.email}>`,
    ]);
  });

  it("another merchant's user, or an id that is none, is 404; one's own row is 409 team_self_change", async () => {
    const { users: made, root, stepUp } = await team();
    const { users: other } = await createMerchant(db, { roles: ['FINANCE'] });
    const cross = await root.post(`/api/merchant/team/${other.FINANCE.id}/disable`, await stepUp());
    expect(cross.statusCode).toBe(404);
    const [stillThere] = await db.select().from(users).where(eq(users.id, other.FINANCE.id));
    expect(stillThere.disabledAt).toBeNull();
    expect((await root.post('/api/merchant/team/abc/disable', await stepUp())).statusCode).toBe(404);
    const self = await root.post(`/api/merchant/team/${made.ROOT.id}/disable`, await stepUp());
    expect(self.statusCode).toBe(409);
    expect(self.json().code).toBe('team_self_change');
  });
});

describe('the last active ROOT', () => {
  it('cannot be disabled or demoted (409 last_root), by anyone holding team:manage', async () => {
    clock = freezeClock();
    const { merchant, users: made } = await createMerchant(db, { roles: ['ROOT', 'FINANCE'] });
    // A FINANCE user granted team:manage one by one: the only way to reach the last ROOT's row.
    await db
      .update(users)
      .set({ perms: ['team:manage'] })
      .where(eq(users.id, made.FINANCE.id));
    const manager = await loginAs(ctx.app, made.FINANCE.email, TEST_PASSWORD);
    const { stepUp } = await withStepUp(manager);
    const demote = await manager.put(`/api/merchant/team/${made.ROOT.id}/role`, {
      role: 'VIEWER',
      ...(await stepUp()),
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe('last_root');
    const disable = await manager.post(`/api/merchant/team/${made.ROOT.id}/disable`, await stepUp());
    expect(disable.statusCode).toBe(409);
    expect(disable.json().code).toBe('last_root');
    const [root] = await db.select().from(users).where(eq(users.id, made.ROOT.id));
    expect(root).toMatchObject({ roles: ['ROOT'], disabledAt: null });
    expect(await eventsOf(merchant.id, 'user_disabled')).toEqual([]);
  });

  it('two ROOT users disabling each other at once: one wins, one ROOT stays active', async () => {
    clock = freezeClock();
    const { users: made } = await createMerchant(db, { roles: ['ROOT'] });
    const { merchantId, passwordHash } = made.ROOT;
    const [second] = await db
      .insert(users)
      .values({
        merchantId,
        passwordHash,
        roles: ['ROOT'],
        email: `second.${made.ROOT.email}`,
        name: 'Second ROOT',
      })
      .returning();
    const a = await loginAs(ctx.app, made.ROOT.email, TEST_PASSWORD);
    const b = await loginAs(ctx.app, second.email, TEST_PASSWORD);
    const stepA = (await withStepUp(a)).stepUp;
    const stepB = (await withStepUp(b)).stepUp;
    const [bodyA, bodyB] = [await stepA(), await stepB()];
    const results = await Promise.all([
      a.post(`/api/merchant/team/${second.id}/disable`, bodyA),
      b.post(`/api/merchant/team/${made.ROOT.id}/disable`, bodyB),
    ]);
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The loser finds the last ROOT protected, or (if it started after the winner's commit) its session gone.
    expect(['last_root', 'unauthenticated']).toContain(
      results.find((r) => r.statusCode !== 200)?.json().code,
    );
    const rows = await db.select().from(users).where(eq(users.merchantId, made.ROOT.merchantId));
    expect(rows.filter((row) => row.disabledAt === null)).toHaveLength(1);
  });
});
