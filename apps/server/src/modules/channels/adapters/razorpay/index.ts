import Razorpay from 'razorpay';
import { z } from 'zod';
import type { ChannelRow } from '../../channels.repository.ts';
import type {
  ChannelAdapter,
  ChannelPorts,
  ChannelSecrets,
  FollowUp,
  OrderReport,
  ParsedNotification,
  ProviderFailure,
  ReceivedPayment,
} from '../adapter.ts';
import { isChannelFaultByDefault } from '../adapter.ts';
import { ourCollectionReport, ourPayoutReport } from '../outcomes.ts';

// Razorpay (DESIGN 13; INR, live and test): collections by Payment Links, payouts by RazorpayX's
// composite Payout API with its X-Payout-Idempotency header, refunds by the Refunds API
// (https://razorpay.com/docs/api/refunds/) with its X-Refund-Idempotency header, ended by the refund.processed
// and refund.failed webhooks or by asking, notifications verified with
// X-Razorpay-Signature (the official SDK's validateWebhookSignature), and status queries for orders whose
// notification never came. The calls are plain HTTPS to the documented endpoints
// (https://razorpay.com/docs/api/payments/payment-links/, https://razorpay.com/docs/api/x/payouts/): the
// SDK fixes its host to api.razorpay.com (our base address is configuration, so tests run against a local
// stand-in) and turns a timeout into a TypeError, where an adapter must tell "never reached" from
// "may have reached" (ProviderFailure).
//
// A paid link is money received (a ReceivedPayment, applied once by Razorpay's payment id): the same
// rules as a bank transfer, so a payment for an order we had timed out goes to review, never lost.

const QUEUE = {
  collect: 'razorpay.collect',
  payout: 'razorpay.payout',
  query: 'razorpay.query',
  refund: 'razorpay.refund',
} as const;
/** How often an order whose notification has not come is asked about. */
const QUERY_EVERY_MS = 5 * 60_000;
/**
 * A pending refund is asked about after 5 minutes, then twice as long each time up to 6 hours (a normal
 * refund may take Razorpay days to end: polling it every 5 minutes would ask some 2,000 times).
 */
const refundQueryDelayMs = (round: number) => Math.min(QUERY_EVERY_MS * 2 ** round, 6 * 3_600_000);

const SettingsSchema = z
  .object({
    /** https://api.razorpay.com unless told (the tests' stand-in). */
    base_url: z.url().default('https://api.razorpay.com'),
    key_id: z
      .string()
      .trim()
      .regex(/^rzp_(live|test)_[A-Za-z0-9]{6,}$/, 'The key_id is rzp_live_... or rzp_test_....'),
    /** The RazorpayX account payouts leave from (payout channels). */
    account_number: z
      .string()
      .trim()
      .regex(/^\d{8,20}$/, 'The account_number is the RazorpayX account number.')
      .optional(),
    payout_mode: z.enum(['IMPS', 'NEFT', 'RTGS']).default('IMPS'),
    timeout_ms: z.coerce.number().int().min(1000).max(60_000).default(10_000),
  })
  .strict();
type Settings = z.infer<typeof SettingsSchema>;
const settingsOf = (channel: ChannelRow) => SettingsSchema.parse(channel.settings);

type Answer =
  { ok: true; status: number; body: unknown } | { ok: false; failure: ProviderFailure; body?: unknown };

/** One call to Razorpay's API, with Basic auth; how it failed, if it did. */
async function call(
  channel: ChannelRow,
  secrets: ChannelSecrets,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const settings = settingsOf(channel);
  const auth = Buffer.from(`${settings.key_id}:${secrets.key_secret ?? ''}`).toString('base64');
  let response: Response;
  try {
    // The base address may have a path of its own (a stand-in's): the API's path goes after it.
    response = await fetch(`${settings.base_url.replace(/\/+$/, '')}${path}`, {
      method,
      headers: {
        authorization: `Basic ${auth}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(settings.timeout_ms),
    });
  } catch (error) {
    // No connection made (refused, unknown host): it never reached Razorpay. A timeout may have.
    const code = (error as { cause?: { code?: string } }).cause?.code ?? '';
    const never = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code);
    return {
      ok: false,
      failure: { stage: never ? 'connect' : 'unknown', code: code || (error as Error).name },
    };
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: kept as text for the log.
  }
  if (response.ok) return { ok: true, status: response.status, body: parsed };
  const code = (parsed as { error?: { code?: string } } | null)?.error?.code;
  // A 4xx is Razorpay refusing the request (it did nothing); a 5xx may have half-done it.
  return {
    ok: false,
    failure: {
      stage: response.status < 500 ? 'refused' : 'unknown',
      status: response.status,
      ...(code ? { code } : {}),
    },
    body: parsed,
  };
}

const descriptionOf = (answer: Answer) =>
  (answer as { body?: { error?: { description?: string } } }).body?.error?.description ??
  'Razorpay refused the request.';

/** The Payment Link entity, as much as we read of it (docs: Payment Link Entity). */
const PaymentLinkSchema = z.object({
  id: z.string().startsWith('plink_'),
  short_url: z.url(),
  status: z.enum(['created', 'partially_paid', 'paid', 'expired', 'cancelled']),
  reference_id: z.string().nullish(),
  amount: z.number().int(),
  currency: z.string(),
  payments: z
    .array(
      z.object({
        payment_id: z.string(),
        amount: z.number().int(),
        created_at: z.number().int(),
        status: z.string(),
      }),
    )
    .nullish(),
});
const PaymentLinkListSchema = z.object({ payment_links: z.array(PaymentLinkSchema) });

/** The Payout entity (docs: Payouts, Payout Entity). */
const PayoutSchema = z.object({
  id: z.string().startsWith('pout_'),
  status: z.enum([
    'queued',
    'pending',
    'rejected',
    'processing',
    'processed',
    'cancelled',
    'reversed',
    'failed',
  ]),
  reference_id: z.string().nullish(),
  utr: z.string().nullish(),
  status_details: z.object({ description: z.string().nullish() }).nullish(),
  failure_reason: z.string().nullish(),
});

/** The Refund entity (docs: Refunds, Refund Entity): pending until the bank ends it. */
const RefundSchema = z.object({
  id: z.string().startsWith('rfnd_'),
  payment_id: z.string(),
  amount: z.number().int(),
  receipt: z.string().nullish(),
  status: z.enum(['pending', 'processed', 'failed']),
});
type RazorpayRefund = z.infer<typeof RefundSchema>;
/** Razorpay's failed refund says no more (the entity has no reason). */
const REFUND_FAILED = 'Razorpay: the refund failed at the bank.';

const unix = (date: Date) => Math.floor(date.getTime() / 1000);
const job = (queue: string, tradeNo: string, startAfter?: Date): FollowUp => ({
  queue: queue as FollowUp['queue'],
  data: { trade_no: tradeNo },
  ...(startAfter ? { startAfter } : {}),
});

/** An answer of a shape Razorpay does not document: logged, and the order is left as it was. */
const unreadable = (ports: ChannelPorts, tradeNo: string, body: unknown, what: string) =>
  ports.warn(
    { trade_no: tradeNo, answer: body },
    `Razorpay answered ${what} we cannot read; the order is left as it was.`,
  );

/** A job whose step could not be done for now: pg-boss runs it again (every step is idempotent). */
class TryAgain extends Error {}

async function collect(tradeNo: string, ports: ChannelPorts, secrets: (c: ChannelRow) => ChannelSecrets) {
  const order = await ports.collections.findAny(tradeNo);
  if (!order || order.status !== 'to_be_paid' || order.channelRef) return;
  const channel = await ports.findChannel(order.channelId);
  if (!channel) return;
  // A retry after an answer that never came: the link may exist (reference_id is unique at Razorpay).
  const found = await call(
    channel,
    secrets(channel),
    'GET',
    `/v1/payment_links?reference_id=${encodeURIComponent(tradeNo)}`,
  );
  if (!found.ok) throw new TryAgain(`Razorpay did not answer about the payment link of ${tradeNo}.`);
  const list = PaymentLinkListSchema.safeParse(found.body);
  if (!list.success) {
    unreadable(ports, tradeNo, found.body, 'a list');
    return;
  }
  const existing = list.data.payment_links[0];
  if (existing) {
    await ports.collections.setProviderLink(tradeNo, existing.id, existing.short_url);
    return;
  }
  // A link must live at least 15 minutes (docs: expire_by); a shorter order simply closes first.
  const expireBy =
    unix(order.expiresAt) - unix(ports.now()) >= 16 * 60 ? { expire_by: unix(order.expiresAt) } : {};
  const answer = await call(channel, secrets(channel), 'POST', '/v1/payment_links', {
    amount: Number(order.amountMinor),
    currency: order.currency,
    accept_partial: false,
    reference_id: tradeNo,
    description: `Order ${order.outTradeNo}`,
    ...(order.payerName ? { customer: { name: order.payerName } } : {}),
    notify: { sms: false, email: false },
    reminder_enable: false,
    ...expireBy,
  });
  if (!answer.ok) {
    // Never reached Razorpay: another channel of the merchant may take the order (DESIGN 14).
    if (
      answer.failure.stage === 'connect' &&
      (await ports.collections.failOver(tradeNo, answer.failure)) !== 'stay'
    )
      return;
    if (answer.failure.stage === 'refused') {
      await unlessMoved(() => ports.collections.finish(tradeNo, 'failed'));
      ports.warn(
        { trade_no: tradeNo, answer: answer.body },
        `Razorpay refused the payment link: ${descriptionOf(answer)}`,
      );
      return;
    }
    throw new TryAgain(
      `Razorpay did not answer the payment link of ${tradeNo} (${answer.failure.code ?? answer.failure.status}).`,
    );
  }
  const link = PaymentLinkSchema.safeParse(answer.body);
  if (!link.success) {
    unreadable(ports, tradeNo, answer.body, 'a payment link');
    return;
  }
  await ports.collections.setProviderLink(tradeNo, link.data.id, link.data.short_url);
  await ports.send(job(QUEUE.query, tradeNo, new Date(ports.now().getTime() + QUERY_EVERY_MS)));
}

async function submit(tradeNo: string, ports: ChannelPorts, secrets: (c: ChannelRow) => ChannelSecrets) {
  const row = await ports.payouts.findAny(tradeNo);
  if (!row || row.status !== 'pending') return;
  const channel = await ports.findChannel(row.channelId);
  if (!channel) return;
  const settings = settingsOf(channel);
  // The composite Payout API: contact, fund account and payout in one call; the same key makes a retry
  // answer the first payout instead of paying twice (docs: Idempotency, 4 to 36 characters).
  const answer = await call(
    channel,
    secrets(channel),
    'POST',
    '/v1/payouts',
    {
      account_number: settings.account_number,
      amount: Number(row.amountMinor),
      currency: row.currency,
      mode: settings.payout_mode,
      purpose: 'payout',
      fund_account: {
        account_type: 'bank_account',
        bank_account: { name: row.payeeName, ifsc: row.ifsc, account_number: row.accountNo },
        contact: { name: row.payeeName, type: 'customer', reference_id: tradeNo },
      },
      queue_if_low_balance: true,
      reference_id: tradeNo,
      narration: 'Paydesk payout',
    },
    { 'x-payout-idempotency': tradeNo },
  );
  if (!answer.ok) {
    // Not moved to another channel even when no connection was made: this job may be a retry of one
    // whose answer never came (pg-boss retries with the same data), and that call may have reached
    // Razorpay. It is asked again with the same X-Payout-Idempotency (below), so it is never paid twice.
    if (answer.failure.stage === 'refused') {
      // Refused: it never became a payout at Razorpay; the hold goes back.
      await unlessMoved(async () => {
        await ports.payouts.transition(tradeNo, 'processing');
        await ports.payouts.transition(tradeNo, 'failed', `Razorpay: ${descriptionOf(answer)}`);
      });
      return;
    }
    throw new TryAgain(
      `Razorpay did not answer the payout ${tradeNo} (${answer.failure.code ?? answer.failure.status}).`,
    );
  }
  const payout = PayoutSchema.safeParse(answer.body);
  if (!payout.success) {
    unreadable(ports, tradeNo, answer.body, 'a payout');
    return;
  }
  await unlessMoved(() => ports.payouts.transition(tradeNo, 'processing', null, payout.data.id));
  await endPayout(tradeNo, payout.data, ports);
}

/** A payout's end as Razorpay reports it; one still on its way is asked about again later. */
async function endPayout(tradeNo: string, payout: z.infer<typeof PayoutSchema>, ports: ChannelPorts) {
  if (payout.status === 'processed') {
    await unlessMoved(() => ports.payouts.transition(tradeNo, 'success', null, payout.utr ?? payout.id));
    return;
  }
  if (['rejected', 'cancelled', 'reversed', 'failed'].includes(payout.status)) {
    const reason =
      payout.status_details?.description ?? payout.failure_reason ?? `Razorpay: ${payout.status}.`;
    await unlessMoved(() => ports.payouts.transition(tradeNo, 'failed', reason));
    return;
  }
  await ports.send(job(QUEUE.query, tradeNo, new Date(ports.now().getTime() + QUERY_EVERY_MS)));
}

/** An order whose notification has not come: ask Razorpay where it stands. */
async function query(tradeNo: string, ports: ChannelPorts, secrets: (c: ChannelRow) => ChannelSecrets) {
  if (tradeNo.startsWith('P')) {
    const row = await ports.payouts.findAny(tradeNo);
    if (!row || row.status !== 'processing' || !row.channelRef) return;
    const channel = await ports.findChannel(row.channelId);
    if (!channel) return;
    const answer = await call(
      channel,
      secrets(channel),
      'GET',
      `/v1/payouts/${encodeURIComponent(row.channelRef)}`,
    );
    if (!answer.ok) throw new TryAgain(`Razorpay did not answer about the payout ${tradeNo}.`);
    const payout = PayoutSchema.safeParse(answer.body);
    if (!payout.success) {
      unreadable(ports, tradeNo, answer.body, 'a payout');
      return;
    }
    await endPayout(tradeNo, payout.data, ports);
    return;
  }
  const order = await ports.collections.findAny(tradeNo);
  if (!order || order.status !== 'to_be_paid' || !order.channelRef) return;
  const channel = await ports.findChannel(order.channelId);
  if (!channel) return;
  const answer = await call(
    channel,
    secrets(channel),
    'GET',
    `/v1/payment_links/${encodeURIComponent(order.channelRef)}`,
  );
  if (!answer.ok) throw new TryAgain(`Razorpay did not answer about the payment link of ${tradeNo}.`);
  const link = PaymentLinkSchema.safeParse(answer.body);
  if (!link.success) {
    unreadable(ports, tradeNo, answer.body, 'a payment link');
    return;
  }
  const captured = (link.data.payments ?? []).filter((p) => p.status === 'captured');
  for (const payment of captured) await ports.receive(channel, paymentOf(tradeNo, order.currency, payment));
  // Still unpaid and not expired: ask again later (the expiry sweep closes it in time).
  if (captured.length === 0 && order.expiresAt.getTime() > ports.now().getTime())
    await ports.send(job(QUEUE.query, tradeNo, new Date(ports.now().getTime() + QUERY_EVERY_MS)));
}

/**
 * A refund (DESIGN 14), one job per step, each idempotent. Without `refund_id` the refund is created at
 * Razorpay: POST /v1/payments/{pay_id}/refund with X-Refund-Idempotency set to our refund number, so a
 * second run (an answer lost, a job run twice) answers the refund the first made instead of refunding
 * twice. A refund Razorpay answers `pending` is asked about later by its id (GET /v1/refunds/{id}), the id
 * riding in that job's data; our refund keeps Razorpay's id (channel_ref) once it ends.
 */
async function refund(
  refundNo: string,
  refundId: string | undefined,
  round: number,
  ports: ChannelPorts,
  secrets: (c: ChannelRow) => ChannelSecrets,
) {
  const row = await ports.refunds.findAny(refundNo);
  if (!row || row.status !== 'processing') return;
  const channel = await ports.findChannel(row.channelId);
  if (!channel) return;
  if (refundId) {
    const answer = await call(
      channel,
      secrets(channel),
      'GET',
      `/v1/refunds/${encodeURIComponent(refundId)}`,
    );
    if (!answer.ok) throw new TryAgain(`Razorpay did not answer about the refund ${refundNo}.`);
    const found = RefundSchema.safeParse(answer.body);
    if (!found.success) {
      unreadable(ports, refundNo, answer.body, 'a refund');
      return;
    }
    await endRefund(refundNo, found.data, round + 1, ports);
    return;
  }
  const paymentId = await paymentIdOf(channel, row.collectionRef, secrets);
  if (!paymentId) {
    await unlessMoved(() =>
      ports.refunds.finish(refundNo, 'failed', 'Razorpay has no captured payment for this order.'),
    );
    return;
  }
  const answer = await call(
    channel,
    secrets(channel),
    'POST',
    `/v1/payments/${encodeURIComponent(paymentId)}/refund`,
    {
      amount: Number(row.amountMinor),
      speed: 'normal',
      receipt: refundNo,
      notes: { refund_no: refundNo, trade_no: row.tradeNo },
    },
    { 'x-refund-idempotency': refundNo },
  );
  if (!answer.ok) {
    // Refused (a 4xx): Razorpay made no refund; the hold goes back with its description.
    if (answer.failure.stage === 'refused') {
      await unlessMoved(() => ports.refunds.finish(refundNo, 'failed', `Razorpay: ${descriptionOf(answer)}`));
      return;
    }
    throw new TryAgain(
      `Razorpay did not answer the refund ${refundNo} (${answer.failure.code ?? answer.failure.status}).`,
    );
  }
  const made = RefundSchema.safeParse(answer.body);
  if (!made.success) {
    unreadable(ports, refundNo, answer.body, 'a refund');
    return;
  }
  await endRefund(refundNo, made.data, 0, ports);
}

/**
 * A refund's end as Razorpay reports it; a pending one is asked about again later by its id (`round`: the
 * queries asked so far, for the back-off).
 */
async function endRefund(refundNo: string, found: RazorpayRefund, round: number, ports: ChannelPorts) {
  if (found.status === 'processed') {
    await unlessMoved(() => ports.refunds.finish(refundNo, 'succeeded', null, found.id));
    return;
  }
  if (found.status === 'failed') {
    await unlessMoved(() => ports.refunds.finish(refundNo, 'failed', REFUND_FAILED, found.id));
    return;
  }
  await ports.send({
    queue: QUEUE.refund,
    data: { refund_no: refundNo, refund_id: found.id, round: String(round) },
    startAfter: new Date(ports.now().getTime() + refundQueryDelayMs(round)),
  });
}

/**
 * The Razorpay payment a refund goes back through: a paid order keeps it (pay_..., the payment that paid
 * it); an order that only has its link's id (plink_...) is looked up by its link's captured payment.
 */
async function paymentIdOf(
  channel: ChannelRow,
  collectionRef: string | null,
  secrets: (c: ChannelRow) => ChannelSecrets,
): Promise<string | undefined> {
  if (!collectionRef) return undefined;
  if (!collectionRef.startsWith('plink_')) return collectionRef;
  const answer = await call(
    channel,
    secrets(channel),
    'GET',
    `/v1/payment_links/${encodeURIComponent(collectionRef)}`,
  );
  if (!answer.ok) throw new TryAgain(`Razorpay did not answer about the payment link ${collectionRef}.`);
  const link = PaymentLinkSchema.safeParse(answer.body);
  if (!link.success) throw new TryAgain(`Razorpay answered the payment link ${collectionRef} unreadably.`);
  return (link.data.payments ?? []).find((p) => p.status === 'captured')?.payment_id;
}

const paymentOf = (
  tradeNo: string,
  currency: string,
  payment: { payment_id?: string; id?: string; amount: number; created_at: number },
): ReceivedPayment => ({
  txnId: payment.payment_id ?? payment.id ?? '',
  reference: tradeNo,
  amountMinor: BigInt(payment.amount),
  currency,
  paidAt: new Date(payment.created_at * 1000),
});

async function unlessMoved(step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (error) {
    if ((error as { status?: number }).status === 409) return;
    throw error;
  }
}

/** Webhook events we act on (docs: Webhooks, Payment Links and Payouts events). */
const EventSchema = z.object({
  event: z.string(),
  payload: z.object({
    payment_link: z
      .object({
        entity: z.object({ id: z.string(), reference_id: z.string().nullish(), currency: z.string() }),
      })
      .optional(),
    payment: z
      .object({
        entity: z.object({
          id: z.string(),
          amount: z.number().int(),
          created_at: z.number().int(),
          status: z.string(),
        }),
      })
      .optional(),
    payout: z.object({ entity: PayoutSchema }).optional(),
    refund: z
      .object({ entity: z.object({ id: z.string(), receipt: z.string().nullish(), status: z.string() }) })
      .optional(),
  }),
});

function parse(
  channel: ChannelRow,
  rawBody: string,
  signature: string | undefined,
  secret: string,
): ParsedNotification {
  const valid = (() => {
    try {
      return !!signature && !!secret && Razorpay.validateWebhookSignature(rawBody, signature, secret);
    } catch {
      // The SDK throws on a missing argument: not verified.
      return false;
    }
  })();
  if (!valid) return { verified: false, reason: 'The X-Razorpay-Signature does not match the body.' };
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { verified: true, reports: [], invalid: 'The body is not JSON.' };
  }
  const event = EventSchema.safeParse(json);
  if (!event.success)
    return { verified: true, reports: [], invalid: 'The event is not one Razorpay documents.' };
  const { payload } = event.data;
  if (event.data.event === 'payment_link.paid' && payload.payment_link && payload.payment) {
    const tradeNo = payload.payment_link.entity.reference_id ?? '';
    return {
      verified: true,
      reports: [],
      payments: [paymentOf(tradeNo, channel.currency, payload.payment.entity)],
    };
  }
  const payout = payload.payout?.entity;
  if (payout?.reference_id && event.data.event.startsWith('payout.')) {
    const outcome: OrderReport['outcome'] | null =
      payout.status === 'processed'
        ? 'succeeded'
        : ['rejected', 'cancelled', 'reversed', 'failed'].includes(payout.status)
          ? 'failed'
          : null;
    if (outcome)
      return {
        verified: true,
        reports: [
          {
            tradeNo: payout.reference_id,
            providerRef: payout.id,
            outcome,
            reason:
              outcome === 'failed'
                ? (payout.status_details?.description ?? `Razorpay: ${payout.status}.`)
                : null,
          },
        ],
      };
  }
  // A refund's end (docs: Refunds webhooks): its receipt is our refund number.
  const refund = payload.refund?.entity;
  if (refund?.receipt && (event.data.event === 'refund.processed' || event.data.event === 'refund.failed')) {
    const processed = event.data.event === 'refund.processed';
    return {
      verified: true,
      reports: [
        {
          tradeNo: refund.receipt,
          providerRef: refund.id,
          outcome: processed ? 'succeeded' : 'failed',
          reason: processed ? null : REFUND_FAILED,
        },
      ],
    };
  }
  // Other events (payment_link.expired, payout.queued, refund.created, ...): nothing of ours changes.
  return { verified: true, reports: [] };
}

export const razorpayAdapter: ChannelAdapter = {
  provider: 'razorpay',
  capabilities: {
    kinds: ['collection', 'payout', 'refund'],
    modes: ['live', 'test'],
    countries: ['IN'],
    currencies: ['INR'],
  },
  settingsSchema: () => SettingsSchema as unknown as z.ZodType<Record<string, unknown>>,
  secrets: [{ name: 'key_secret' }, { name: 'webhook_secret', generated: true }],
  notifies: true,
  acceptsOrders: () => true,
  settles: () => true,
  collectionFollowsUp: () => true,
  // Our page first: it sends the payer on to the link once the job has made it.
  createCollection: (_channel, order) => ({
    payUrl: `/pay/${encodeURIComponent(order.tradeNo)}`,
    followUp: job(QUEUE.collect, order.tradeNo),
  }),
  // Razorpay is asked by the query job, which reports through the ports; between runs our order is what we know.
  queryCollection: (_channel, tradeNo, ports) => ourCollectionReport(tradeNo, ports),
  submitPayout: (_channel, order) => ({ followUp: job(QUEUE.payout, order.tradeNo) }),
  queryPayout: (_channel, tradeNo, ports) => ourPayoutReport(tradeNo, ports),
  refundsByOperator: false,
  // Refunds through Razorpay's Refunds API, by the refund job (see refund() above).
  submitRefund: (_channel, order) => ({
    supported: true,
    followUp: { queue: QUEUE.refund, data: { refund_no: order.refundNo } },
  }),
  // An order whose jobs' retries ran out (Razorpay down longer than they last): its step again. A
  // refund is sent again with the same X-Refund-Idempotency (Razorpay answers the refund it made, which
  // ends it or is asked about by its id); a pending payout again with the same X-Payout-Idempotency; a
  // processing one is asked about by its id. A processing payout without Razorpay's id has none to ask.
  resumeFollowUp: (order) => {
    if (order.kind === 'refund') return { queue: QUEUE.refund, data: { refund_no: order.number } };
    if (order.status === 'pending') return job(QUEUE.payout, order.number);
    return order.channelRef ? job(QUEUE.query, order.number) : undefined;
  },
  parseNotification: (channel, { headers, rawBody }, secrets) =>
    parse(channel, rawBody, headers['x-razorpay-signature'], secrets.webhook_secret ?? ''),
  // Only a call that never connected is certainly not at Razorpay.
  isSafeToRetryElsewhere: (failure) => failure.stage === 'connect',
  // A 4xx is Razorpay refusing the order (its validation, an unknown account); a 429 its rate limit.
  isChannelFault: isChannelFaultByDefault,
  queues: [QUEUE.collect, QUEUE.payout, QUEUE.query, QUEUE.refund],
  async runJob(queue, data, ports) {
    const tradeNo = typeof data.trade_no === 'string' ? data.trade_no : '';
    const secrets = (channel: ChannelRow) => ports.secretsOf(channel);
    if (queue === QUEUE.refund) {
      const refundId = typeof data.refund_id === 'string' ? data.refund_id : undefined;
      const round = Math.min(Number(data.round) || 0, 32);
      if (typeof data.refund_no === 'string') await refund(data.refund_no, refundId, round, ports, secrets);
    } else if (queue === QUEUE.collect) await collect(tradeNo, ports, secrets);
    else if (queue === QUEUE.payout) await submit(tradeNo, ports, secrets);
    else await query(tradeNo, ports, secrets);
  },
};

export type { Settings as RazorpaySettings };
