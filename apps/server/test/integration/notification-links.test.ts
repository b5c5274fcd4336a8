import { eq, sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { users } from '../../src/db/schema/index.ts';
import { hashPassword } from '../../src/lib/password.ts';
import { sealSecret } from '../../src/modules/security/authenticator.ts';
import { generateTotpSecret } from '../../src/modules/security/totp.ts';
import { CN_PAYEE, createGatewayMerchant, fundMerchant, openPayoutChannel } from '../factories/gateway.ts';
import { TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { recipientOf, startSmtpServer, type TestSmtpServer, queuedMailJobs } from '../helpers/smtp.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { freezeClock, releaseClock, totpCode } from '../helpers/two-factor.ts';

// A notification mail links to the console page where the merchant acts on it (issue 38): PUBLIC_URL when
// set, else the address of the request that caused it, else (a change outside any request) no link at all.
// Delivered to a real SMTP server; the bell's row keeps the change's own parameters, never the link.

let ctx: TestContext;
/** A second server on the same database, with PUBLIC_URL set (as a deployment behind a proxy has). */
let published: TestContext;
let smtp: TestSmtpServer;
const PAY = 'pay-links-1';
const PUBLIC_URL = 'https://pay.example.com';

beforeAll(async () => {
  smtp = await startSmtpServer();
  const mail = { SMTP_URL: smtp.url, MAIL_FROM: 'Paydesk <mail@paydesk.test>' };
  ctx = await createTestApp(mail);
  published = await createTestApp({ ...mail, PUBLIC_URL: `${PUBLIC_URL}/` }, { database: ctx.database });
}, 240_000);
afterAll(async () => {
  await published?.app.close();
  await smtp?.stop();
  await ctx?.close();
});
afterEach(() => releaseClock());

const mailJobs = () => queuedMailJobs(ctx.database.db);

/** Delivers the mail jobs queued by `change` as the worker does; what the SMTP server got, to whom. */
async function mailsOf(change: () => Promise<void>): Promise<Map<string, ParsedMail>> {
  const seen = new Set((await mailJobs()).map((j) => j.id));
  await change();
  smtp.received.length = 0;
  for (const job of await mailJobs()) {
    if (!seen.has(job.id)) await ctx.app.services.mail.deliver(job.data);
  }
  return new Map(smtp.received.map((mail) => [recipientOf(mail) ?? '', mail]));
}

/** The href of the mail's button and its plain text's line under the button's words; none: undefined. */
const linkOf = (mail: ParsedMail) => ({
  href: /<a href="([^"]+)"/.exec(String(mail.html))?.[1]?.replace(/&amp;/g, '&'),
  text: mail.text,
});

/**
 * A merchant with a sandbox payout channel and funds, a ROOT (reads vi) and an OPERATOR, signed in on the
 * server given, each with two-factor and a payment password (written to their rows).
 */
async function team(on: TestContext) {
  const clock = freezeClock();
  const { db } = ctx.database;
  const m = await createGatewayMerchant(db, ctx.config.appKey, { roles: ['ROOT', 'OPERATOR'] });
  await openPayoutChannel(db, m.merchant.id);
  await fundMerchant(db, m.merchant.id, 100_000n);
  const paymentPasswordHash = await hashPassword(PAY);
  const as: Partial<Record<'ROOT' | 'OPERATOR', TestClient>> = {};
  const secrets: Record<string, string> = {};
  for (const role of ['ROOT', 'OPERATOR'] as const) {
    secrets[role] = generateTotpSecret();
    as[role] = await loginAs(on.app, m.users[role].email, TEST_PASSWORD);
    await db
      .update(users)
      .set({
        twoFactorSecret: sealSecret(ctx.config.appKey, secrets[role]),
        twoFactorConfirmedAt: new Date(),
        paymentPasswordHash,
        locale: role === 'ROOT' ? 'vi' : 'en',
      })
      .where(eq(users.id, m.users[role].id));
  }
  const stepUp = async (role: 'ROOT' | 'OPERATOR') => {
    clock.nextStep();
    return { payment_password: PAY, code: await totpCode(secrets[role]!) };
  };
  return { ...m, as: as as Record<'ROOT' | 'OPERATOR', TestClient>, stepUp };
}

const notesOf = (merchantId: number) =>
  queryRows<{ type: string; params: Record<string, string> }>(
    ctx.database.db,
    sql`select type, params from notifications where merchant_id = ${merchantId} order by id`,
  );

describe('a notification mail links to the console page where the merchant acts', () => {
  it("a payout waiting for approval: its ROOT's mail opens it in Send money history, at the address its maker reached", async () => {
    const t = await team(ctx);
    const set = await t.as.ROOT.put('/api/merchant/payout-approval', {
      payout_approval_threshold: '100.00',
      gateway_payout_approval_threshold: '0',
      ...(await t.stepUp('ROOT')),
    });
    expect(set.statusCode, set.body).toBe(200);
    let tradeNo = '';
    const mails = await mailsOf(async () => {
      const made = await t.as.OPERATOR.post(
        '/api/merchant/payouts',
        { channel: 'sandbox-pay', amount: '150.00', ...CN_PAYEE, ...(await t.stepUp('OPERATOR')) },
        { host: 'console.shop.test:8443' },
      );
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json().data.status).toBe('pending_approval');
      tradeNo = made.json().data.trade_no;
    });
    const mail = mails.get(t.users.ROOT.email)!;
    expect(mail.subject).toBe(`Lệnh chi ${tradeNo} đang chờ duyệt`);
    const url = `http://console.shop.test:8443/behalfPay/transfers?trade_no=${tradeNo}`;
    expect(linkOf(mail).href).toBe(url);
    expect(mail.html).toContain('Xem và duyệt lệnh chi');
    expect(mail.text).toContain(`Xem và duyệt lệnh chi:\n${url}`);
    // The bell's row: the change's parameters only.
    const [note] = await notesOf(t.merchant.id);
    expect(note).toMatchObject({ type: 'payout_pending_approval', params: { payout_no: tradeNo } });
    expect(note!.params).not.toHaveProperty('link');
  });

  it('with PUBLIC_URL set, the link is on it whatever address the request reached (the IP whitelist on its page)', async () => {
    const t = await team(published);
    const mails = await mailsOf(async () => {
      const saved = await t.as.ROOT.put(
        '/api/merchant/ip-address',
        { ip_address: '203.0.113.7', ...(await t.stepUp('ROOT')) },
        { host: '10.0.0.5:8080' },
      );
      expect(saved.statusCode, saved.body).toBe(200);
    });
    const mail = mails.get(t.users.ROOT.email)!;
    expect(mail.subject).toBe('Danh sách IP của bạn đã được thay đổi');
    expect(linkOf(mail).href).toBe(`${PUBLIC_URL}/setting/ipWhitelist`);
    expect(mail.text).toContain(`Mở Danh sách IP được phép trên Paydesk:\n${PUBLIC_URL}/setting/ipWhitelist`);
    expect(mail.text).not.toContain('10.0.0.5');
  });

  it('a user invited: the team page; outside any request (a job): no link and no button', async () => {
    const t = await team(ctx);
    const invited = await mailsOf(async () => {
      const sent = await t.as.ROOT.post(
        '/api/merchant/team/invitations',
        { email: `links-${t.merchant.no}@example.com`, role: 'VIEWER', ...(await t.stepUp('ROOT')) },
        { host: 'console.shop.test' },
      );
      expect(sent.statusCode, sent.body).toBe(201);
    });
    expect(linkOf(invited.get(t.users.ROOT.email)!).href).toBe('http://console.shop.test/setting/team');

    const fromAJob = await mailsOf(async () => {
      await ctx.database.db.transaction((tx) =>
        ctx.app.services.notifications.notifyRoots(tx, {
          merchantId: t.merchant.id,
          type: 'access_key_regenerated',
          params: { merchant: t.merchant.no, actor: 'ops', at: new Date(0).toISOString(), mode: 'live' },
        }),
      );
    });
    const mail = fromAJob.get(t.users.ROOT.email)!;
    expect(mail.subject).toBe('Khóa truy cập của bạn đã được tạo lại');
    expect(linkOf(mail).href).toBeUndefined();
    expect(mail.text).not.toMatch(/https?:\/\//);
    expect(mail.text).not.toContain('Mở Khóa truy cập');
  });
});
