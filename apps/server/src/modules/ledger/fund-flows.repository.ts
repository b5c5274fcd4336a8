import { and, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, preparedOnce, queryRows } from '../../db/client.ts';
import { newestFirst } from '../../db/keyset.ts';
import { fundFlowHourly, fundFlows } from '../../db/schema/index.ts';
import type { FundFlowRow } from './ledger.repository.ts';

export type FundFlowFilter = {
  merchantId: number;
  type?: string;
  /** [from, to) in UTC. */
  from?: Date;
  to?: Date;
  refNo?: string;
  /** Exports' snapshot: only rows with an id up to this one (rows added later are left out). */
  maxId?: number;
};

/** A position in the list: the last row of the previous page. */
export type FundFlowCursor = { createdAt: Date; id: number };

export type FundFlowTotals = { count: number; inMinor: bigint; outMinor: bigint };

const HOUR_MS = 3_600_000;
const ceilHour = (at: Date) => new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);
const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

const NEWEST_FIRST = newestFirst(fundFlows.createdAt, fundFlows.id);

function entryConditions(filter: FundFlowFilter, from = filter.from, to = filter.to): SQL {
  return and(
    eq(fundFlows.merchantId, filter.merchantId),
    filter.type ? eq(fundFlows.type, filter.type) : undefined,
    from ? gte(fundFlows.createdAt, from) : undefined,
    to ? lt(fundFlows.createdAt, to) : undefined,
    filter.refNo ? eq(fundFlows.refNo, filter.refNo) : undefined,
    filter.maxId !== undefined ? lte(fundFlows.id, filter.maxId) : undefined,
  )!;
}

const rawTotals = (filter: FundFlowFilter, from?: Date, to?: Date) => sql`
  select count(*) as entries,
         coalesce(sum(greatest(${fundFlows.amountMinor}, 0)), 0) as in_minor,
         coalesce(sum(greatest(-${fundFlows.amountMinor}, 0)), 0) as out_minor
  from ${fundFlows} where ${entryConditions(filter, from, to)}`;

export const fundFlowsRepository = {
  /** The filter as a condition on fund_flows (exports read its rows with their own statement). */
  conditions: (filter: FundFlowFilter): SQL => entryConditions(filter),

  /** One page, newest first: after the cursor when given (keyset), else skipping `offset` rows. */
  findPage: (
    db: DbOrTx,
    filter: FundFlowFilter,
    limit: number,
    position: { cursor?: FundFlowCursor; offset: number },
  ): Promise<FundFlowRow[]> => {
    const { cursor } = position;
    // One prepared statement per combination of filters (at most 32), its values bound per call.
    const shape = {
      type: filter.type !== undefined,
      from: filter.from !== undefined,
      to: filter.to !== undefined,
      refNo: filter.refNo !== undefined,
      maxId: filter.maxId !== undefined,
      cursor: cursor !== undefined,
    };
    const key = `fund_flows_page_${Object.entries(shape)
      .filter(([, on]) => on)
      .map(([name]) => name)
      .join('_')}`;
    const query = preparedOnce(db, key, (on) => {
      const p = (name: string) => sql.placeholder(name);
      return on
        .select()
        .from(fundFlows)
        .where(
          and(
            eq(fundFlows.merchantId, p('merchantId')),
            shape.type ? eq(fundFlows.type, p('type')) : undefined,
            shape.from ? sql`${fundFlows.createdAt} >= ${p('from')}::timestamptz` : undefined,
            shape.to ? sql`${fundFlows.createdAt} < ${p('to')}::timestamptz` : undefined,
            shape.refNo ? eq(fundFlows.refNo, p('refNo')) : undefined,
            shape.maxId ? sql`${fundFlows.id} <= ${p('maxId')}::bigint` : undefined,
            shape.cursor
              ? sql`(${fundFlows.createdAt}, ${fundFlows.id}) < (${p('cursorAt')}::timestamptz, ${p('cursorId')}::bigint)`
              : undefined,
          ),
        )
        .orderBy(...NEWEST_FIRST)
        .limit(p('limit'))
        .offset(p('offset'))
        .prepare(key);
    });
    return query.execute({
      merchantId: filter.merchantId,
      type: filter.type,
      from: filter.from?.toISOString(),
      to: filter.to?.toISOString(),
      refNo: filter.refNo,
      maxId: filter.maxId,
      cursorAt: cursor?.createdAt.toISOString(),
      cursorId: cursor?.id,
      limit,
      offset: cursor ? 0 : position.offset,
    });
  },

  findById: async (db: DbOrTx, merchantId: number, id: number): Promise<FundFlowRow | undefined> => {
    const [row] = await db
      .select()
      .from(fundFlows)
      .where(and(eq(fundFlows.merchantId, merchantId), eq(fundFlows.id, id)));
    return row;
  },

  /**
   * Count, money in and money out of the whole filter. Whole hours come from the hourly rollup the ledger
   * keeps; only the partial hours at the edges of a time range (and a reference-number search, which
   * matches a handful of rows) read the entries themselves.
   */
  totals: async (db: DbOrTx, filter: FundFlowFilter): Promise<FundFlowTotals> => {
    // The list as it opens (no time range, no reference number): the rollup alone, a prepared statement.
    if (!filter.refNo && !filter.from && !filter.to && filter.maxId === undefined) {
      const byType = filter.type !== undefined;
      const key = byType ? 'fund_flow_totals_type' : 'fund_flow_totals';
      const [row] = await preparedOnce(db, key, (on) =>
        on
          .select({
            entries: sql<string>`coalesce(sum(${fundFlowHourly.entries}), 0)::text`,
            inMinor: sql<string>`coalesce(sum(${fundFlowHourly.inMinor}), 0)::text`,
            outMinor: sql<string>`coalesce(sum(${fundFlowHourly.outMinor}), 0)::text`,
          })
          .from(fundFlowHourly)
          .where(
            and(
              eq(fundFlowHourly.merchantId, sql.placeholder('merchantId')),
              byType ? eq(fundFlowHourly.type, sql.placeholder('type')) : undefined,
            ),
          )
          .prepare(key),
      ).execute({ merchantId: filter.merchantId, type: filter.type });
      return {
        count: Number(row?.entries ?? 0),
        inMinor: BigInt(row?.inMinor ?? 0),
        outMinor: BigInt(row?.outMinor ?? 0),
      };
    }
    const parts: SQL[] = [];
    if (filter.refNo) {
      parts.push(rawTotals(filter));
    } else {
      const wholeFrom = filter.from ? ceilHour(filter.from) : undefined;
      const wholeTo = filter.to ? floorHour(filter.to) : undefined;
      if (wholeFrom && wholeTo && wholeFrom >= wholeTo) {
        parts.push(rawTotals(filter));
      } else {
        parts.push(sql`
          select coalesce(sum(${fundFlowHourly.entries}), 0) as entries,
                 coalesce(sum(${fundFlowHourly.inMinor}), 0) as in_minor,
                 coalesce(sum(${fundFlowHourly.outMinor}), 0) as out_minor
          from ${fundFlowHourly}
          where ${and(
            eq(fundFlowHourly.merchantId, filter.merchantId),
            filter.type ? eq(fundFlowHourly.type, filter.type) : undefined,
            wholeFrom ? gte(fundFlowHourly.hour, wholeFrom) : undefined,
            wholeTo ? lt(fundFlowHourly.hour, wholeTo) : undefined,
          )}`);
        if (filter.from && wholeFrom && wholeFrom > filter.from)
          parts.push(rawTotals(filter, filter.from, wholeFrom));
        if (filter.to && wholeTo && wholeTo < filter.to) parts.push(rawTotals(filter, wholeTo, filter.to));
      }
    }
    const [row] = await queryRows<{ entries: unknown; in_minor: unknown; out_minor: unknown }>(
      db,
      sql`select sum(entries)::text as entries, sum(in_minor)::text as in_minor, sum(out_minor)::text as out_minor
          from (${sql.join(parts, sql` union all `)}) as parts`,
    );
    return {
      count: Number(row?.entries ?? 0),
      inMinor: BigInt(String(row?.in_minor ?? 0)),
      outMinor: BigInt(String(row?.out_minor ?? 0)),
    };
  },
};
