import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@paydesk/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { razorpayStandInLinks, razorpayStandInRefunds } from '../../db/schema/index.ts';
import { type ChannelRow, findChannelById, listAllChannels, openChannelSecrets } from '../channels/index.ts';
import { escapeHtml, payPageCsp } from './pay-page.ts';

// Razorpay's Payment Links, stood in by the demo itself (DESIGN 13: the INR merchant's Razorpay channel
// points its base_url here, so its whole life runs on one machine without a Razorpay account). It answers
// the documented requests the razorpay adapter makes with the documented answers
// (https://razorpay.com/docs/api/payments/payment-links/: create, fetch by id, fetch by reference_id;
// errors as https://razorpay.com/docs/errors/), and its hosted page lets the payer pay, after which it
// sends the payment_link.paid webhook (https://razorpay.com/docs/webhooks/validate-test/: X-Razorpay-
// Signature, hex HMAC-SHA256 of the body with the webhook secret) to the channel's notification address,
// as a Razorpay account configured with it would. Refunds of its payments (https://razorpay.com/docs/api/
// refunds/: create with X-Refund-Idempotency, fetch by id) are processed at once. The account is the
// channel whose key_id and key_secret the call carries. Payouts are not stood in here (the adapter's tests run them against their own
// stand-in, test/helpers/razorpay-stand-in.ts). On only where the sandbox is (development, tests, demo).

const PREFIX = '/sandbox/razorpay';

/** A Payment Link entity as Razorpay's API answers it (docs: Payment Links, the entity). */
export type LinkBody = {
  id: string;
  entity: 'payment_link';
  short_url: string;
  status: 'created' | 'paid' | 'expired' | 'cancelled';
  reference_id: string;
  amount: number;
  amount_paid: number;
  currency: string;
  description: string;
  expire_by: number;
  created_at: number;
  payments:
    { payment_id: string; amount: number; created_at: number; method: string; status: string }[] | null;
};

/** A Refund entity as Razorpay's API answers it (docs: Refunds, the entity). */
export type RefundBody = {
  id: string;
  entity: 'refund';
  amount: number;
  currency: string;
  payment_id: string;
  notes: Record<string, unknown>;
  receipt: string | null;
  acquirer_data: { arn: string | null };
  created_at: number;
  batch_id: null;
  status: 'pending' | 'processed' | 'failed';
  speed_processed: 'normal';
  speed_requested: string;
};

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex').slice(0, 14)}`;

/**
 * An error as Razorpay words it (docs: Errors: `error`), with this server's `message` and `code` beside it
 * (every 4xx of ours carries them; the adapter reads only `error`).
 */
function refuse(reply: FastifyReply, status: number, description: string, field?: string) {
  return reply.status(status).send({
    message: description,
    code: status === 401 ? ERROR_CODES.unauthenticated : ERROR_CODES.badRequest,
    error: {
      // Razorpay answers a wrong key (401) and a refused request (400) alike.
      code: 'BAD_REQUEST_ERROR',
      description,
      source: 'business',
      step: 'payment_initiation',
      reason: 'input_validation_failed',
      metadata: {},
      ...(field ? { field } : {}),
    },
  });
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

type Deps = { db: Db; appKey: Buffer; now: () => Date };

/** The link's page and the API under /sandbox/razorpay (registered by the sandbox module when it is on). */
export function registerRazorpayStandIn(app: FastifyInstance, { db, appKey, now }: Deps): void {
  /** The channel whose Razorpay account the call's Basic credentials open, or none. */
  async function accountOf(request: FastifyRequest): Promise<ChannelRow | undefined> {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return undefined;
    const [keyId, ...rest] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    const keySecret = rest.join(':');
    for (const channel of await listAllChannels(db)) {
      const settings = channel.settings as { key_id?: string };
      if (channel.provider !== 'razorpay' || settings.key_id !== keyId) continue;
      const secret = openChannelSecrets(appKey, channel).key_secret ?? '';
      if (secret && sameText(secret, keySecret)) return channel;
    }
    return undefined;
  }

  const linkRow = async (id: string) =>
    (await db.select().from(razorpayStandInLinks).where(eq(razorpayStandInLinks.id, id)))[0];

  app.register(async (scope) => {
    // The payer's page posts its form (application/x-www-form-urlencoded; nothing in it is read).
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, _body, done) => done(null, {}),
    );
    scope.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    scope.post<{ Body: Record<string, unknown> }>(`${PREFIX}/v1/payment_links`, async (request, reply) => {
      const channel = await accountOf(request);
      if (!channel) return refuse(reply, 401, 'The api key provided is invalid');
      const body = request.body ?? {};
      if (!Number.isInteger(body.amount) || (body.amount as number) < 100)
        return refuse(reply, 400, 'The amount must be atleast INR 1.00', 'amount');
      const reference = String(body.reference_id ?? '');
      const link = await insertStandInLink(db, {
        channelId: channel.id,
        origin: `${request.protocol}://${request.host}`,
        referenceId: reference,
        amount: body.amount as number,
        currency: String(body.currency ?? 'INR'),
        description: String(body.description ?? ''),
        expireBy: Number.isInteger(body.expire_by) ? (body.expire_by as number) : 0,
        at: now(),
      });
      if (!link)
        return refuse(
          reply,
          400,
          `Payment Link with reference id ${reference} already exists`,
          'reference_id',
        );
      return link;
    });

    scope.get<{ Querystring: { reference_id?: string } }>(
      `${PREFIX}/v1/payment_links`,
      async (request, reply) => {
        const channel = await accountOf(request);
        if (!channel) return refuse(reply, 401, 'The api key provided is invalid');
        const reference = request.query.reference_id;
        const rows = await db
          .select()
          .from(razorpayStandInLinks)
          .where(
            and(
              eq(razorpayStandInLinks.channelId, channel.id),
              reference === undefined ? undefined : eq(razorpayStandInLinks.referenceId, reference),
            ),
          );
        return { payment_links: rows.map((row) => row.body) };
      },
    );

    scope.get<{ Params: { id: string } }>(`${PREFIX}/v1/payment_links/:id`, async (request, reply) => {
      const channel = await accountOf(request);
      if (!channel) return refuse(reply, 401, 'The api key provided is invalid');
      const row = await linkRow(request.params.id);
      if (!row || row.channelId !== channel.id) return refuse(reply, 400, 'The id provided does not exist');
      return row.body;
    });

    scope.post<{ Params: { id: string }; Body: Record<string, unknown> }>(
      `${PREFIX}/v1/payments/:id/refund`,
      async (request, reply) => {
        const channel = await accountOf(request);
        if (!channel) return refuse(reply, 401, 'The api key provided is invalid');
        const header = request.headers['x-refund-idempotency'];
        const key = typeof header === 'string' && header ? header : null;
        const made = key ? await refundByKey(channel.id, key) : undefined;
        if (made) return made;
        const body = (request.body ?? {}) as Record<string, unknown>;
        const payment = await capturedPayment(channel.id, request.params.id);
        if (!payment) return refuse(reply, 400, 'The id provided does not exist');
        const [{ refunded }] = await db
          .select({
            refunded: sql<number>`coalesce(sum((${razorpayStandInRefunds.body}->>'amount')::bigint), 0)::int`,
          })
          .from(razorpayStandInRefunds)
          .where(
            and(
              eq(razorpayStandInRefunds.channelId, channel.id),
              eq(razorpayStandInRefunds.paymentId, payment.payment_id),
              ne(razorpayStandInRefunds.status, 'failed'),
            ),
          );
        const amount = body.amount === undefined ? payment.amount - refunded : body.amount;
        if (!Number.isInteger(amount) || (amount as number) < 100)
          return refuse(reply, 400, 'The amount must be atleast INR 1.00', 'amount');
        if ((amount as number) > payment.amount - refunded)
          return refuse(reply, 400, 'The refund amount provided is greater than amount captured', 'amount');
        const refund: RefundBody = {
          id: newId('rfnd'),
          entity: 'refund',
          amount: amount as number,
          currency: payment.currency,
          payment_id: payment.payment_id,
          notes: body.notes && typeof body.notes === 'object' ? (body.notes as Record<string, unknown>) : {},
          receipt: typeof body.receipt === 'string' ? body.receipt : null,
          acquirer_data: { arn: randomBytes(6).toString('hex') },
          created_at: seconds(now()),
          batch_id: null,
          status: 'processed',
          speed_processed: 'normal',
          speed_requested: typeof body.speed === 'string' ? body.speed : 'normal',
        };
        const [saved] = await db
          .insert(razorpayStandInRefunds)
          .values({
            id: refund.id,
            channelId: channel.id,
            paymentId: payment.payment_id,
            idempotencyKey: key,
            status: refund.status,
            body: refund,
          })
          .onConflictDoNothing()
          .returning({ id: razorpayStandInRefunds.id });
        // The same key raced in meanwhile: that refund is the answer.
        return saved ? refund : ((key && (await refundByKey(channel.id, key))) ?? refund);
      },
    );

    scope.get<{ Params: { id: string } }>(`${PREFIX}/v1/refunds/:id`, async (request, reply) => {
      const channel = await accountOf(request);
      if (!channel) return refuse(reply, 401, 'The api key provided is invalid');
      const [row] = await db
        .select()
        .from(razorpayStandInRefunds)
        .where(
          and(
            eq(razorpayStandInRefunds.id, request.params.id),
            eq(razorpayStandInRefunds.channelId, channel.id),
          ),
        );
      if (!row) return refuse(reply, 400, 'The id provided does not exist');
      return row.body;
    });

    // The payer's hosted page (short_url), and its Pay button.
    scope.get<{ Params: { id: string } }>(`${PREFIX}/i/:id`, async (request, reply) => {
      const row = await linkRow(request.params.id);
      if (!row) throw notFound('The payment link was not found.');
      return page(reply, row.body as LinkBody);
    });

    scope.post<{ Params: { id: string } }>(`${PREFIX}/i/:id/pay`, async (request, reply) => {
      const row = await linkRow(request.params.id);
      if (!row) throw notFound('The payment link was not found.');
      const link = row.body as LinkBody;
      if (link.status === 'created') {
        const payment = {
          payment_id: newId('pay'),
          amount: link.amount,
          created_at: seconds(now()),
          method: 'upi',
          status: 'captured',
        };
        const paid: LinkBody = { ...link, status: 'paid', amount_paid: link.amount, payments: [payment] };
        const [moved] = await db
          .update(razorpayStandInLinks)
          .set({ status: 'paid', body: paid })
          .where(and(eq(razorpayStandInLinks.id, link.id), eq(razorpayStandInLinks.status, 'created')))
          .returning({ channelId: razorpayStandInLinks.channelId });
        if (moved) await sendPaidWebhook(moved.channelId, paid, payment);
      }
      return reply.redirect(`${PREFIX}/i/${encodeURIComponent(link.id)}`, 303);
    });
  });

  async function refundByKey(channelId: number, key: string) {
    const [row] = await db
      .select({ body: razorpayStandInRefunds.body })
      .from(razorpayStandInRefunds)
      .where(
        and(eq(razorpayStandInRefunds.channelId, channelId), eq(razorpayStandInRefunds.idempotencyKey, key)),
      );
    return row?.body as RefundBody | undefined;
  }

  /** A captured payment of one of the channel's paid links, with the link's currency. */
  async function capturedPayment(channelId: number, paymentId: string) {
    const rows = await db
      .select({ body: razorpayStandInLinks.body })
      .from(razorpayStandInLinks)
      .where(
        and(
          eq(razorpayStandInLinks.channelId, channelId),
          eq(razorpayStandInLinks.status, 'paid'),
          sql`${razorpayStandInLinks.body}->'payments' @> ${JSON.stringify([{ payment_id: paymentId }])}::jsonb`,
        ),
      );
    const link = rows[0]?.body as LinkBody | undefined;
    const payment = link?.payments?.find((p) => p.payment_id === paymentId && p.status === 'captured');
    return payment && link ? { ...payment, currency: link.currency } : undefined;
  }

  /** payment_link.paid as Razorpay sends it, to the channel's notification address, signed. */
  async function sendPaidWebhook(
    channelId: number,
    link: LinkBody,
    payment: NonNullable<LinkBody['payments']>[number],
  ): Promise<void> {
    const channel = await findChannelById(db, channelId);
    if (!channel) return;
    const secret = openChannelSecrets(appKey, channel).webhook_secret ?? '';
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_PaydeskStandIn',
      event: 'payment_link.paid',
      contains: ['payment_link', 'order', 'payment'],
      payload: {
        payment_link: { entity: link },
        payment: {
          entity: {
            id: payment.payment_id,
            entity: 'payment',
            amount: payment.amount,
            currency: link.currency,
            status: 'captured',
            method: payment.method,
            description: link.description,
            created_at: payment.created_at,
          },
        },
      },
      created_at: payment.created_at,
    });
    const answer = await app.inject({
      method: 'POST',
      url: `/channels/${encodeURIComponent(channel.code)}/notify`,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': createHmac('sha256', secret).update(body).digest('hex'),
      },
      payload: body,
    });
    if (answer.statusCode >= 300)
      app.log.warn(
        { status: answer.statusCode, answer: answer.body, link: link.id },
        'the Razorpay stand-in could not deliver payment_link.paid',
      );
  }

  function page(reply: FastifyReply, link: LinkBody) {
    const nonce = randomBytes(18).toString('base64');
    const e = escapeHtml;
    const amount = new Intl.NumberFormat('en-IN', { style: 'currency', currency: link.currency }).format(
      link.amount / 100,
    );
    const state =
      link.status === 'paid'
        ? `<p class="done" role="status">Payment successful. You can close this page.</p>`
        : link.status === 'created'
          ? `<form method="post" action="${PREFIX}/i/${e(link.id)}/pay"><button type="submit">Pay ${e(amount)} by UPI</button></form>`
          : `<p class="done" role="status">This payment link is ${e(link.status)}.</p>`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Pay ${e(amount)} · Razorpay stand-in</title>
<style nonce="${nonce}">
body{font-family:system-ui,sans-serif;background:#f2f5fa;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 4px 24px #0001;padding:32px;width:min(420px,90vw)}
.band{background:#fff7e6;border:1px solid #ffd591;color:#874d00;border-radius:6px;padding:8px 12px;font-size:13px}
h1{font-size:18px;margin:16px 0 4px}.amount{font-size:32px;font-weight:600;margin:8px 0 24px}
button{width:100%;padding:12px;border:0;border-radius:6px;background:#0d4ffb;color:#fff;font-size:16px;cursor:pointer}
.done{color:#237804;font-weight:600}.muted{color:#666;font-size:13px}
</style></head><body><main>
<p class="band">Razorpay stand-in of the Paydesk demo: no real money moves.</p>
<h1>${e(link.description || 'Payment')}</h1>
<p class="muted">Reference ${e(link.reference_id)}</p>
<p class="amount">${e(amount)}</p>
${state}
</main></body></html>`;
    return reply
      .header('content-security-policy', payPageCsp(nonce))
      .type('text/html; charset=utf-8')
      .send(html);
  }
}

/**
 * A new payment link of the channel's stand-in account (the API's create, and the demo's seed); none when
 * the channel has one with this reference_id already.
 */
export async function insertStandInLink(
  db: DbOrTx,
  input: {
    channelId: number;
    origin: string;
    referenceId: string;
    amount: number;
    currency: string;
    description: string;
    expireBy: number;
    at: Date;
  },
): Promise<LinkBody | undefined> {
  const id = newId('plink');
  const link: LinkBody = {
    id,
    entity: 'payment_link',
    short_url: `${razorpayStandInUrl(input.origin)}/i/${id}`,
    status: 'created',
    reference_id: input.referenceId,
    amount: input.amount,
    amount_paid: 0,
    currency: input.currency,
    description: input.description,
    expire_by: input.expireBy,
    created_at: seconds(input.at),
    payments: null,
  };
  const [saved] = await db
    .insert(razorpayStandInLinks)
    .values({ id, channelId: input.channelId, referenceId: input.referenceId, status: 'created', body: link })
    .onConflictDoNothing()
    .returning({ id: razorpayStandInLinks.id });
  return saved ? link : undefined;
}

/** The stand-in's base address on a server reached at `origin` (a Razorpay channel's base_url). */
export const razorpayStandInUrl = (origin: string) => `${origin.replace(/\/$/, '')}${PREFIX}`;
