import { sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { createMerchantWithTwoRoots, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, TestClient } from '../helpers/client.ts';
import { recipientOf, startSmtpServer, type TestSmtpServer, queuedMailJobs } from '../helpers/smtp.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { freezeClock, releaseClock, setUpStepUp } from '../helpers/two-factor.ts';

// Where notifications start (DESIGN 16, issue 38): notify URL, IP whitelist, payment password reset,
// two-factor turned off, a ROOT sign-in from a new address. Each tells every ROOT user once, in the
// transaction of the change (a rollback tells no one); each mail reaches a real SMTP server once, in the
// recipient's language.

let ctx: TestContext;
let smtp: TestSmtpServer;
const PAY = 'pay-secret-1';

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Paydesk <mail@paydesk.test>' });
}, 240_000);
afterAll(async () => {
  await smtp?.stop();
  await ctx?.close();
});
afterEach(() => releaseClock());

type MailJob = Awaited<ReturnType<typeof queuedMailJobs>>[number];
const mailJobs = () => queuedMailJobs(ctx.database.db);

/** Delivers the mail jobs queued since `before` as the worker does; answers what the SMTP server got. */
async function deliverSince(before: MailJob[]): Promise<ParsedMail[]> {
  const seen = new Set(before.map((j) => j.id));
  smtp.received.length = 0;
  for (const job of await mailJobs()) {
    if (!seen.has(job.id)) await ctx.app.services.mail.deliver(job.data);
  }
  return [...smtp.received];
}

type NoteRow = { user_id: number; type: string; params: Record<string, string> };
const notesOf = (merchantId: number) =>
  queryRows<NoteRow>(
    ctx.database.db,
    sql`select user_id::int as user_id, type, params from notifications where merchant_id = ${merchantId} order by id`,
  );

/**
 * A merchant with two ROOT users (the signed-in one reads zh-cn, the second vi), a FINANCE user; the
 * signed-in ROOT has two-factor and a payment password (what the step-up asks for).
 */
async function team() {
  const made = await createMerchantWithTwoRoots(ctx.database.db);
  const client = await loginAs(ctx.app, made.root.email, TEST_PASSWORD);
  expect((await client.put('/api/user/locale', { locale: 'zh-cn' })).statusCode).toBe(200);
  const { secret, nextCode } = await setUpStepUp(client, freezeClock(), PAY);
  return { ...made, client, nextCode, secret };
}

/** The team, once its access key is regenerated (a key to point at a notify URL); the bell rows so far. */
async function teamWithKey() {
  const t = await team();
  const issued = await t.client.put('/api/merchant/access-key/regenerate', {
    payment_password: PAY,
    code: await t.nextCode(),
  });
  expect(issued.statusCode, issued.body).toBe(200);
  return { t, notesBefore: (await notesOf(t.merchant.id)).length };
}

/** Exactly one row per ROOT user of this type, and one mail each, in their language, over SMTP. */
async function expectToldOnce(
  t: Awaited<ReturnType<typeof team>>,
  before: MailJob[],
  notesBefore: number,
  type: string,
  subjects: { zh: string; vi: string },
) {
  const notes = (await notesOf(t.merchant.id)).slice(notesBefore);
  expect(notes.map((n) => [n.user_id, n.type])).toEqual([
    [t.root.id, type],
    [t.second.id, type],
  ]);
  expect(notes[0]!.params.merchant).toBe(`${t.merchant.name} (${t.merchant.no})`);
  const mails = await deliverSince(before);
  expect(mails.map((m) => [recipientOf(m), m.subject]).sort()).toEqual(
    [
      [t.root.email, subjects.zh],
      [t.second.email, subjects.vi],
    ].sort(),
  );
  expect(mails.map(recipientOf)).not.toContain(t.finance.email);
  return { notes, mails };
}

describe('each trigger tells every ROOT user once, by bell and by mail over SMTP', () => {
  it('notify URL changed: told when it changes, not when the same URL is saved again', async () => {
    const { t, notesBefore } = await teamWithKey();
    const before = await mailJobs();
    const url = 'https://shop.example.com/paydesk/notify';
    const saved = await t.client.put('/api/merchant/access-key/update', { notify_url: url });
    expect(saved.statusCode, saved.body).toBe(200);
    const { notes, mails } = await expectToldOnce(t, before, notesBefore, 'notify_url_changed', {
      zh: '您的回调地址已修改',
      vi: 'URL thông báo của bạn đã được thay đổi',
    });
    expect(notes[0]!.params).toMatchObject({ url, mode: 'live' });
    expect(mails.find((m) => recipientOf(m) === t.second.email)!.text).toContain(url);

    const again = await t.client.put('/api/merchant/access-key/update', { notify_url: url });
    expect(again.statusCode).toBe(200);
    expect(await notesOf(t.merchant.id)).toHaveLength(notesBefore + 2);
  });

  it('IP whitelist changed', async () => {
    const t = await team();
    const before = await mailJobs();
    const saved = await t.client.put('/api/merchant/ip-address', {
      ip_address: '203.0.113.7\n198.51.100.0/24',
      payment_password: PAY,
      code: await t.nextCode(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { notes, mails } = await expectToldOnce(t, before, 0, 'ip_whitelist_changed', {
      zh: '您的 IP 白名单已修改',
      vi: 'Danh sách IP của bạn đã được thay đổi',
    });
    expect(notes[0]!.params.ips).toBe('203.0.113.7, 198.51.100.0/24');
    expect(mails.find((m) => recipientOf(m) === t.root.email)!.text).toContain('203.0.113.7');
  });

  it('payment password reset', async () => {
    const t = await team();
    const before = await mailJobs();
    const reset = await t.client.post('/api/merchant/payment-password/reset', {
      password: TEST_PASSWORD,
      payment_password: 'pay-secret-2',
      payment_password_confirmation: 'pay-secret-2',
      code: await t.nextCode(),
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const { notes } = await expectToldOnce(t, before, 0, 'payment_password_reset', {
      zh: '支付密码已重置',
      vi: 'Mật khẩu thanh toán đã được đặt lại',
    });
    expect(notes[0]!.params.user).toBe(`${t.root.name} <${t.root.email}>`);

    // A refused reset (wrong code) tells no one.
    const refused = await t.client.post('/api/merchant/payment-password/reset', {
      password: TEST_PASSWORD,
      payment_password: 'pay-secret-3',
      payment_password_confirmation: 'pay-secret-3',
      code: '000000',
    });
    expect(refused.statusCode).toBe(422);
    expect(await notesOf(t.merchant.id)).toHaveLength(2);
  });

  it('two-factor turned off', async () => {
    const t = await team();
    const before = await mailJobs();
    const off = await t.client.delete('/api/user/two-factor-authentication', { code: await t.nextCode() });
    expect(off.statusCode, off.body).toBe(200);
    const { mails } = await expectToldOnce(t, before, 0, 'two_factor_disabled', {
      zh: '双重验证已关闭',
      vi: 'Xác thực hai lớp đã bị tắt',
    });
    expect(mails.find((m) => recipientOf(m) === t.root.email)!.text).toContain(`${t.root.email}`);
  });

  it('a ROOT sign-in from a new address; not the first sign-in ever, not a known address, not FINANCE', async () => {
    const t = await team();
    // The second ROOT's first sign-in ever: nothing to compare with, nobody told.
    const signIn = async (email: string, ip: string) => {
      const client = new TestClient(ctx.app);
      client.ip = ip;
      const response = await client.login(email, TEST_PASSWORD);
      expect(response.statusCode, response.body).toBe(200);
      return response;
    };
    await signIn(t.second.email, '198.51.100.10');
    await signIn(t.second.email, '198.51.100.10');
    await signIn(t.finance.email, '198.51.100.99');
    expect(await notesOf(t.merchant.id)).toEqual([]);

    const before = await mailJobs();
    await signIn(t.second.email, '203.0.113.50');
    const { notes, mails } = await expectToldOnce(t, before, 0, 'root_sign_in_new_ip', {
      zh: '新 IP 地址登录提醒',
      vi: 'Đăng nhập từ địa chỉ IP mới',
    });
    expect(notes[0]!.params).toMatchObject({ ip: '203.0.113.50', user: `Second root <${t.second.email}>` });
    expect(mails.find((m) => recipientOf(m) === t.root.email)!.text).toContain('203.0.113.50');
    // Known now: the next sign-in from it tells no one.
    await signIn(t.second.email, '203.0.113.50');
    expect(await notesOf(t.merchant.id)).toHaveLength(2);
  });

  it('a ROOT sign-in with two-factor from a new address is told once the challenge passes', async () => {
    const t = await team();
    const client = new TestClient(ctx.app);
    client.ip = '192.0.2.77';
    const login = await client.login(t.root.email, TEST_PASSWORD);
    expect(login.json()).toEqual({ two_factor: true });
    expect(await notesOf(t.merchant.id)).toEqual([]);
    const before = await mailJobs();
    const passed = await client.post('/api/two-factor-challenge', { code: await t.nextCode() });
    expect(passed.statusCode, passed.body).toBe(204);
    await expectToldOnce(t, before, 0, 'root_sign_in_new_ip', {
      zh: '新 IP 地址登录提醒',
      vi: 'Đăng nhập từ địa chỉ IP mới',
    });
  });
});

describe('a rolled-back change tells no one', () => {
  it('a notify URL change that fails after notifyRoots leaves no row, no mail and the old URL', async () => {
    const { t, notesBefore } = await teamWithKey();
    const before = await mailJobs();
    // The last write of the change (its mail job) fails: the whole transaction rolls back.
    await ctx.database.db.execute(
      sql.raw(`create or replace function test_refuse_mail() returns trigger language plpgsql as $$
        begin
          if new.name = 'mail.send' and new.data->>'template' = 'notify_url_changed' then
            raise exception 'mail refused by the test';
          end if;
          return new;
        end $$`),
    );
    await ctx.database.db.execute(
      sql.raw(
        'create trigger test_refuse_mail before insert on pgboss.job for each row execute function test_refuse_mail()',
      ),
    );
    try {
      const failed = await t.client.put('/api/merchant/access-key/update', {
        notify_url: 'https://evil.example.com/n',
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      await ctx.database.db.execute(sql.raw('drop trigger test_refuse_mail on pgboss.job'));
    }
    expect(await notesOf(t.merchant.id)).toHaveLength(notesBefore);
    expect(await mailJobs()).toHaveLength(before.length);
    expect((await t.client.get('/api/merchant/access-key')).json().data.notify_url).toBeNull();
  });
});
