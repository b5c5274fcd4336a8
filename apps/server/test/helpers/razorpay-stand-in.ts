import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LinkBody, RefundBody } from '../../src/modules/sandbox/razorpay-stand-in.ts';

// A local stand-in for Razorpay's API (DESIGN 13: its base address is configuration), answering the
// documented requests with the documented answers, from Razorpay's public API documentation:
// - Payment Links: https://razorpay.com/docs/api/payments/payment-links/ (create-standard, fetch with id,
//   fetch all with reference_id); the Payment Link entity and its statuses.
// - RazorpayX Payouts, composite API with a bank account:
//   https://razorpay.com/docs/api/x/payout-composite/create/bank-account/ ; the Payout entity and statuses.
// - Idempotency: https://razorpay.com/docs/api/x/payout-idempotency/ (X-Payout-Idempotency, 4 to 36
//   characters; the same key answers the first payout; another body with it is a BAD_REQUEST_ERROR).
// - Refunds: https://razorpay.com/docs/api/refunds/ (create a normal refund, POST
//   /v1/payments/:id/refund with amount, speed, receipt, notes; fetch by id, GET /v1/refunds/:id); the
//   Refund entity and its statuses pending, processed, failed; https://razorpay.com/docs/api/refunds/
//   idempotency/ (X-Refund-Idempotency: the same key answers the first refund).
// - Errors: https://razorpay.com/docs/errors/ ({"error": {"code", "description", "source", "step",
//   "reason", "field"}}), BAD_REQUEST_ERROR 400, SERVER_ERROR 500; authentication failure 401.
// - Webhooks: https://razorpay.com/docs/webhooks/validate-test/ (X-Razorpay-Signature: hex HMAC-SHA256
//   of the raw body with the webhook secret) and the payment_link.paid and payout.* payloads.
// Faults on demand: the next call answers 500, hangs (a timeout), or answers a body of another shape.

type Link = LinkBody;
type Payout = {
  id: string;
  entity: 'payout';
  fund_account_id: string;
  amount: number;
  currency: string;
  status: 'queued' | 'pending' | 'processing' | 'processed' | 'reversed' | 'rejected' | 'failed';
  purpose: string;
  utr: string | null;
  mode: string;
  reference_id: string;
  narration: string;
  status_details: { description: string | null; source: string | null; reason: string | null } | null;
  created_at: number;
};

/** A Refund entity as the in-app stand-in answers it: one shape for both. */
type Refund = RefundBody;

export type Fault = 'server_error' | 'hang' | 'odd_shape' | 'bad_request' | 'lose_answer';

export type RazorpayStandIn = {
  url: string;
  keyId: string;
  keySecret: string;
  links: Map<string, Link>;
  payouts: Map<string, Payout>;
  refunds: Map<string, Refund>;
  /** Every request, as [method, path, idempotency key]. */
  requests: { method: string; path: string; idempotency?: string; body: unknown }[];
  /** The next call (of this path prefix, or any) gets this fault. */
  failNext(fault: Fault, pathPrefix?: string, method?: 'GET' | 'POST'): void;
  /** The payer pays the link: it becomes paid with one captured payment. */
  pay(linkId: string): { payment_id: string; amount: number; created_at: number };
  /** The next refund made starts in this status (else processed at once), as a bank may answer. */
  nextRefund(status: 'pending' | 'failed'): void;
  /** A pending refund's end at the bank. */
  settleRefund(refundId: string, status: 'processed' | 'failed'): Refund;
  /** A payout's end at the bank. */
  settle(payoutId: string, status: 'processed' | 'reversed' | 'failed', description?: string): Payout;
  /** A webhook as Razorpay sends it: the body and its X-Razorpay-Signature. */
  webhook(
    secret: string,
    event: string,
    payload: Record<string, unknown>,
  ): { body: string; signature: string };
  close(): Promise<void>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(7).toString('base64url').replace(/[-_]/g, 'x')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

const error = (res: ServerResponse, status: number, code: string, description: string, field?: string) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      error: {
        code,
        description,
        source: 'business',
        step: 'NA',
        reason: 'input_validation_failed',
        metadata: {},
        ...(field ? { field } : {}),
      },
    }),
  );
};
const ok = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function startRazorpayStandIn(): Promise<RazorpayStandIn> {
  const keyId = `rzp_test_${randomBytes(7).toString('hex')}`;
  const keySecret = randomBytes(18).toString('base64url');
  const links = new Map<string, Link>();
  const payouts = new Map<string, Payout>();
  const byKey = new Map<string, { payoutId: string; body: string }>();
  const refunds = new Map<string, Refund>();
  const byRefundKey = new Map<string, { refundId: string; body: string }>();
  const nextRefunds: Refund['status'][] = [];
  const requests: RazorpayStandIn['requests'] = [];
  const faults: { fault: Fault; prefix: string; method?: string }[] = [];
  const hanging: ServerResponse[] = [];

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body = req.method === 'POST' ? await bodyOf(req) : {};
    const idempotency = (req.headers['x-payout-idempotency'] ?? req.headers['x-refund-idempotency']) as
      string | undefined;
    requests.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      ...(idempotency ? { idempotency } : {}),
      body,
    });
    const auth = Buffer.from(`${keyId}:${keySecret}`).toString('base64');
    if (req.headers.authorization !== `Basic ${auth}`)
      return error(res, 401, 'BAD_REQUEST_ERROR', 'The api key provided is invalid');
    const fault = faults.findIndex(
      (f) =>
        url.pathname.startsWith(f.prefix) &&
        f.fault !== 'lose_answer' &&
        (!f.method || f.method === req.method),
    );
    // lose_answer: the call is done, then its answer is lost (a 500 after the fact).
    const loseAt = faults.findIndex((f) => url.pathname.startsWith(f.prefix) && f.fault === 'lose_answer');
    const lose = loseAt >= 0 && req.method === 'POST' ? faults.splice(loseAt, 1).length > 0 : false;
    const answer = (body: unknown) =>
      lose ? error(res, 500, 'SERVER_ERROR', 'The server encountered an error.') : ok(res, body);
    if (fault >= 0) {
      const [{ fault: kind }] = faults.splice(fault, 1);
      if (kind === 'bad_request')
        return error(res, 400, 'BAD_REQUEST_ERROR', 'The request was refused by the stand-in.');
      if (kind === 'hang') return void hanging.push(res);
      if (kind === 'server_error')
        return error(
          res,
          500,
          'SERVER_ERROR',
          'The server encountered an error. The incident has been reported to admins.',
        );
      if (kind === 'odd_shape') return ok(res, { id: 12345, status: 'maybe' });
    }

    if (req.method === 'POST' && url.pathname === '/v1/payment_links') {
      if (!Number.isInteger(body.amount) || (body.amount as number) < 100)
        return error(res, 400, 'BAD_REQUEST_ERROR', 'The amount must be atleast INR 1.00', 'amount');
      const reference = String(body.reference_id ?? '');
      if ([...links.values()].some((l) => l.reference_id === reference))
        return error(
          res,
          400,
          'BAD_REQUEST_ERROR',
          `Payment Link with reference id ${reference} already exists`,
          'reference_id',
        );
      const link: Link = {
        id: id('plink'),
        entity: 'payment_link',
        short_url: `https://rzp.io/i/${randomBytes(5).toString('hex')}`,
        status: 'created',
        reference_id: reference,
        amount: body.amount as number,
        amount_paid: 0,
        currency: String(body.currency ?? 'INR'),
        description: String(body.description ?? ''),
        expire_by: (body.expire_by as number) ?? 0,
        created_at: nowSeconds(),
        payments: null,
      };
      links.set(link.id, link);
      return answer(link);
    }
    if (req.method === 'GET' && url.pathname === '/v1/payment_links') {
      const reference = url.searchParams.get('reference_id');
      return ok(res, {
        payment_links: [...links.values()].filter((l) => !reference || l.reference_id === reference),
      });
    }
    const linkMatch = /^\/v1\/payment_links\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && linkMatch) {
      const link = links.get(linkMatch[1]);
      return link ? ok(res, link) : error(res, 400, 'BAD_REQUEST_ERROR', 'The id provided does not exist');
    }
    if (req.method === 'POST' && url.pathname === '/v1/payouts') {
      if (!idempotency || !/^[A-Za-z0-9 _-]{4,36}$/.test(idempotency))
        return error(res, 400, 'BAD_REQUEST_ERROR', 'X-Payout-Idempotency header is missing or invalid');
      const seen = byKey.get(idempotency);
      if (seen) {
        if (seen.body !== JSON.stringify(body))
          return error(
            res,
            400,
            'BAD_REQUEST_ERROR',
            'Different request body sent for the same idempotency header',
          );
        return ok(res, payouts.get(seen.payoutId));
      }
      const account = (body.fund_account as { bank_account?: { ifsc?: string } } | undefined)?.bank_account;
      if (!account?.ifsc || !/^[A-Z]{4}0[A-Z0-9]{6}$/.test(account.ifsc))
        return error(res, 400, 'BAD_REQUEST_ERROR', 'Invalid IFSC Code in Bank Account', 'ifsc');
      const payout: Payout = {
        id: id('pout'),
        entity: 'payout',
        fund_account_id: id('fa'),
        amount: body.amount as number,
        currency: String(body.currency),
        status: 'processing',
        purpose: String(body.purpose),
        utr: null,
        mode: String(body.mode),
        reference_id: String(body.reference_id),
        narration: String(body.narration ?? ''),
        status_details: null,
        created_at: nowSeconds(),
      };
      payouts.set(payout.id, payout);
      byKey.set(idempotency, { payoutId: payout.id, body: JSON.stringify(body) });
      return answer(payout);
    }
    const refundOf = /^\/v1\/payments\/([^/]+)\/refund$/.exec(url.pathname);
    if (req.method === 'POST' && refundOf) {
      const seen = idempotency ? byRefundKey.get(idempotency) : undefined;
      if (seen) {
        if (seen.body !== JSON.stringify(body))
          return error(
            res,
            400,
            'BAD_REQUEST_ERROR',
            'Different request body sent for the same idempotency header',
          );
        return answer(refunds.get(seen.refundId));
      }
      const payment = [...links.values()]
        .flatMap((l) => (l.payments ?? []).map((p) => ({ ...p, currency: l.currency })))
        .find((p) => p.payment_id === refundOf[1]);
      if (!payment) return error(res, 400, 'BAD_REQUEST_ERROR', 'The id provided does not exist');
      if (payment.status !== 'captured')
        return error(res, 400, 'BAD_REQUEST_ERROR', 'The payment has not been captured');
      const refunded = [...refunds.values()]
        .filter((r) => r.payment_id === payment.payment_id && r.status !== 'failed')
        .reduce((sum, r) => sum + r.amount, 0);
      const amount = body.amount === undefined ? payment.amount - refunded : body.amount;
      if (!Number.isInteger(amount) || (amount as number) < 100)
        return error(res, 400, 'BAD_REQUEST_ERROR', 'The amount must be atleast INR 1.00', 'amount');
      if ((amount as number) > payment.amount - refunded)
        return error(
          res,
          400,
          'BAD_REQUEST_ERROR',
          'The refund amount provided is greater than amount captured',
          'amount',
        );
      const made: Refund = {
        id: id('rfnd'),
        entity: 'refund',
        amount: amount as number,
        currency: payment.currency,
        payment_id: payment.payment_id,
        notes: (body.notes as Record<string, string> | undefined) ?? {},
        receipt: body.receipt === undefined ? null : String(body.receipt),
        acquirer_data: { arn: null },
        created_at: nowSeconds(),
        batch_id: null,
        status: nextRefunds.shift() ?? 'processed',
        speed_processed: 'normal',
        speed_requested: String(body.speed ?? 'normal'),
      };
      refunds.set(made.id, made);
      if (idempotency) byRefundKey.set(idempotency, { refundId: made.id, body: JSON.stringify(body) });
      return answer(made);
    }
    const refundMatch = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && refundMatch) {
      const found = refunds.get(refundMatch[1]);
      return found ? ok(res, found) : error(res, 400, 'BAD_REQUEST_ERROR', 'The id provided does not exist');
    }
    const payoutMatch = /^\/v1\/payouts\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && payoutMatch) {
      const payout = payouts.get(payoutMatch[1]);
      return payout
        ? ok(res, payout)
        : error(res, 400, 'BAD_REQUEST_ERROR', 'The id provided does not exist');
    }
    error(res, 400, 'BAD_REQUEST_ERROR', 'The requested URL was not found on the server.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    keyId,
    keySecret,
    links,
    payouts,
    refunds,
    requests,
    failNext: (fault, prefix = '/', method) =>
      void faults.push({ fault, prefix, ...(method ? { method } : {}) }),
    pay(linkId) {
      const link = links.get(linkId)!;
      const payment = {
        payment_id: id('pay'),
        amount: link.amount,
        created_at: nowSeconds(),
        method: 'upi',
        status: 'captured',
      };
      link.status = 'paid';
      link.amount_paid = link.amount;
      link.payments = [payment];
      return payment;
    },
    nextRefund: (status) => void nextRefunds.push(status),
    settleRefund(refundId, status) {
      const found = refunds.get(refundId)!;
      found.status = status;
      if (status === 'processed') found.acquirer_data.arn = randomBytes(6).toString('hex');
      return found;
    },
    settle(payoutId, status, description) {
      const payout = payouts.get(payoutId)!;
      payout.status = status;
      payout.utr = status === 'processed' ? `UTR${randomBytes(5).toString('hex').toUpperCase()}` : null;
      payout.status_details = description
        ? { description, source: 'beneficiary_bank', reason: 'beneficiary_bank_rejected' }
        : null;
      return payout;
    },
    webhook(secret, event, payload) {
      const body = JSON.stringify({
        entity: 'event',
        account_id: 'acc_StandIn001',
        event,
        contains: Object.keys(payload),
        payload,
        created_at: nowSeconds(),
      });
      return { body, signature: createHmac('sha256', secret).update(body).digest('hex') };
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
