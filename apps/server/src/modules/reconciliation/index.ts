import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import type { ChannelPorts } from '../channels/index.ts';
import type { CollectionsService } from '../collections/index.ts';
import { createLedger } from '../ledger/index.ts';
import { answerAction, createOperatorGuard, merchantIdByNo, operatorContextOf } from '../ops/index.ts';
import type { PayoutsService } from '../payouts/index.ts';
import { createReconciliationService, type ReconciliationService } from './reconciliation.service.ts';
import {
  CloseDayBodySchema,
  ImportStatementBodySchema,
  ReconciliationQuerySchema,
  ResolveBodySchema,
} from './reconciliation.schemas.ts';

export * from './reconciliation.schemas.ts';
export { type ReconciliationService, seedReceivedPayment } from './reconciliation.service.ts';
export { parseStatement, StatementError } from './statements/parse.ts';

/** A statement file may be large (a bank's day): its route takes up to this many bytes of JSON. */
const STATEMENT_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * Money received and its reconciliation (DESIGN 13): a provider's notifications
 * (POST /channels/{channel_code}/notify, signed, no session) and the operator's statement import,
 * reconciliation, resolutions and day close (/ops/v1).
 */
export function registerReconciliationModule(
  app: FastifyInstance,
  { db, now, config }: AppContext,
  {
    collections,
    payouts,
    refunds,
  }: { collections: CollectionsService; payouts: PayoutsService; refunds: ChannelPorts['refunds'] },
): ReconciliationService {
  const service = createReconciliationService({
    db,
    now,
    appKey: config.appKey,
    collections,
    payouts,
    refunds,
    ledger: createLedger(),
  });

  app.register(async (scope) => {
    // The signature covers the raw body: keep it as it came.
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 1024 * 1024 },
      (_r, body, done) => done(null, body),
    );
    scope.post<{ Params: { channel_code: string } }>('/channels/:channel_code/notify', async (request) => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value[0] : value,
        ]),
      );
      const rawBody = typeof request.body === 'string' ? request.body : '';
      return { data: await service.notify(request.params.channel_code, headers, rawBody) };
    });
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const operator = createOperatorGuard({ db, now });
  const merchantId = (no: string, mode: 'live' | 'test') => merchantIdByNo(db, no, mode);

  r.post(
    '/ops/v1/statements/import',
    { ...operator('funds'), bodyLimit: STATEMENT_BODY_LIMIT, schema: { body: ImportStatementBodySchema } },
    async (request, reply) => {
      const body = request.body;
      const result = await service.importStatement(
        {
          merchantId: await merchantId(body.merchant, body.mode),
          channel: body.channel,
          date: body.date,
          format: body.format,
          fileName: body.file_name,
          content: Buffer.from(body.content, 'base64'),
        },
        operatorContextOf(request, body.reason),
      );
      return answerAction(reply, result);
    },
  );

  r.get(
    '/ops/v1/reconciliations',
    { ...operator('read'), schema: { querystring: ReconciliationQuerySchema } },
    async (request) => {
      const q = request.query;
      return { data: await service.show(await merchantId(q.merchant, q.mode), q.channel, q.date) };
    },
  );

  r.post(
    '/ops/v1/reconciliations/resolve',
    { ...operator('funds'), schema: { body: ResolveBodySchema } },
    async (request, reply) => {
      const b = request.body;
      const result = await service.resolve(
        {
          merchantId: await merchantId(b.merchant, b.mode),
          channel: b.channel,
          date: b.date,
          ...(b.payment !== undefined ? { paymentId: b.payment } : {}),
          ...(b.trade_no !== undefined ? { tradeNo: b.trade_no } : {}),
          action: b.action,
          ...(b.amount !== undefined ? { amount: b.amount } : {}),
        },
        operatorContextOf(request, b.reason),
      );
      return answerAction(reply, result);
    },
  );

  r.post(
    '/ops/v1/reconciliations/close',
    { ...operator('funds'), schema: { body: CloseDayBodySchema } },
    async (request, reply) => {
      const b = request.body;
      const result = await service.close(
        await merchantId(b.merchant, b.mode),
        b.channel,
        b.date,
        operatorContextOf(request, b.reason),
      );
      return answerAction(reply, result);
    },
  );

  return service;
}
