import { type Currency, fromMinor } from '@paydesk/shared';
import { type Balance, type FundFlow, type FundFlowType } from '@paydesk/shared/funds/funds.schemas.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { fundFlowsRepository as repo } from './fund-flows.repository.ts';
import type { FundFlowRow } from './ledger.repository.ts';
import type { Ledger } from './ledger.service.ts';
import type { Viewer } from '../../plugins/auth-context.ts';

type Deps = { db: Db; ledger: Pick<Ledger, 'balanceOf'> };

export type { Viewer };

export function presentFundFlow(row: FundFlowRow, currency: Currency): FundFlow {
  return {
    id: row.id,
    type: row.type as FundFlowType,
    amount: fromMinor(row.amountMinor, currency),
    available_after: fromMinor(row.availableAfterMinor, currency),
    currency,
    ref_type: row.refType,
    ref_no: row.refNo,
    note: row.note,
    created_at: row.createdAt.toISOString(),
  };
}

export { encodeCursor } from '../../lib/cursor.ts';

export type FundsService = ReturnType<typeof createFundsService>;

export function createFundsService({ db, ledger }: Deps) {
  async function balance(viewer: Viewer): Promise<Balance> {
    const { availableMinor, lockedMinor } = await ledger.balanceOf(db, viewer.merchantId);
    return {
      total: fromMinor(availableMinor + lockedMinor, viewer.currency),
      available: fromMinor(availableMinor, viewer.currency),
      locked: fromMinor(lockedMinor, viewer.currency),
      currency: viewer.currency,
    };
  }

  async function detail(viewer: Viewer, id: number): Promise<FundFlow> {
    const row = await repo.findById(db, viewer.merchantId, id);
    if (!row) throw notFound('The fund flow entry was not found.');
    return presentFundFlow(row, viewer.currency);
  }

  return { balance, detail };
}

/** Housekeeping: the UTC days, then the minutes, over by `before` summed into the fund-flow rollups. */
export const closeFundFlowDays = repo.closeDays;
export const closeFundFlowMinutes = repo.closeMinutes;
