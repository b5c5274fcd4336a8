import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { createMailService } from '../../src/modules/mail/index.ts';
import { createMerchantWithTwoRoots, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { recipientOf, startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { freezeClock, releaseClock, setUpStepUp } from '../helpers/two-factor.ts';

// Email and the core of notifications (DESIGN 16): a real SMTP server receives the mail in the
// recipient's language; without SMTP_URL each mail is an .eml file in DATA_DIR/mail; a mail server that is
// down fails no action, and the mail.send job (with its retries) delivers it once the server is back.
// notifyRoots tells the merchant's ROOT users only; the bell's routes show each user their own.

let smtpApp: TestContext;
let smtp: TestSmtpServer;
const PAY = 'pay-secret-1';

beforeAll(async () => {
  smtp = await startSmtpServer();
  smtpApp = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Paydesk <mail@paydesk.test>' });
}, 240_000);
afterAll(async () => {
  await smtp?.stop();
  await smtpApp?.close();
});
afterEach(() => releaseClock());

type MailJobRow = { id: string; data: Record<string, unknown>; retry_limit: number };
const mailJobs = (ctx: TestContext) =>
  queryRows<MailJobRow>(
    ctx.database.db,
    sql`select id::text as id, data, retry_limit from pgboss.job where name = 'mail.send' order by created_on, id`,
  );

/** Runs the mail jobs queued since `before` as the worker does; answers the failures. */
async function runMailJobs(ctx: TestContext, before: MailJobRow[]) {
  const seen = new Set(before.map((j) => j.id));
  const failures: unknown[] = [];
  for (const job of await mailJobs(ctx)) {
    if (seen.has(job.id)) continue;
    await ctx.app.services.mail.deliver(job.data).catch((error: unknown) => failures.push(error));
  }
  return failures;
}

/** A merchant with two ROOT users (the second added by hand), a FINANCE user, and the ROOT signed in. */
async function team(ctx: TestContext) {
  const made = await createMerchantWithTwoRoots(ctx.database.db);
  const client = await loginAs(ctx.app, made.root.email, TEST_PASSWORD);
  return { ...made, client };
}

/** Two-factor and a payment password for the signed-in ROOT: what regenerating the key asks for. */
async function stepUp(client: TestClient) {
  return (await setUpStepUp(client, freezeClock(), PAY)).nextCode;
}

const regenerate = async (client: TestClient, nextCode: () => Promise<string>) =>
  client.put('/api/merchant/access-key/regenerate', { payment_password: PAY, code: await nextCode() });

describe('the recipient language (users.locale)', () => {
  it('is en by default, set by PUT /api/user/locale, shown by GET /api/merchant/user; garbage is a 422', async () => {
    const { client } = await team(smtpApp);
    expect((await client.get('/api/merchant/user')).json().data.locale).toBe('en');
    for (const body of [{ locale: 'fr' }, {}, { locale: 3 }]) {
      const refused = await client.put('/api/user/locale', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
      expect(refused.json().code).toBeTruthy();
    }
    const set = await client.put('/api/user/locale', { locale: 'zh-cn' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ data: { locale: 'zh-cn' } });
    expect((await client.get('/api/merchant/user')).json().data.locale).toBe('zh-cn');
  });
});

describe('access key regenerated: the worked example, over SMTP', () => {
  it('writes one bell row per ROOT user and mails each in their language; FINANCE gets nothing', async () => {
    const { merchant, root, second, finance, client } = await team(smtpApp);
    expect((await client.put('/api/user/locale', { locale: 'zh-cn' })).statusCode).toBe(200);
    const nextCode = await stepUp(client);
    const before = await mailJobs(smtpApp);
    const response = await regenerate(client, nextCode);
    expect(response.statusCode, response.body).toBe(200);

    const rows = await queryRows<{ user_id: number; type: string; params: Record<string, string> }>(
      smtpApp.database.db,
      sql`select user_id::int as user_id, type, params from notifications where merchant_id = ${merchant.id} order by user_id`,
    );
    expect(rows.map((r) => r.user_id)).toEqual([root.id, second.id]);
    expect(rows.every((r) => r.type === 'access_key_regenerated')).toBe(true);
    expect(rows[0]!.params).toMatchObject({ merchant: `${merchant.name} (${merchant.no})`, mode: 'live' });
    expect(rows.map((r) => r.user_id)).not.toContain(finance.id);

    smtp.received.length = 0;
    expect(await runMailJobs(smtpApp, before)).toEqual([]);
    expect(smtp.received).toHaveLength(2);
    const zh = smtp.received.find((m) => recipientOf(m) === root.email)!;
    const vi = smtp.received.find((m) => recipientOf(m) === second.email)!;
    expect(zh.subject).toBe('您的接入密钥已重新生成');
    expect(zh.text).toContain(`重新生成了商户 ${merchant.name} (${merchant.no}) 的接入密钥`);
    expect(zh.html).toContain('lang="zh-CN"');
    expect(zh.html).toContain('旧密钥已失效');
    expect(vi.subject).toBe('Khóa truy cập của bạn đã được tạo lại');
    expect(vi.text).toContain('Chế độ: Thật');
    expect(vi.html).toContain('lang="vi"');
    expect(zh.from?.text).toContain('mail@paydesk.test');
  });

  it('a mail server that is down fails nothing: the mail waits in its retried job and goes once it is back', async () => {
    const { merchant, root, second, client } = await team(smtpApp);
    const nextCode = await stepUp(client);
    await smtp.stop();
    const before = await mailJobs(smtpApp);
    const response = await regenerate(client, nextCode);
    expect(response.statusCode, response.body).toBe(200);
    const queued = (await mailJobs(smtpApp)).filter((j) => !before.some((b) => b.id === j.id));
    expect(queued.map((j) => j.data.to).sort()).toEqual([root.email, second.email].sort());
    // pg-boss retries a failed send (db/jobs.ts RETRY_POLICIES): about 12 hours of tries.
    expect(queued.every((j) => j.retry_limit === 16)).toBe(true);
    const [{ count }] = await queryRows<{ count: number }>(
      smtpApp.database.db,
      sql`select count(*)::int as count from notifications where merchant_id = ${merchant.id}`,
    );
    expect(count).toBe(2);

    smtp.received.length = 0;
    const failures = await runMailJobs(smtpApp, before);
    expect(failures).toHaveLength(2);
    expect(smtp.received).toHaveLength(0);

    await smtp.start();
    expect(await runMailJobs(smtpApp, before)).toEqual([]);
    expect(smtp.received.map((m) => m.subject).sort()).toEqual([
      'Khóa truy cập của bạn đã được tạo lại',
      'Your access key was regenerated',
    ]);
  });
});

describe('without SMTP_URL: .eml files in DATA_DIR/mail', () => {
  it('writes each mail as a parseable multipart message and escapes the parameters in its HTML', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-mail-'));
    const sent: Array<Record<string, unknown>> = [];
    const logged: string[] = [];
    // The service as app.ts makes it when SMTP_URL is unset; its job is kept here and run as the worker does.
    const mail = createMailService({
      jobs: { send: async (_tx, _queue, data) => void sent.push(data as Record<string, unknown>) },
      smtpUrl: undefined,
      from: 'Paydesk <mail@paydesk.test>',
      dataDir,
      now: () => new Date('2026-11-29T04:30:00Z'),
      log: (_detail, message) => logged.push(message),
    });
    const dir = path.join(dataDir, 'mail');
    expect(mail.delivery).toEqual({ kind: 'files', dir });
    await smtpApp.database.db.transaction((tx) =>
      mail.queue(tx, {
        to: 'new.user@acme.test',
        locale: 'vi',
        template: 'invitation',
        params: {
          link: 'https://console.example/invitations/tok123',
          merchant: 'Acme <b>&</b>',
          inviter: 'Ann',
          role: 'FINANCE',
          expires_at: '2026-11-30T04:30:00.000Z',
        },
      }),
    );
    expect(sent).toHaveLength(1);
    const { path: written } = await mail.deliver(sent[0]!);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(path.join(dir, files[0]!)).toBe(written);
    expect(files[0]).toMatch(/invitation-new\.user@acme\.test\.eml$/);
    expect(logged).toEqual([`mail written to ${written}`]);
    const parsed = await simpleParser(readFileSync(written!));
    expect(parsed.subject).toBe('Ann mời bạn tham gia Acme <b>&</b> trên Paydesk');
    expect((Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)?.text).toBe('new.user@acme.test');
    expect(parsed.text).toContain('https://console.example/invitations/tok123');
    expect(parsed.text).toContain('2026-11-30 04:30 UTC');
    expect(parsed.html).toContain('Acme &lt;b&gt;&amp;&lt;/b&gt;');
    expect(parsed.html).not.toContain('<b>&</b>');
    expect(parsed.html).toContain('href="https://console.example/invitations/tok123"');
  });

  it('a rollback queues no mail and writes no notification', async () => {
    const { merchant } = await team(smtpApp);
    const before = await mailJobs(smtpApp);
    await expect(
      smtpApp.database.db.transaction(async (tx) => {
        await smtpApp.app.services.notifications.notifyRoots(tx, {
          merchantId: merchant.id,
          type: 'user_disabled',
          params: { merchant: merchant.name, actor: 'Ann', at: new Date().toISOString(), user: 'Bob' },
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await mailJobs(smtpApp)).toHaveLength(before.length);
    const [{ count }] = await queryRows<{ count: number }>(
      smtpApp.database.db,
      sql`select count(*)::int as count from notifications where merchant_id = ${merchant.id}`,
    );
    expect(count).toBe(0);
  });
});

describe('notifyRoots and the bell', () => {
  it('tells active ROOT users of the live row (from either mode), minus the excluded one', async () => {
    const { merchant, root, second } = await team(smtpApp);
    const [twin] = await queryRows<{ id: number }>(
      smtpApp.database.db,
      sql`select id::int as id from merchants where live_merchant_id = ${merchant.id}`,
    );
    const told = await smtpApp.database.db.transaction((tx) =>
      smtpApp.app.services.notifications.notifyRoots(tx, {
        merchantId: twin!.id,
        type: 'payout_pending_approval',
        params: {
          merchant: merchant.name,
          actor: 'Ann',
          at: new Date().toISOString(),
          payout_no: 'PO1',
          amount: '10.00',
          currency: 'CNY',
        },
        excludeUserId: root.id,
      }),
    );
    expect(told).toBe(1);
    const rows = await queryRows<{ user_id: number; merchant_id: number }>(
      smtpApp.database.db,
      sql`select user_id::int as user_id, merchant_id::int as merchant_id from notifications where user_id in (${root.id}, ${second.id})`,
    );
    expect(rows).toEqual([{ user_id: second.id, merchant_id: merchant.id }]);
  });

  it('shows each user their own, newest first with the unread count; marks read per user', async () => {
    const { merchant, root, second, client } = await team(smtpApp);
    const notify = (n: number) =>
      smtpApp.database.db.transaction((tx) =>
        smtpApp.app.services.notifications.notifyRoots(tx, {
          merchantId: merchant.id,
          type: 'ip_whitelist_changed',
          params: { merchant: merchant.name, actor: 'Ann', at: new Date().toISOString(), ips: `10.0.0.${n}` },
        }),
      );
    for (const n of [1, 2, 3]) await notify(n);
    const secondClient = await loginAs(smtpApp.app, second.email, TEST_PASSWORD);
    const other = await team(smtpApp);

    const first = await client.get('/api/merchant/notifications?limit=2');
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json();
    expect(page1.data.map((n: { params: { ips: string } }) => n.params.ips)).toEqual([
      '10.0.0.3',
      '10.0.0.2',
    ]);
    expect(page1.meta).toEqual({ unread: 3, next_before: page1.data[1].id });
    expect(page1.data[0]).toMatchObject({ type: 'ip_whitelist_changed', read_at: null });
    const page2 = (
      await client.get(`/api/merchant/notifications?limit=2&before=${page1.meta.next_before}`)
    ).json();
    expect(page2.data.map((n: { params: { ips: string } }) => n.params.ips)).toEqual(['10.0.0.1']);
    expect(page2.meta.next_before).toBeNull();
    // Another merchant's user sees none of them, and cannot mark them read.
    expect((await other.client.get('/api/merchant/notifications')).json()).toEqual({
      data: [],
      meta: { unread: 0, next_before: null },
    });
    const ids = [page1.data[0].id, page1.data[1].id];
    const foreign = await other.client.post('/api/merchant/notifications/read', { ids });
    expect(foreign.json()).toEqual({ data: { unread: 0 } });
    expect((await client.get('/api/merchant/notifications')).json().meta.unread).toBe(3);

    const marked = await client.post('/api/merchant/notifications/read', { ids });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ data: { unread: 1 } });
    const after = (await client.get('/api/merchant/notifications')).json();
    expect(after.data.map((n: { read_at: string | null }) => n.read_at !== null)).toEqual([
      true,
      true,
      false,
    ]);
    // The other ROOT's copies are theirs: still unread.
    expect((await secondClient.get('/api/merchant/notifications')).json().meta.unread).toBe(3);
    expect((await secondClient.post('/api/merchant/notifications/read', { all: true })).json()).toEqual({
      data: { unread: 0 },
    });
    expect((await client.get('/api/merchant/notifications')).json().meta.unread).toBe(1);

    for (const body of [{}, { ids: [] }, { ids: ['x'] }, { all: false }, { ids: [1], all: true }]) {
      const refused = await client.post('/api/merchant/notifications/read', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect((await client.get('/api/merchant/notifications?limit=0')).statusCode).toBe(422);
    expect(root.id).toBeGreaterThan(0);
  });
});
