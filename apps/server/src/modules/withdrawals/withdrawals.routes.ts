import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateWithdrawalBodySchema,
  WithdrawalOptionsResponseSchema,
  WithdrawalResponseSchema,
} from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import type { Db } from '../../db/client.ts';
import { authOf, clientOf, type Guards, PURE_READ } from '../../plugins/auth-context.ts';
import { parseInput, stepUpInputOf, verifyStepUp } from '../security/index.ts';
import type { MerchantRef, WithdrawalsService } from './withdrawals.service.ts';

function merchantOf(request: FastifyRequest): MerchantRef {
  const { merchant } = authOf(request);
  return { id: merchant.id, no: merchant.no, currency: merchant.currency, timezone: merchant.timezone };
}

/** Withdraw and Withdrawal history in the console (DESIGN section 5). */
export function withdrawalsConsoleRoutes(
  app: FastifyInstance,
  {
    withdrawals,
    guards,
    db,
    appKey,
  }: { withdrawals: WithdrawalsService; guards: Guards; db: Db; appKey: Buffer },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const view = guards.requirePerm('withdrawal:view');
  const create = guards.requirePerm('withdrawal:create');

  r.get(
    '/api/merchant/withdrawal-options',
    { onRequest: create, schema: { response: { 200: WithdrawalOptionsResponseSchema } } },
    async (request) => ({ data: await withdrawals.options(merchantOf(request)) }),
  );

  r.post(
    '/api/merchant/withdrawals',
    { onRequest: create, schema: { response: { 201: WithdrawalResponseSchema } } },
    async (request, reply) => {
      const { user } = authOf(request);
      const merchant = merchantOf(request);
      // The form, the address and the balance are checked before the step-up: a typo costs no code.
      const body = parseInput(
        CreateWithdrawalBodySchema.omit({ payment_password: true, code: true }),
        request.body,
      );
      await withdrawals.check(merchant, body);
      const client = clientOf(request);
      await verifyStepUp(db, user, stepUpInputOf(request.body), { appKey, client });
      const row = await withdrawals.request(merchant, body, { userId: user.id, client });
      return reply.status(201).send({ data: withdrawals.present(row) });
    },
  );

  r.get(
    '/api/merchant/withdrawals/:withdrawal_no',
    {
      config: PURE_READ,
      onRequest: view,
      schema: {
        params: z.object({ withdrawal_no: z.string() }),
        response: { 200: WithdrawalResponseSchema },
      },
    },
    async (request) => ({
      data: withdrawals.present(
        await withdrawals.findForMerchant(authOf(request).merchant.id, request.params.withdrawal_no),
      ),
    }),
  );
}
