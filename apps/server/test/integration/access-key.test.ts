import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { accessKeys, merchants } from '../../src/db/schema/index.ts';
import { gatewayCall } from '../factories/gateway.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { freezeClock, releaseClock, setUpStepUp } from '../helpers/two-factor.ts';

// The merchant's gateway credentials and IP whitelist in the console (DESIGN sections 5 and 6): ROOT only;
// revealing or replacing the secret and saving the whitelist need two-factor, the payment password and a
// fresh code; the secrets are stored encrypted; a replaced secret stops signing at once; all of it is in
// the security log.

let ctx: TestContext;
let db: Db;
const PAY = 'pay-secret-1';

type Clock = ReturnType<typeof freezeClock>;
type Merchant = typeof merchants.$inferSelect;

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
});
afterAll(() => ctx.close());
afterEach(() => releaseClock());

/** A merchant's ROOT user, logged in, without two-factor. */
async function root() {
  const { merchant, users } = await createMerchant(db, { roles: ['ROOT'] });
  const client = await loginAs(ctx.app, users.ROOT.email, TEST_PASSWORD);
  return { merchant, user: users.ROOT, client };
}

/**
 * A ROOT user with two-factor on and a payment password set: every code comes from a later period than
 * the last one used (a code is accepted once).
 */
async function rootWithStepUp(clock: Clock) {
  const { merchant, user, client } = await root();
  const { nextCode } = await setUpStepUp(client, clock, PAY);
  return { merchant, user, client, nextCode };
}

const regenerate = (client: TestClient, code: string, paymentPassword = PAY) =>
  client.put('/api/merchant/access-key/regenerate', { payment_password: paymentPassword, code });

const reveal = (client: TestClient, code: string, paymentPassword = PAY) =>
  client.get(
    `/api/merchant/access-key/secret?payment_password=${encodeURIComponent(paymentPassword)}&code=${code}`,
  );

const saveWhitelist = (client: TestClient, text: string, code: string, paymentPassword = PAY) =>
  client.put('/api/merchant/ip-address', { ip_address: text, payment_password: paymentPassword, code });

const setNotifyUrl = (client: TestClient, notifyUrl: unknown) =>
  client.put('/api/merchant/access-key/update', { notify_url: notifyUrl });

const shownKey = async (client: TestClient) => (await client.get('/api/merchant/access-key')).json();
const shownWhitelist = async (client: TestClient) => (await client.get('/api/merchant/ip-address')).json();

/** The merchant's access_keys row as stored, or undefined. */
async function storedKey(merchantId: number) {
  const [row] = await db.select().from(accessKeys).where(eq(accessKeys.merchantId, merchantId));
  return row;
}

async function storedWhitelist(merchantId: number) {
  const [row] = await db
    .select({ ips: merchants.ipWhitelist })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  return row.ips;
}

type SecurityEvent = { type: string; user: { id: number; name: string; email: string } | null };
const securityEvents = async (client: TestClient): Promise<SecurityEvent[]> =>
  (await client.get('/api/merchant/security-events?per_page=100')).json().data;

const KEY_EVENTS = [
  'access_key_regenerated',
  'access_key_revealed',
  'notify_url_changed',
  'ip_whitelist_changed',
];

/** A balance read signed with the given credentials, from 127.0.0.1. */
const signedBalance = (merchant: Merchant, accessKey: string, secret: string) =>
  gatewayCall(ctx.app, { merchant, accessKey, secret }, 'GET', '/gateway/v1/balance');

describe('who may see and change the access key and the whitelist', () => {
  it('ROOT reads {data: null} before any key is issued, and an empty whitelist', async () => {
    const { client } = await root();
    const key = await client.get('/api/merchant/access-key');
    expect(key.statusCode).toBe(200);
    expect(key.json()).toEqual({ data: null });
    const whitelist = await client.get('/api/merchant/ip-address');
    expect(whitelist.statusCode).toBe(200);
    expect(whitelist.json()).toEqual({ data: { ips: [] } });
  });

  it.each(['VIEWER', 'FINANCE', 'OPERATOR'] as const)(
    '%s gets 403 on every access-key and ip-address route, and nothing changes',
    async (role) => {
      const { merchant, users } = await createMerchant(db, { roles: [role] });
      const client = await loginAs(ctx.app, users[role].email, TEST_PASSWORD);
      const calls: [string, () => ReturnType<TestClient['get']>][] = [
        ['GET access-key', () => client.get('/api/merchant/access-key')],
        ['GET secret', () => reveal(client, '123456')],
        ['PUT regenerate', () => regenerate(client, '123456')],
        ['PUT update', () => setNotifyUrl(client, 'https://shop.example/hooks')],
        ['GET ip-address', () => client.get('/api/merchant/ip-address')],
        ['PUT ip-address', () => saveWhitelist(client, '127.0.0.1', '123456')],
      ];
      for (const [name, call] of calls) {
        const response = await call();
        expect({ name, status: response.statusCode }).toEqual({ name, status: 403 });
        expect(response.json().message).toMatch(/permission/i);
      }
      expect(await storedKey(merchant.id)).toBeUndefined();
      expect(await storedWhitelist(merchant.id)).toEqual([]);
    },
  );

  it('the session and the role are checked before the form: no validation errors for a caller who may not use it', async () => {
    const { users } = await createMerchant(db, { roles: ['VIEWER'] });
    const viewer = await loginAs(ctx.app, users.VIEWER.email, TEST_PASSWORD);
    const anonymous = new TestClient(ctx.app);
    await anonymous.csrf();
    const answers: Record<string, number> = {};
    for (const [who, client] of [
      ['viewer', viewer],
      ['anonymous', anonymous],
    ] as const) {
      answers[`${who} PUT update ftp://x`] = (await setNotifyUrl(client, 'ftp://x')).statusCode;
      answers[`${who} PUT ip-address {}`] = (await client.put('/api/merchant/ip-address', {})).statusCode;
    }
    // As on the other console routes (the payment password, the profile): 403 or 401 first.
    expect(answers).toEqual({
      'viewer PUT update ftp://x': 403,
      'viewer PUT ip-address {}': 403,
      'anonymous PUT update ftp://x': 401,
      'anonymous PUT ip-address {}': 401,
    });
  });
});

describe('without two-factor', () => {
  it('reveal, regenerate and the whitelist answer 400 two_factor_required and change nothing', async () => {
    const { merchant, client } = await root();
    const expected = { message: 'This feature is not enabled yet', code: 'two_factor_required' };
    for (const response of [
      await reveal(client, '123456'),
      await regenerate(client, '123456'),
      // An empty form gets the reason first, so the console can send the user to the Security page.
      await client.put('/api/merchant/access-key/regenerate', {}),
      await saveWhitelist(client, '127.0.0.1', '123456'),
    ]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject(expected);
    }
    expect(await shownKey(client)).toEqual({ data: null });
    expect(await storedKey(merchant.id)).toBeUndefined();
    expect(await shownWhitelist(client)).toEqual({ data: { ips: [] } });
    const types = (await securityEvents(client)).map((e) => e.type);
    expect(types.filter((t) => KEY_EVENTS.includes(t))).toEqual([]);
  });

  it('a regenerate sent with no body at all gets the same 400 (the body is optional)', async () => {
    const { merchant, client } = await root();
    const response = await client.put('/api/merchant/access-key/regenerate');
    expect(response.json()).toMatchObject({
      message: 'This feature is not enabled yet',
      code: 'two_factor_required',
    });
    expect(response.statusCode).toBe(400);
    expect(await storedKey(merchant.id)).toBeUndefined();
  });

  it('the notify URL cannot be set before a key is issued (409)', async () => {
    const { merchant, client } = await root();
    const response = await setNotifyUrl(client, 'https://shop.example/hooks');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'access_key_not_issued',
      message: expect.stringMatching(/access key first/),
    });
    expect(await storedKey(merchant.id)).toBeUndefined();
  });
});

describe('with two-factor and a payment password', () => {
  it('regenerate issues the key; a wrong payment password or code answers 422 and issues nothing', async () => {
    const clock = freezeClock();
    const { merchant, client, nextCode } = await rootWithStepUp(clock);

    const wrongPassword = await regenerate(client, await nextCode(), 'not-my-pay');
    expect(wrongPassword.statusCode).toBe(422);
    expect(Object.keys(wrongPassword.json().errors)).toEqual(['payment_password']);
    const wrongCode = await regenerate(client, '000000');
    expect(wrongCode.statusCode).toBe(422);
    expect(Object.keys(wrongCode.json().errors)).toEqual(['code']);
    expect(await shownKey(client)).toEqual({ data: null });
    expect(await storedKey(merchant.id)).toBeUndefined();

    const issued = await regenerate(client, await nextCode());
    expect(issued.statusCode, issued.body).toBe(200);
    const key = issued.json().data;
    expect(key).toEqual({
      mode: 'live',
      merchant_no: merchant.no,
      // The prefix says the mode (DESIGN 12).
      access_key: expect.stringMatching(/^live_[0-9a-z]{16,24}$/),
      notify_url: null,
      created_at: expect.any(String),
      rotated_at: null,
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/),
      webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    // The page shows the key without its secrets.
    expect(await shownKey(client)).toEqual({
      data: {
        mode: 'live',
        merchant_no: merchant.no,
        access_key: key.access_key,
        notify_url: null,
        created_at: key.created_at,
        rotated_at: null,
      },
    });

    // The test key (DESIGN 12) is a key of its own, on the merchant's test twin; the live one is untouched.
    expect((await client.get('/api/merchant/access-key?mode=test')).json()).toEqual({ data: null });
    const bad = await client.put('/api/merchant/access-key/regenerate', {
      mode: 'sandbox',
      payment_password: PAY,
      code: await nextCode(),
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['mode']);
    const test = await client.put('/api/merchant/access-key/regenerate', {
      mode: 'test',
      payment_password: PAY,
      code: await nextCode(),
    });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json().data).toMatchObject({ mode: 'test', access_key: expect.stringMatching(/^test_/) });
    expect(test.json().data.secret).not.toBe(key.secret);
    expect(test.json().data.webhook_secret).not.toBe(key.webhook_secret);
    expect((await client.get('/api/merchant/access-key?mode=test')).json().data).toMatchObject({
      mode: 'test',
      access_key: test.json().data.access_key,
    });
    expect((await shownKey(client)).data.access_key).toBe(key.access_key);
    const [twin] = await db.select().from(merchants).where(eq(merchants.liveMerchantId, merchant.id));
    expect((await storedKey(twin.id))?.accessKey).toBe(test.json().data.access_key);
  });

  it('reveal answers the same secret and webhook secret, behind the same step-up; neither is stored in plain text', async () => {
    const clock = freezeClock();
    const { merchant, client, nextCode } = await rootWithStepUp(clock);
    const key = (await regenerate(client, await nextCode())).json().data;

    const wrongPassword = await reveal(client, await nextCode(), 'not-my-pay');
    expect(wrongPassword.statusCode).toBe(422);
    expect(Object.keys(wrongPassword.json().errors)).toEqual(['payment_password']);
    const wrongCode = await reveal(client, '000000');
    expect(wrongCode.statusCode).toBe(422);
    expect(Object.keys(wrongCode.json().errors)).toEqual(['code']);
    const missing = await client.get('/api/merchant/access-key/secret');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().data).toBeUndefined();

    const revealed = await reveal(client, await nextCode());
    expect(revealed.statusCode, revealed.body).toBe(200);
    expect(revealed.json()).toEqual({
      data: { mode: 'live', secret: key.secret, webhook_secret: key.webhook_secret },
    });
    // The same code again is a replay.
    const code = await nextCode();
    expect((await reveal(client, code)).statusCode).toBe(200);
    const replay = await reveal(client, code);
    expect(replay.statusCode).toBe(422);
    expect(Object.keys(replay.json().errors)).toEqual(['code']);

    const row = await storedKey(merchant.id);
    expect(row.accessKey).toBe(key.access_key);
    const webhookKey = key.webhook_secret.slice('whsec_'.length);
    for (const column of [row.secretEncrypted, row.webhookSecretEncrypted]) {
      expect(column).not.toContain(key.secret);
      expect(column).not.toContain(webhookKey);
      expect(column).not.toContain(Buffer.from(webhookKey, 'base64').toString('hex'));
    }
    expect(JSON.stringify(row)).not.toContain(key.secret);
  });

  it("a second regenerate replaces the key: the old secret's signed calls answer 401, the new one's 200", async () => {
    const clock = freezeClock();
    const { merchant, client, nextCode } = await rootWithStepUp(clock);
    const saved = await saveWhitelist(client, '127.0.0.1', await nextCode());
    expect(saved.statusCode, saved.body).toBe(200);

    const first = (await regenerate(client, await nextCode())).json().data;
    const before = await signedBalance(merchant, first.access_key, first.secret);
    expect(before.statusCode, before.body).toBe(200);

    const second = await regenerate(client, await nextCode());
    expect(second.statusCode).toBe(200);
    const next = second.json().data;
    expect(next.secret).not.toBe(first.secret);
    expect(next.webhook_secret).not.toBe(first.webhook_secret);
    expect(next.webhook_secret).toMatch(/^whsec_/);
    expect(next.access_key).not.toBe(first.access_key);
    expect(next.rotated_at).not.toBeNull();
    expect(next.created_at).toBe(first.created_at);
    expect((await shownKey(client)).data).toMatchObject({
      access_key: next.access_key,
      rotated_at: next.rotated_at,
    });

    // The old credentials, as an integration that was not updated still sends them.
    const old = await signedBalance(merchant, first.access_key, first.secret);
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe('unknown_key');
    // The new access key signed with the old secret.
    const mixed = await signedBalance(merchant, next.access_key, first.secret);
    expect(mixed.statusCode).toBe(401);
    expect(mixed.json().code).toBe('signature_invalid');

    const current = await signedBalance(merchant, next.access_key, next.secret);
    expect(current.statusCode, current.body).toBe(200);
    expect(current.json()).toEqual({
      data: { available: '0.00', locked: '0.00', total: '0.00', currency: 'CNY' },
    });
    // Reveal now answers the new secrets.
    expect((await reveal(client, await nextCode())).json().data).toEqual({
      mode: 'live',
      secret: next.secret,
      webhook_secret: next.webhook_secret,
    });
  });

  it('PUT access-key/update saves an http(s) notify URL, refuses others with 422 and keeps the saved one', async () => {
    const clock = freezeClock();
    const { client, nextCode } = await rootWithStepUp(clock);
    await regenerate(client, await nextCode());

    const saved = await setNotifyUrl(client, 'https://shop.example/paydesk/hooks?x=1');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.notify_url).toBe('https://shop.example/paydesk/hooks?x=1');
    expect((await shownKey(client)).data.notify_url).toBe('https://shop.example/paydesk/hooks?x=1');

    for (const bad of ['ftp://x', 'not a url', 'javascript:alert(1)']) {
      const refused = await setNotifyUrl(client, bad);
      expect({ bad, status: refused.statusCode }).toEqual({ bad, status: 422 });
      expect(Object.keys(refused.json().errors)).toEqual(['notify_url']);
    }
    expect((await shownKey(client)).data.notify_url).toBe('https://shop.example/paydesk/hooks?x=1');
  });

  it('the whitelist: a wrong line is named and nothing is saved; valid lines are saved normalised', async () => {
    const clock = freezeClock();
    const { merchant, client, nextCode } = await rootWithStepUp(clock);
    expect(await shownWhitelist(client)).toEqual({ data: { ips: [] } });

    const code = await nextCode();
    const wrong = await saveWhitelist(client, '127.0.0.1\n300.1.1.1', code);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({
      ip_address: ['Line 2: "300.1.1.1" is not an IPv4 or IPv6 address or CIDR block.'],
    });
    expect(await shownWhitelist(client)).toEqual({ data: { ips: [] } });
    expect(await storedWhitelist(merchant.id)).toEqual([]);

    // Without the step-up fields nothing is saved either.
    const noStepUp = await client.put('/api/merchant/ip-address', { ip_address: '127.0.0.1' });
    expect(noStepUp.statusCode).toBe(422);
    expect(Object.keys(noStepUp.json().errors).sort()).toEqual(['code', 'payment_password']);
    const noCode = await client.put('/api/merchant/ip-address', {
      ip_address: '127.0.0.1',
      payment_password: PAY,
    });
    expect(noCode.statusCode).toBe(422);
    expect(Object.keys(noCode.json().errors)).toEqual(['code']);
    expect(await storedWhitelist(merchant.id)).toEqual([]);

    // A typo cost no code: the list is checked before the step-up, so the same code still works.
    const saved = await saveWhitelist(
      client,
      '  10.0.0.1 \n\n2001:DB8:0:0::1\r\n192.168.0.0/24\n\n10.0.0.1\n198.51.100.7/32\n',
      code,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const normalised = ['10.0.0.1', '2001:db8::1', '192.168.0.0/24', '198.51.100.7'];
    expect(saved.json()).toEqual({ data: { ips: normalised } });
    expect(await shownWhitelist(client)).toEqual({ data: { ips: normalised } });
    expect(await storedWhitelist(merchant.id)).toEqual(normalised);

    const hostBits = await saveWhitelist(client, '10.0.0.1\n192.168.0.1/24', await nextCode());
    expect(hostBits.statusCode).toBe(422);
    expect(hostBits.json().errors.ip_address[0]).toMatch(/^Line 2: .*192\.168\.0\.0\/24/);
    expect(await storedWhitelist(merchant.id)).toEqual(normalised);
  });

  it('the security log shows each change with the user who made it', async () => {
    const clock = freezeClock();
    const { user, client, nextCode } = await rootWithStepUp(clock);
    const key = (await regenerate(client, await nextCode())).json().data;
    expect((await reveal(client, await nextCode())).statusCode).toBe(200);
    expect((await setNotifyUrl(client, 'https://shop.example/hooks')).statusCode).toBe(200);
    expect((await saveWhitelist(client, '127.0.0.1', await nextCode())).statusCode).toBe(200);

    const events = (await securityEvents(client)).filter((e) => KEY_EVENTS.includes(e.type));
    expect(events.map((e) => e.type).sort()).toEqual([...KEY_EVENTS].sort());
    for (const event of events) {
      expect(event.user).toEqual({ id: user.id, name: user.name, email: user.email });
    }
    // The log names the access key, never its secrets.
    const log = JSON.stringify(events);
    expect(log).toContain(key.access_key);
    expect(log).not.toContain(key.secret);
    expect(log).not.toContain(key.webhook_secret.slice('whsec_'.length));
  });
});
