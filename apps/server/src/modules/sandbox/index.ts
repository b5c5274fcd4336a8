import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ERROR_CODES, fromMinor, type Currency } from '@paydesk/shared';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, notFound, ValidationError } from '../../lib/errors.ts';
import { newSandboxReference, providerServesMode } from '../channels/index.ts';
import type { CollectionsService } from '../collections/index.ts';
import type { PayoutsService } from '../payouts/index.ts';
import {
  payPageCsp,
  payPagePath,
  pickLanguage,
  renderPayPage,
  type PayPageCurrency,
  type PayPageStatus,
} from './pay-page.ts';
import { registerRazorpayStandIn } from './razorpay-stand-in.ts';

// The sandbox channel's pages and operator (DESIGN section 6): its adapter
// (modules/channels/adapters/sandbox) says what its orders need and runs its jobs (auto mode, payouts);
// this module is its hosted test checkout page, where a payer pays or fails a collection, and the
// operator's sandbox:complete, which finishes any sandbox order at will.
// It marks any order paid on request, so it is on only in development, tests and the demo (config
// sandboxEnabled): a production server has no /sandbox routes, and its jobs and operators finish nothing.

type Deps = {
  db: Db;
  collections: CollectionsService;
  payouts: PayoutsService;
  now: () => Date;
  /** config.sandboxEnabled */
  isEnabled: boolean;
  /** config.appKey: the Razorpay stand-in opens its channels' secrets. */
  appKey: Buffer;
};

/** What a production server without --demo answers an operator who opens or drives the sandbox. */
export const sandboxDisabled = () =>
  conflict(
    'The sandbox channel is off on this production server: it marks orders paid on request. ' +
      'It runs in development and in the demo (npm start, or main.ts --demo).',
    ERROR_CODES.sandboxDisabled,
  );

const ResultBody = z.object({ result: z.enum(['paid', 'failed']) });

export type SandboxService = ReturnType<typeof createSandboxService>;

export function createSandboxService({ collections, payouts, isEnabled }: Deps) {
  /** Opening a sandbox channel: refused (409 sandbox_disabled) while the sandbox is off. */
  function assertEnabled() {
    if (!isEnabled) throw sandboxDisabled();
  }

  /** ops sandbox:complete: finishes one collection (paid, failed) or payout (success, failed, refunded) at will. */
  async function complete(tradeNo: string, result: 'paid' | 'failed' | 'success' | 'refunded') {
    assertEnabled();
    if (tradeNo.startsWith('P')) {
      if (result === 'paid')
        throw ValidationError.field('result', 'A payout ends in success, failed or refunded.');
      const row = await payouts.findAny(tradeNo);
      if (row?.status === 'pending') {
        await payouts.transition(tradeNo, 'processing', null, newSandboxReference());
      }
      const done = await payouts.transition(
        tradeNo,
        result === 'refunded' ? 'refund_received' : result,
        result === 'success' ? null : `Sandbox: ${result} by an operator.`,
      );
      return { tradeNo: done.tradeNo, status: done.status, merchantId: done.merchantId };
    }
    if (result !== 'paid' && result !== 'failed') {
      throw ValidationError.field('result', 'A collection ends paid or failed.');
    }
    const row = await collections.finish(tradeNo, result, newSandboxReference());
    return { tradeNo: row.tradeNo, status: row.status, merchantId: row.merchantId };
  }

  return { assertEnabled, complete, isEnabled };
}

export function registerSandboxModule(
  app: FastifyInstance,
  { db, collections, now, isEnabled, appKey }: Deps,
): void {
  // Off: no route at all, so /sandbox/... answers the plain JSON 404 of any unknown API path.
  if (!isEnabled) return;
  registerRazorpayStandIn(app, { db, appKey, now });
  app.register(async (scope) => {
    // The page's forms post application/x-www-form-urlencoded.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    /** The order the page shows: a test-mode collection only (the sandbox serves test mode only). */
    async function sandboxOrder(tradeNo: string) {
      const order = /^C\d{8,40}$/.test(tradeNo) ? await collections.findAny(tradeNo) : undefined;
      if (!order) return undefined;
      const merchant = await collections.merchantOf(order.merchantId);
      return merchant && providerServesMode('sandbox', merchant.mode as Mode)
        ? { order, merchant }
        : undefined;
    }

    async function page(tradeNo: string, lang: ReturnType<typeof pickLanguage>) {
      const found = await sandboxOrder(tradeNo);
      if (!found) return undefined;
      const { order, merchant } = found;
      return renderPayPage({
        lang,
        tradeNo: order.tradeNo,
        outTradeNo: order.outTradeNo,
        merchantName: merchant.name,
        merchantNo: merchant.no,
        amount: fromMinor(order.amountMinor, order.currency as Currency),
        currency: order.currency as PayPageCurrency,
        status: order.status as PayPageStatus,
        expiresAt: order.expiresAt.toISOString(),
        now: now().toISOString(),
        returnUrl: order.returnUrl,
      });
    }

    scope.get<{ Params: { trade_no: string }; Querystring: { lang?: string } }>(
      '/sandbox/pay/:trade_no',
      async (request, reply) => {
        const lang = pickLanguage(request.headers['accept-language'], request.query.lang);
        const rendered = await page(request.params.trade_no, lang);
        if (!rendered) throw notFound('The order was not found.');
        return reply
          .header('content-security-policy', payPageCsp(rendered.nonce))
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(rendered.html);
      },
    );

    scope.post<{ Params: { trade_no: string }; Querystring: { lang?: string } }>(
      '/sandbox/pay/:trade_no',
      async (request, reply) => {
        const parsed = ResultBody.safeParse(request.body);
        if (!parsed.success) throw ValidationError.field('result', 'The result must be paid or failed.');
        if (!(await sandboxOrder(request.params.trade_no)))
          return reply.status(404).type('text/plain; charset=utf-8').send('Order not found.');
        try {
          await collections.finish(request.params.trade_no, parsed.data.result, newSandboxReference());
        } catch (error) {
          // Already finished or expired: the page shows where the order stands.
          if (!(error instanceof AppError) || (error.status !== 409 && error.status !== 404)) throw error;
          if (error.status === 404)
            return reply.status(404).type('text/plain; charset=utf-8').send('Order not found.');
        }
        const lang = request.query.lang ? `?lang=${encodeURIComponent(request.query.lang)}` : '';
        return reply.redirect(`${payPagePath(request.params.trade_no)}${lang}`, 303);
      },
    );
  });
}

export { insertStandInLink, razorpayStandInUrl } from './razorpay-stand-in.ts';

// The same page serves a real channel's bank transfer (modules/checkout): one design, three languages.
export {
  payPageCsp,
  pickLanguage,
  renderPayPage,
  type PayPageCurrency,
  type PayPageStatus,
} from './pay-page.ts';
