import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { createOperatorGuard, merchantIdByNo, operatorContextOf } from '../ops/index.ts';
import type { PayoutsService } from '../payouts/index.ts';
import { createPayoutBatchesService } from './payout-batches.service.ts';
import {
  BatchExportBodySchema,
  BatchImportBodySchema,
  MarkFailedBodySchema,
  MarkPaidBodySchema,
} from './payout-batches.schemas.ts';

export * from './payout-batches.schemas.ts';

/** A bank's result file of a day's payouts: up to this many bytes of JSON. */
const RESULT_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * Payouts paid by the platform's staff (DESIGN 13, the `manual` provider's channels): the operator's batch
 * export and result import, and marking one payout paid or failed (/ops/v1/payouts/...).
 */
export function registerPayoutBatchesModule(
  app: FastifyInstance,
  { db, now }: AppContext,
  { payouts }: { payouts: PayoutsService },
): void {
  const service = createPayoutBatchesService({ db, now, payouts });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const operator = createOperatorGuard({ db, now });
  const merchantId = (no: string, mode: 'live' | 'test') => merchantIdByNo(db, no, mode);
  const created = (reply: FastifyReply, data: unknown) => reply.status(201).send({ data });

  r.post(
    '/ops/v1/payouts/batch-export',
    { ...operator('funds'), schema: { body: BatchExportBodySchema } },
    async (request, reply) => {
      const b = request.body;
      const data = await service.exportBatch(
        {
          merchantId: await merchantId(b.merchant, b.mode),
          channel: b.channel,
          ...(b.batch ? { batchNo: b.batch } : {}),
        },
        operatorContextOf(request, b.reason),
      );
      return created(reply, data);
    },
  );

  r.post(
    '/ops/v1/payouts/batch-import',
    { ...operator('funds'), bodyLimit: RESULT_BODY_LIMIT, schema: { body: BatchImportBodySchema } },
    async (request, reply) => {
      const b = request.body;
      const data = await service.importResult(
        {
          merchantId: await merchantId(b.merchant, b.mode),
          channel: b.channel,
          fileName: b.file_name,
          content: Buffer.from(b.content, 'base64'),
        },
        operatorContextOf(request, b.reason),
      );
      return created(reply, data);
    },
  );

  r.post(
    '/ops/v1/payouts/mark-paid',
    { ...operator('funds'), schema: { body: MarkPaidBodySchema } },
    async (request, reply) => {
      const b = request.body;
      const data = await service.markPaid(
        {
          merchantId: await merchantId(b.merchant, b.mode),
          channel: b.channel,
          tradeNo: b.trade_no,
          bankReference: b.bank_reference,
        },
        operatorContextOf(request, b.reason),
      );
      return created(reply, data);
    },
  );

  r.post(
    '/ops/v1/payouts/mark-failed',
    { ...operator('funds'), schema: { body: MarkFailedBodySchema } },
    async (request, reply) => {
      const b = request.body;
      const data = await service.markFailed(
        {
          merchantId: await merchantId(b.merchant, b.mode),
          channel: b.channel,
          tradeNo: b.trade_no,
          failure: b.failure,
        },
        operatorContextOf(request, b.reason),
      );
      return created(reply, data);
    },
  );
}
