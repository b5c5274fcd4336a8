import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { bigint, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Currency, fromMinor } from '@paydesk/shared';
import type { ExportLocale } from '@paydesk/shared/exports/exports.schemas.ts';
import { utcToZonedTime } from '@paydesk/shared/time-zone.ts';
import type { Db } from '../../src/db/client.ts';
import { defineExportKind, type Titles } from '../../src/modules/exports/kinds/export-kind.ts';
import { defineSqlExportKind } from '../../src/modules/exports/kinds/sql-export-kind.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-app.ts';

// An export's cells are written two ways: by the JavaScript writers (CellFormat, rows read in batches) and
// by PostgreSQL (sql-cells.ts, a COPY straight into the file; keyset batches of SQL cells on PGlite). Both
// must write what the list shows: money.ts's decimals and the time-zone code's local times. One table of
// cases, each with the text it must read as; both paths and the shared code are checked against it.

const AMOUNTS: { currency: Currency; minor: bigint; text: string }[] = [
  { currency: 'CNY', minor: 0n, text: '0.00' },
  { currency: 'CNY', minor: 1n, text: '0.01' },
  { currency: 'CNY', minor: -1n, text: '-0.01' },
  { currency: 'CNY', minor: 123_450n, text: '1234.50' },
  { currency: 'CNY', minor: -123_456_789n, text: '-1234567.89' },
  // Past a double's exact integers, and the largest bigint a column holds.
  { currency: 'CNY', minor: 9_007_199_254_740_993n, text: '90071992547409.93' },
  { currency: 'CNY', minor: 9_223_372_036_854_775_807n, text: '92233720368547758.07' },
  { currency: 'INR', minor: 99n, text: '0.99' },
  { currency: 'BRL', minor: -100n, text: '-1.00' },
  { currency: 'USD', minor: 100_000_000_000_000_000n, text: '1000000000000000.00' },
  { currency: 'VND', minor: 0n, text: '0' },
  { currency: 'VND', minor: 250_000n, text: '250000' },
  { currency: 'VND', minor: -5n, text: '-5' },
  { currency: 'VND', minor: -9_223_372_036_854_775_807n, text: '-9223372036854775807' },
  { currency: 'USDT', minor: 0n, text: '0.000000' },
  { currency: 'USDT', minor: 1n, text: '0.000001' },
  { currency: 'USDT', minor: -1_500_000n, text: '-1.500000' },
  { currency: 'USDT', minor: 123_456_789_012_345_678n, text: '123456789012.345678' },
];

const TIMES: { zone: string; at: string | null; text: string }[] = [
  { zone: 'UTC', at: '2026-03-01T00:30:00Z', text: '2026-03-01 00:30:00' },
  { zone: 'Asia/Shanghai', at: '2026-03-01T00:30:00Z', text: '2026-03-01 08:30:00' },
  { zone: 'Asia/Shanghai', at: '2026-02-28T16:00:00Z', text: '2026-03-01 00:00:00' },
  // Offsets without daylight saving, of half and quarter hours, on both sides of UTC.
  { zone: '+05:30', at: '2026-03-01T20:00:00Z', text: '2026-03-02 01:30:00' },
  { zone: '+05:45', at: '2026-06-30T18:15:00Z', text: '2026-07-01 00:00:00' },
  { zone: '-03:00', at: '2026-01-01T01:59:59Z', text: '2025-12-31 22:59:59' },
  { zone: '+08:00', at: '2026-12-31T16:00:00Z', text: '2027-01-01 00:00:00' },
  { zone: 'Asia/Kolkata', at: '2026-06-15T18:29:59Z', text: '2026-06-15 23:59:59' },
  { zone: 'America/Sao_Paulo', at: '2026-07-01T03:00:00Z', text: '2026-07-01 00:00:00' },
  // Daylight saving: New York springs forward at 02:00 local and falls back at 02:00 local.
  { zone: 'America/New_York', at: '2026-03-08T06:59:59Z', text: '2026-03-08 01:59:59' },
  { zone: 'America/New_York', at: '2026-03-08T07:00:00Z', text: '2026-03-08 03:00:00' },
  { zone: 'America/New_York', at: '2026-11-01T05:30:00Z', text: '2026-11-01 01:30:00' },
  { zone: 'America/New_York', at: '2026-11-01T06:30:00Z', text: '2026-11-01 01:30:00' },
  { zone: 'Europe/London', at: '2026-03-29T01:00:00Z', text: '2026-03-29 02:00:00' },
  // Fractions of a second are cut, never rounded up.
  { zone: 'UTC', at: '2026-03-01T23:59:59.999Z', text: '2026-03-01 23:59:59' },
  // No time: an empty cell.
  { zone: 'Asia/Shanghai', at: null, text: '' },
  { zone: '-03:00', at: null, text: '' },
];

const LABELS: Record<string, Titles> = {
  paid: { en: 'Paid', 'zh-cn': '已支付', vi: 'Đã thanh toán' },
  "o'quote": { en: 'It\'s "quoted"', 'zh-cn': '引号', vi: 'Dấu nháy' },
};
const LABEL_CASES: { locale: ExportLocale; code: string; text: string }[] = [
  { locale: 'en', code: 'paid', text: 'Paid' },
  { locale: 'zh-cn', code: 'paid', text: '已支付' },
  { locale: 'vi', code: 'paid', text: 'Đã thanh toán' },
  { locale: 'en', code: "o'quote", text: 'It\'s "quoted"' },
  { locale: 'vi', code: "o'quote", text: 'Dấu nháy' },
  // A code without a label is written as it is.
  { locale: 'zh-cn', code: 'unknown_code', text: 'unknown_code' },
];

describe('the table itself agrees with money.ts and the time-zone code', () => {
  it.each(AMOUNTS)('fromMinor($minor, $currency) is $text', ({ currency, minor, text }) => {
    expect(fromMinor(minor, currency)).toBe(text);
  });
  it.each(TIMES.filter((t) => t.at !== null))('$at in $zone is $text', ({ zone, at, text }) => {
    expect(utcToZonedTime(new Date(at!), zone).replace('T', ' ')).toBe(text);
  });
});

// ---- The cases as rows: one table for both paths

const cases = pgTable('export_cell_cases', {
  id: integer('id').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
  minor: bigint('minor', { mode: 'bigint' }),
  currency: text('currency'),
  code: text('code'),
});

type CaseRow = {
  id: number;
  createdAt: Date;
  minor: bigint;
  currency: Currency;
  at: Date | null;
  code: string;
};

/** Every case in one row each; ids count down so that "newest first" reads them in table order. */
function rowsOf(): CaseRow[] {
  const all = [
    ...AMOUNTS.map((a) => ({ minor: a.minor, currency: a.currency, at: null, code: 'paid' })),
    ...TIMES.map((t) => ({
      minor: 0n,
      currency: 'CNY' as Currency,
      at: t.at ? new Date(t.at) : null,
      code: '',
    })),
    ...LABEL_CASES.map((l) => ({ minor: 0n, currency: 'CNY' as Currency, at: null, code: l.code })),
  ];
  return all.map((row, i) => ({ ...row, id: all.length - i, createdAt: new Date(Date.UTC(2026, 0, 1)) }));
}
const ROWS = rowsOf();
const timeRow = (i: number) => AMOUNTS.length + i;
const labelRow = (i: number) => AMOUNTS.length + TIMES.length + i;

const TITLE = { en: 'x', 'zh-cn': 'x', vi: 'x' };
const CHUNK = { batchSize: 7, currency: 'CNY' as Currency, rowsPerSheet: 1_000 };

/** The JavaScript path: the kind's CellFormat, as defineExportKind hands it to every column. */
const jsKind = defineExportKind({
  kind: 'payouts',
  title: TITLE,
  perm: 'payout:view',
  query: z.object({}),
  filter: () => ({}),
  maxId: async () => ROWS.length,
  count: async () => ROWS.length,
  rows: async (_db, _filter, _maxId, limit, after) => {
    const from = after ? ROWS.findIndex((r) => r.id === after.id) + 1 : 0;
    return ROWS.slice(from, from + limit);
  },
  columns: [
    { title: TITLE, type: 'amount', value: (row: CaseRow, f) => f.amount(row.minor, row.currency) },
    { title: TITLE, type: 'text', value: (row: CaseRow, f) => f.time(row.at) },
    { title: TITLE, type: 'text', value: (row: CaseRow, f) => f.label(LABELS, row.code) },
  ],
  sums: {},
});

/** The SQL path: the same columns computed by the database from the same rows. */
const sqlKind = defineSqlExportKind({
  kind: 'fund_flows',
  title: TITLE,
  perm: 'funds:view',
  query: z.object({}),
  filter: () => ({}),
  table: cases,
  createdAt: cases.createdAt,
  id: cases.id,
  where: (_filter, maxId) => sql`${cases.id} <= ${maxId}`,
  maxId: async () => ROWS.length,
  count: async () => ROWS.length,
  columns: [
    // Each amount in its own currency: the currencies are written out one by one.
    {
      title: TITLE,
      type: 'amount',
      value: (f) =>
        sql`case ${cases.currency} ${sql.join(
          (['CNY', 'INR', 'BRL', 'USD', 'VND', 'USDT'] as Currency[]).map(
            (c) => sql`when ${c} then ${f.amount(cases.minor, c)}`,
          ),
          sql` `,
        )} end`,
    },
    { title: TITLE, type: 'text', value: (f) => f.time(cases.at) },
    { title: TITLE, type: 'text', value: (f) => f.label(LABELS, cases.code) },
  ],
  sums: {},
});

type Cells = string[][];

async function cellsOf(kind: typeof jsKind, db: Db, timeZone: string, locale: ExportLocale): Promise<Cells> {
  const prepared = kind.prepare({}, { merchantId: 1, timeZone });
  const rows: Cells = [];
  for await (const chunk of prepared.chunks(db, ROWS.length, { ...CHUNK, locale, format: 'csv' })) {
    if ('rows' in chunk) rows.push(...chunk.rows.map((row) => row.map((cell) => cell ?? '')));
    else rows.push(...(parse(chunk.data) as string[][]));
  }
  return rows;
}

describe.each(['javascript', 'sql'] as const)('export cells written by %s', (path) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    if (path === 'sql') {
      await database.db.execute(sql`create table export_cell_cases (
        id integer primary key, created_at timestamptz, at timestamptz, minor bigint, currency text,
        code text)`);
      for (const row of ROWS) {
        await database.db.insert(cases).values({
          id: row.id,
          createdAt: row.createdAt,
          at: row.at,
          minor: row.minor,
          currency: row.currency,
          code: row.code,
        });
      }
    }
  });
  afterAll(() => database.drop());

  const kind = path === 'sql' ? sqlKind : jsKind;
  const read = async (zone: string, locale: ExportLocale) => {
    const cells = await cellsOf(kind, database.db, zone, locale);
    expect(cells).toHaveLength(ROWS.length);
    return cells;
  };

  it('writes every amount as money.ts does', async () => {
    const cells = await read('UTC', 'en');
    expect(AMOUNTS.map((_, i) => cells[i]![0])).toEqual(AMOUNTS.map((a) => a.text));
  });

  it.each([...new Set(TIMES.map((t) => t.zone))])(
    'writes the times in %s as the time-zone code does',
    async (zone) => {
      const cells = await read(zone, 'en');
      TIMES.forEach((t, i) => {
        if (t.zone === zone) expect(cells[timeRow(i)]![1], `${t.at} in ${zone}`).toBe(t.text);
      });
    },
  );

  it.each(['en', 'zh-cn', 'vi'] as const)('writes the labels in %s', async (locale) => {
    const cells = await read('UTC', locale);
    LABEL_CASES.forEach((l, i) => {
      if (l.locale === locale) expect(cells[labelRow(i)]![2], `${l.code} in ${locale}`).toBe(l.text);
    });
  });
});
