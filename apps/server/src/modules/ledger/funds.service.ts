import { type Currency, ERROR_CODES, fromMinor } from '@paydesk/shared';
import {
  type Balance,
  type FundFlow,
  type FundFlowListQuery,
  type FundFlowListResponse,
  type FundFlowType,
  normalizeLocalTime,
} from '@paydesk/shared/funds/funds.schemas.ts';
import type { Db } from '../../db/client.ts';
import { notFound, ValidationError } from '../../lib/errors.ts';
import { zonedTimeToUtc } from '../../lib/timezone.ts';
import {
  type FundFlowCursor,
  type FundFlowFilter,
  fundFlowsRepository as repo,
} from './fund-flows.repository.ts';
import type { FundFlowRow } from './ledger.repository.ts';
import type { Ledger } from './ledger.service.ts';

type Deps = { db: Db; ledger: Pick<Ledger, 'balanceOf'> };

/** The merchant a console request acts for, and the time zone its dates are read in. */
export type Viewer = { merchantId: number; currency: Currency; timeZone: string };

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

// The cursor is opaque to clients: base64url of "<created_at ms>.<id>" of the last row they saw.
export const encodeCursor = (row: FundFlowCursor) =>
  Buffer.from(`${row.createdAt.getTime()}.${row.id}`).toString('base64url');

// A cursor of ours points at a row written before now; a later time (beyond year 9999 the database cannot
// even read it) is not one.
const LATEST_CURSOR_MS = Date.UTC(9999, 11, 31);

function decodeCursor(cursor: string): FundFlowCursor {
  const match = /^(\d{1,15})\.(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number(match[1]) > LATEST_CURSOR_MS) {
    throw ValidationError.field('cursor', 'The cursor is not valid.', ERROR_CODES.invalidCursor);
  }
  return { createdAt: new Date(Number(match[1])), id: Number(match[2]) };
}

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

  /** Newest first; the sums and the total cover the whole filter, not just the page. */
  async function list(viewer: Viewer, query: FundFlowListQuery): Promise<FundFlowListResponse> {
    const filter: FundFlowFilter = {
      merchantId: viewer.merchantId,
      type: query.type,
      refNo: query.ref_no,
      // A start is inclusive; an end is inclusive to the second (a date alone: the whole day).
      from: query.start_time
        ? zonedTimeToUtc(normalizeLocalTime(query.start_time, 'start'), viewer.timeZone)
        : undefined,
      to: query.end_time
        ? new Date(
            zonedTimeToUtc(normalizeLocalTime(query.end_time, 'end'), viewer.timeZone).getTime() + 1000,
          )
        : undefined,
    };
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    const [rows, totals] = await Promise.all([
      repo.findPage(db, filter, query.per_page + 1, { cursor, offset: (query.page - 1) * query.per_page }),
      repo.totals(db, filter),
    ]);
    const page = rows.slice(0, query.per_page);
    const last = page.at(-1);
    return {
      data: page.map((row) => presentFundFlow(row, viewer.currency)),
      meta: {
        page: query.page,
        per_page: query.per_page,
        total: totals.count,
        sums: {
          money_in: fromMinor(totals.inMinor, viewer.currency),
          money_out: fromMinor(totals.outMinor, viewer.currency),
        },
        next_cursor: rows.length > query.per_page && last ? encodeCursor(last) : null,
      },
    };
  }

  async function detail(viewer: Viewer, id: number): Promise<FundFlow> {
    const row = await repo.findById(db, viewer.merchantId, id);
    if (!row) throw notFound('The fund flow entry was not found.');
    return presentFundFlow(row, viewer.currency);
  }

  return { balance, list, detail };
}
