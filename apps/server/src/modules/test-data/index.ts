import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AmountError, ERROR_CODES, fromMinor, toMinor } from '@paydesk/shared';
import {
  TestDataDeletionResponseSchema,
  TestFundsBodySchema,
  TestFundsResponseSchema,
  testFundsLimit,
} from '@paydesk/shared/modes/modes.schemas.ts';
import type { AppContext } from '../../context.ts';
import { conflict, ValidationError } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth-context.ts';
import { createLedger, transactionWithRetry } from '../ledger/index.ts';
import { createTestDataService, type TestDataService } from './test-data.service.ts';
import { creditTestFunds } from './test-funds.ts';

export { creditStartingTestFunds } from './test-funds.ts';
export { TEST_DATA_QUEUE, type TestDataService } from './test-data.service.ts';

/**
 * Test mode's own money and data (DESIGN 12; ROOT: test-data:manage): POST /api/merchant/test-funds adds
 * test funds to the test balance, in test mode only; /api/merchant/test-data/delete asks for (POST, 202)
 * and reads (GET) the deletion of every test object, in either mode.
 */
export function registerTestDataModule(
  app: FastifyInstance,
  { db, guards, jobs, storage, now }: AppContext,
): TestDataService {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ledger = createLedger();
  const testData = createTestDataService({ db, jobs, storage, ledger, now });
  const onRequest = guards.requirePerm('test-data:manage');

  r.get(
    '/api/merchant/test-data/delete',
    { onRequest, schema: { response: { 200: TestDataDeletionResponseSchema } } },
    async (request) => ({ data: await testData.status(authOf(request).liveMerchant.id) }),
  );

  r.post(
    '/api/merchant/test-data/delete',
    { onRequest, schema: { response: { 202: TestDataDeletionResponseSchema } } },
    async (request, reply) => {
      const { liveMerchant, user } = authOf(request);
      return reply.code(202).send({ data: await testData.request(liveMerchant.id, user.id) });
    },
  );

  r.post(
    '/api/merchant/test-funds',
    { onRequest, schema: { body: TestFundsBodySchema, response: { 200: TestFundsResponseSchema } } },
    async (request) => {
      const { merchant, mode } = authOf(request);
      if (mode !== 'test') {
        throw conflict('Test funds are added in test mode only.', ERROR_CODES.testModeOnly);
      }
      const { currency } = merchant;
      const limitMinor = toMinor(testFundsLimit(currency), currency);
      let amountMinor: bigint;
      try {
        amountMinor = toMinor(request.body.amount, currency);
      } catch (error) {
        if (!(error instanceof AmountError)) throw error;
        throw ValidationError.field('amount', error.message);
      }
      if (amountMinor <= 0n) throw ValidationError.field('amount', 'The amount must be greater than 0.');
      if (amountMinor > limitMinor) {
        throw ValidationError.field(
          'amount',
          `The amount must be at most ${fromMinor(limitMinor, currency)}.`,
        );
      }
      const balance = await transactionWithRetry(db, async (tx) => {
        await creditTestFunds(ledger, tx, merchant, amountMinor);
        return ledger.balanceOf(tx, merchant.id);
      });
      return {
        data: {
          currency,
          available: fromMinor(balance.availableMinor, currency),
          locked: fromMinor(balance.lockedMinor, currency),
        },
      };
    },
  );
  return testData;
}
