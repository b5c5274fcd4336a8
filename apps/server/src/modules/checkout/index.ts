import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { type Currency, fromMinor } from '@paydesk/shared';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { adapterFor, findChannelById } from '../channels/index.ts';
import type { CollectionsService } from '../collections/index.ts';
import {
  payPageCsp,
  pickLanguage,
  renderPayPage,
  type PayPageCurrency,
  type PayPageStatus,
} from '../sandbox/index.ts';

// The pay page of a channel the payer pays by their own bank (DESIGN 13): GET /pay/{trade_no} shows the
// receiving account, the exact amount, the reference and the QR code in the country's standard, as the
// channel's adapter gives them (payInstructions). Nothing on it pays: the bank's notification or statement
// does. A channel whose provider has its own page (or the sandbox, at /sandbox/pay) has none here.

type Deps = { db: Db; collections: CollectionsService; now: () => Date };

/** The QR code as an inline SVG (no image load: the page's policy allows none). */
const qrSvg = (payload: string): Promise<string> =>
  QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });

export function registerCheckoutModule(app: FastifyInstance, { db, collections, now }: Deps): void {
  app.get<{ Params: { trade_no: string }; Querystring: { lang?: string } }>(
    '/pay/:trade_no',
    async (request, reply) => {
      const tradeNo = request.params.trade_no;
      const order = /^C\d{8,40}$/.test(tradeNo) ? await collections.findAny(tradeNo) : undefined;
      const channel = order ? await findChannelById(db, order.channelId) : undefined;
      const adapter = channel ? adapterFor(channel.provider) : undefined;
      if (!order || !channel || !adapter) throw notFound('The order was not found.');
      // A provider's own page (a payment link) once it is made: the payer goes on there.
      if (order.payUrl && /^https?:\/\//.test(order.payUrl) && order.status === 'to_be_paid')
        return reply.header('cache-control', 'no-store').redirect(order.payUrl, 302);
      if (!adapter.payInstructions) {
        // Being made by the provider's job: the page looks again in two seconds.
        if (order.payUrl?.startsWith('/pay/') && order.status === 'to_be_paid')
          return reply
            .header('cache-control', 'no-store')
            .header('content-security-policy', "default-src 'none'")
            .type('text/html; charset=utf-8')
            .send(
              '<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="2"><title>…</title></head><body><p>One moment: your payment page is being prepared.</p></body></html>',
            );
        throw notFound('The order was not found.');
      }
      const merchant = await collections.merchantOf(order.merchantId);
      if (!merchant) throw notFound('The order was not found.');
      const currency = order.currency as Currency;
      const instructions = adapter.payInstructions(channel, {
        tradeNo: order.tradeNo,
        amountMinor: order.amountMinor,
        currency,
        merchantName: merchant.name,
      });
      const rendered = renderPayPage({
        lang: pickLanguage(request.headers['accept-language'], request.query.lang),
        tradeNo: order.tradeNo,
        outTradeNo: order.outTradeNo,
        merchantName: merchant.name,
        merchantNo: merchant.no,
        amount: fromMinor(order.amountMinor, currency),
        currency: currency as PayPageCurrency,
        status: order.status as PayPageStatus,
        expiresAt: order.expiresAt.toISOString(),
        now: now().toISOString(),
        returnUrl: order.returnUrl,
        transfer: {
          testMode: merchant.mode === 'test',
          reference: instructions.reference,
          fields: instructions.fields,
          ...(instructions.qr
            ? { qr: { ...instructions.qr, svg: await qrSvg(instructions.qr.payload) } }
            : {}),
        },
      });
      return reply
        .header('content-security-policy', payPageCsp(rendered.nonce))
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(rendered.html);
    },
  );
}
