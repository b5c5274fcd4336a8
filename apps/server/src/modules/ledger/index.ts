import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** The ledger: balances, holds, fund flows, and the console's funds API. */
export function registerLedgerModule(_app: FastifyInstance, _ctx: AppContext): void {
  // Routes are added here as the ledger issue lands.
}
