import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AmountError, ERROR_CODES, fromMinor, toMinor } from '@paydesk/shared';
import {
  TestFundsBodySchema,
  TestFundsResponseSchema,
  testFundsLimit,
} from '@paydesk/shared/modes/modes.schemas.ts';
import type { AppContext } from '../../context.ts';
import { conflict, ValidationError } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth-context.ts';
import { createLedger, transactionWithRetry } from '../ledger/index.ts';
import { creditTestFunds } from './test-funds.ts';

export { creditStartingTestFunds } from './test-funds.ts';

/**
 * Test mode's own money and data (DESIGN 12; ROOT: test-data:manage): POST /api/merchant/test-funds adds
 * test funds to the test balance, in test mode only.
 */
export function registerTestDataModule(app: FastifyInstance, { db, guards }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ledger = createLedger();
  const onRequest = guards.requirePerm('test-data:manage');

  r.post(
    '/api/merchant/test-funds',
    { onRequest, schema: { body: TestFundsBodySchema, response: { 200: TestFundsResponseSchema } } },
    async (request) => {
      const { merchant, mode } = authOf(request);
      if (mode !== 'test') {
        throw conflict('Test funds are added in test mode only.', ERROR_CODES.testModeOnly);
      }
      const { currency } = merchant;
      const limit = testFundsLimit(currency);
      let amountMinor: bigint;
      try {
        amountMinor = toMinor(request.body.amount, currency);
      } catch (error) {
        if (!(error instanceof AmountError)) throw error;
        throw ValidationError.field('amount', error.message);
      }
      if (amountMinor <= 0n) throw ValidationError.field('amount', 'The amount must be greater than 0.');
      if (amountMinor > toMinor(limit, currency)) {
        throw ValidationError.field(
          'amount',
          `The amount must be at most ${fromMinor(toMinor(limit, currency), currency)}.`,
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
}
