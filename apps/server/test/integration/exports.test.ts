import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import readXlsxFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromMinor, toMinor } from '@paydesk/shared';
import type { ExportTask } from '@paydesk/shared/exports/exports.schemas.ts';
import type { Db } from '../../src/db/client.ts';
import { queryRows } from '../../src/db/client.ts';
import { createLocalStorage, type FileStorage } from '../../src/lib/storage/index.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../../src/modules/demo/index.ts';
import { createLedger, transactionWithRetry } from '../../src/modules/ledger/index.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createDemoTestApp } from '../helpers/demo.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Offline exports (DESIGN sections 2, 4, 5, 8 and 9): what a merchant's staff download is exactly what the
// list shows for the same filters, safe to open in a spreadsheet, in their language and time zone.

const ROWS_PER_SHEET = 6;
let clock = new Date('2026-03-10T02:00:00Z');

/** The local disk, with faults and a gate the tests turn on. */
const base = createLocalStorage(mkdtempSync(path.join(os.tmpdir(), 'paydesk-exports-')));
let failNextPut = false;
let gate: Promise<void> | null = null;
let onPut: () => void = () => undefined;
const storage: FileStorage = {
  description: 'test storage',
  async put(key, body, options) {
    if (failNextPut) {
      failNextPut = false;
      throw new Error('No space left on device');
    }
    if (gate) {
      onPut();
      await gate;
    }
    return base.put(key, body, options);
  },
  get: (key) => base.get(key),
  stat: (key) => base.stat(key),
  delete: (key) => base.delete(key),
};

let ctx: TestContext;
let db: Db;
let merchantId: number;
let emails: Record<string, string>;
let finance: TestClient;
const ledger = createLedger();
let posted = 0;

const SHANGHAI: Record<string, string> = { 'x-timezone': 'Asia/Shanghai' };
const FILTERS = { start_time: '2026-03-01', end_time: '2026-03-05' };
const NOTES = [
  '=HYPERLINK("http://evil.example","click")',
  '+1+2',
  '-2+3',
  '@SUM(A1:A9)',
  '\tindented',
  '\rreturned',
  '代收结算 上海分行',
  'Thanh toán cho Nguyễn Văn Ấn, "quoted"',
  'Line one\nline two <b>&amp;</b> C:\\path\\x\u0001',
];

async function post(
  type: 'transfer_in' | 'transfer_out',
  amountMinor: bigint,
  at: Date,
  note: string | null,
) {
  posted += 1;
  await transactionWithRetry(db, (tx) =>
    ledger.post(tx, {
      merchantId,
      type,
      amountMinor,
      refType: 'test',
      refId: String(posted),
      refNo: `REF${posted}`,
      note,
      idempotencyKey: `exports-test:${merchantId}:${posted}`,
      at,
    }),
  );
}

const run = (id: number) => ctx.app.services.exports.run(id);

async function createExport(client: TestClient, body: Record<string, unknown>, headers = SHANGHAI) {
  return client.post('/api/merchant/exports', body, headers);
}

async function exported(client: TestClient, body: Record<string, unknown>, headers = SHANGHAI) {
  const created = await createExport(client, body, headers);
  expect(created.statusCode, created.body).toBe(201);
  const task = created.json().data as ExportTask;
  expect(task.status).toBe('waiting');
  await run(task.id);
  return taskOf(client, task.id);
}

async function taskOf(client: TestClient, id: number, headers?: Record<string, string>): Promise<ExportTask> {
  const response = await client.get(`/api/merchant/exports/${id}`, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as ExportTask;
}

function csvRecords(bytes: Buffer): string[][] {
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(bytes.subarray(3).toString('utf8')) as string[][];
}

const sumOf = (amounts: string[], sign: 1 | -1) =>
  fromMinor(
    amounts
      .map((a) => toMinor(a.replace('-', ''), 'CNY') * (a.startsWith('-') ? -1n : 1n))
      .filter((m) => (sign > 0 ? m > 0n : m < 0n))
      .reduce((s, m) => s + (m < 0n ? -m : m), 0n),
    'CNY',
  );

beforeAll(async () => {
  ctx = await createTestApp({}, { now: () => clock, storage, exports: { maxRowsPerSheet: ROWS_PER_SHEET } });
  db = ctx.database.db;
  const created = await createMerchant(db, { roles: ['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'] });
  merchantId = created.merchant.id;
  emails = Object.fromEntries(Object.entries(created.users).map(([role, u]) => [role, u.email]));
  await post('transfer_in', 1_000_000n, new Date('2026-02-20T01:00:00Z'), 'before the filter');
  // Inside the filter (Shanghai 1 to 5 March): one entry per note, negative ones among them.
  for (const [i, note] of NOTES.entries()) {
    const at = new Date(Date.UTC(2026, 2, 1, 2 + i, 0, 0));
    await post(
      i % 2 ? 'transfer_out' : 'transfer_in',
      i % 2 ? -1250n - BigInt(i) : 100_000n + BigInt(i),
      at,
      note,
    );
  }
  for (let i = 0; i < 5; i++) await post('transfer_in', 999n, new Date(Date.UTC(2026, 2, 3, i)), null);
  // 5 March 23:30 in Shanghai is still inside; 5 March 16:30 UTC is 6 March 00:30 there, outside.
  await post('transfer_in', 777n, new Date('2026-03-05T15:30:00Z'), 'last minute');
  await post('transfer_in', 888n, new Date('2026-03-05T16:30:00Z'), 'next day in Shanghai');
  finance = await loginAs(ctx.app, emails.FINANCE!, TEST_PASSWORD);
});
afterAll(() => ctx?.close());

describe('exporting Funds > Transactions', () => {
  it('writes exactly the list rows of the filter to CSV: count and sums equal meta, in the language asked', async () => {
    const list = await finance.get(`/api/merchant/fund-flows?${new URLSearchParams(FILTERS)}`, SHANGHAI);
    const meta = list.json().meta;
    expect(meta.total).toBe(NOTES.length + 6);

    const task = await exported(
      finance,
      { kind: 'fund_flows', format: 'csv', filters: { ...FILTERS, page: 3 } },
      {
        ...SHANGHAI,
        'accept-language': 'vi-VN,vi;q=0.9',
      },
    );
    expect(task).toMatchObject({
      status: 'success',
      locale: 'vi',
      row_count: meta.total,
      rows_done: meta.total,
    });
    expect(task.rows_expected).toBe(meta.total);
    expect(task.sums).toEqual(meta.sums);

    const download = await finance.get(`/api/merchant/exports/${task.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/^text\/csv/);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="${task.file_name}"; filename*=UTF-8''${task.file_name}`,
    );
    expect(task.file_name).toMatch(/^fund_flows-\d{8}-\d{4}-\d+\.csv$/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');

    const [header, ...rows] = csvRecords(download.rawPayload);
    expect(header).toEqual([
      'Mã giao dịch',
      'Thời gian',
      'Loại giao dịch',
      'Số tiền giao dịch',
      'Số dư sau giao dịch',
      'Tiền tệ',
      'Mã tham chiếu',
      'Ghi chú',
    ]);
    expect(rows).toHaveLength(meta.total);
    const amounts = rows.map((r) => r[3]!);
    expect(sumOf(amounts, 1)).toBe(meta.sums.money_in);
    expect(sumOf(amounts, -1)).toBe(meta.sums.money_out);
    // Newest first as the list; times in Shanghai; labels in Vietnamese.
    expect(rows[0]!.slice(1, 4)).toEqual(['2026-03-05 23:30:00', 'Chuyển tiền vào', '7.77']);
    expect(rows.at(-1)![1]).toBe('2026-03-01 10:00:00');
    // Formula text neutralised; our negative amounts stay plain numbers; Chinese and Vietnamese intact.
    const notes = rows.map((r) => r[7]);
    for (const note of NOTES) expect(notes).toContain(/^[=+\-@\t\r]/.test(note) ? `'${note}` : note);
    expect(amounts.filter((a) => a.startsWith('-'))).toEqual(['-12.57', '-12.55', '-12.53', '-12.51']);
    expect(download.rawPayload.toString('utf8')).toContain(',-12.51,');
  });

  it('writes the same rows to XLSX: numeric amounts, neutralised text, continued on more sheets', async () => {
    const list = (
      await finance.get(`/api/merchant/fund-flows?${new URLSearchParams(FILTERS)}`, SHANGHAI)
    ).json();
    const task = await exported(finance, {
      kind: 'fund_flows',
      format: 'xlsx',
      filters: FILTERS,
      locale: 'zh-cn',
    });
    expect(task).toMatchObject({ status: 'success', row_count: list.meta.total, sums: list.meta.sums });

    const download = await finance.get(`/api/merchant/exports/${task.id}/download`);
    expect(download.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const sheets = await readXlsxFile(download.rawPayload);
    expect(sheets.map((s) => s.sheet)).toEqual(['资金流水', '资金流水 (2)', '资金流水 (3)']);
    for (const s of sheets)
      expect(s.data[0]).toEqual([
        '流水号',
        '时间',
        '交易类型',
        '交易金额',
        '交易后余额',
        '币种',
        '关联单号',
        '备注',
      ]);
    const rows = sheets.flatMap((s) => s.data.slice(1));
    expect(rows).toHaveLength(list.meta.total);
    expect(rows.slice(0, list.data.length).map((r) => r[0])).toEqual(
      list.data.map((f: { id: number }) => f.id),
    );
    const amounts = rows.map((r) => r[3]);
    expect(amounts.every((a) => typeof a === 'number')).toBe(true);
    expect(amounts.filter((a) => (a as number) < 0)).toEqual([-12.57, -12.55, -12.53, -12.51]);
    const notes = rows.map((r) => String(r[7] ?? ''));
    expect(notes).toContain('代收结算 上海分行');
    expect(notes).toContain('Thanh toán cho Nguyễn Văn Ấn, "quoted"');
    // XML's specials, a line break and backslashes arrive as written; a control character XML cannot carry
    // is left out.
    expect(notes).toContain('Line one\nline two <b>&amp;</b> C:\\path\\x');
    expect(notes).toContain(`'=HYPERLINK("http://evil.example","click")`);
    expect(notes).toContain("'+1+2");
    expect(notes).toContain("'-2+3");
    expect(notes).toContain("'@SUM(A1:A9)");
    expect(notes.filter((n) => n.startsWith("'") && /indented|returned/.test(n))).toHaveLength(2);
    expect(rows[0]![2]).toBe('资金转入');
  });

  it('writes times in a zone given as a UTC offset as in the named zone (an offset is not a POSIX zone)', async () => {
    for (const format of ['csv', 'xlsx'] as const) {
      const body = { kind: 'fund_flows', format, filters: FILTERS, locale: 'en' };
      const byOffset = await exported(finance, body, { 'x-timezone': '+08:00' });
      const byName = await exported(finance, body, SHANGHAI);
      const west = await exported(finance, body, { 'x-timezone': 'UTC-3' });
      const times = async (task: ExportTask) => {
        const file = (await finance.get(`/api/merchant/exports/${task.id}/download`)).rawPayload;
        if (format === 'csv')
          return csvRecords(file)
            .slice(1)
            .map((r) => r[1]);
        return (await readXlsxFile(file)).flatMap((s) => s.data.slice(1).map((r) => r[1]));
      };
      expect(await times(byOffset)).toEqual(await times(byName));
      expect((await times(byName))[0]).toBe('2026-03-05 23:30:00');
      // The same dates 11 hours west take in 5 March 16:30 UTC (already 6 March in Shanghai): 13:30 there.
      expect((await times(west))[0]).toBe('2026-03-05 13:30:00');
    }
  });

  it('reads a filter with quotes and backslashes as a value (the COPY statement carries it as a literal)', async () => {
    for (const format of ['csv', 'xlsx'] as const) {
      const injected = await exported(finance, {
        kind: 'fund_flows',
        format,
        filters: { ref_no: "REF1' or '1'='1" },
      });
      expect(injected).toMatchObject({ status: 'success', row_count: 0 });
      const backslash = await exported(finance, {
        kind: 'fund_flows',
        format,
        filters: { ref_no: 'REF2\\' },
      });
      expect(backslash).toMatchObject({ status: 'success', row_count: 0 });
      const exact = await exported(finance, { kind: 'fund_flows', format, filters: { ref_no: 'REF2' } });
      expect(exact).toMatchObject({ status: 'success', row_count: 1 });
    }
  });

  it('exports the rows the filter matched when the task was created, not rows added after', async () => {
    const filters = { start_time: '2026-03-01', end_time: '2026-03-31' };
    const created = await createExport(finance, { kind: 'fund_flows', format: 'csv', filters });
    const task = created.json().data as ExportTask;
    await post('transfer_in', 4242n, new Date('2026-03-06T04:00:00Z'), 'arrived while waiting');
    await run(task.id);
    const done = await taskOf(finance, task.id);
    expect(done.row_count).toBe(task.rows_expected);
    const rows = csvRecords(
      (await finance.get(`/api/merchant/exports/${task.id}/download`)).rawPayload,
    ).slice(1);
    expect(rows).toHaveLength(task.rows_expected);
    expect(rows.map((r) => r[7])).not.toContain('arrived while waiting');
    // The list itself has it now.
    const list = (
      await finance.get(`/api/merchant/fund-flows?${new URLSearchParams(filters)}`, SHANGHAI)
    ).json();
    expect(list.meta.total).toBe(task.rows_expected + 1);
  });
});

describe('who may export and download', () => {
  it("answers 404 for another merchant's export, and lists only the merchant's own", async () => {
    const task = await exported(finance, { kind: 'fund_flows', format: 'csv', filters: {} });
    const other = await createMerchant(db, { roles: ['ROOT'] });
    const stranger = await loginAs(ctx.app, other.users.ROOT!.email, TEST_PASSWORD);
    for (const url of [`/api/merchant/exports/${task.id}`, `/api/merchant/exports/${task.id}/download`]) {
      const response = await stranger.get(url);
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    expect((await stranger.post(`/api/merchant/exports/${task.id}/retry`)).statusCode).toBe(404);
    expect((await stranger.get('/api/merchant/exports')).json().meta.total).toBe(0);
    expect((await finance.get('/api/merchant/exports/abc/download')).statusCode).toBe(404);
  });

  it("needs export:create and the list's own permission to create; export:view to list and download", async () => {
    const operator = await loginAs(ctx.app, emails.OPERATOR!, TEST_PASSWORD);
    const viewer = await loginAs(ctx.app, emails.VIEWER!, TEST_PASSWORD);
    const before = (await finance.get('/api/merchant/exports')).json().meta.total;

    // OPERATOR exports but cannot see Funds; VIEWER sees everything but creates nothing.
    expect((await createExport(operator, { kind: 'fund_flows', format: 'csv' })).statusCode).toBe(403);
    expect((await createExport(operator, { kind: 'collections', format: 'xlsx' })).statusCode).toBe(201);
    expect((await createExport(viewer, { kind: 'collections', format: 'csv' })).statusCode).toBe(403);

    const listed = await viewer.get('/api/merchant/exports?per_page=100');
    expect(listed.statusCode).toBe(200);
    const done = (listed.json().data as ExportTask[]).find((t) => t.status === 'success')!;
    expect((await viewer.get(`/api/merchant/exports/${done.id}/download`)).statusCode).toBe(200);
    expect((await viewer.post(`/api/merchant/exports/${done.id}/retry`)).statusCode).toBe(403);

    const anonymous = await new (await import('../helpers/client.ts')).TestClient(ctx.app).get(
      '/api/merchant/exports',
    );
    expect(anonymous.statusCode).toBe(401);
    // OPERATOR's collections export is not FINANCE's to see (export-visibility.test.ts): its total is unchanged.
    expect((await finance.get('/api/merchant/exports')).json().meta.total).toBe(before);
  });

  it('refuses a bad kind, format or filter with 422 and creates nothing', async () => {
    const before = (await finance.get('/api/merchant/exports')).json().meta.total;
    const cases = [
      { kind: 'everything', format: 'csv' },
      { kind: 'fund_flows', format: 'pdf' },
      { kind: 'fund_flows', format: 'csv', filters: { type: 'bogus' } },
      { kind: 'fund_flows', format: 'csv', filters: { start_time: '2026-03-05', end_time: '2026-03-01' } },
      { kind: 'fund_flows', format: 'csv', locale: 'fr' },
      { kind: 'recharges', format: 'csv', filters: { status: 'bogus' } },
      { kind: 'recharges', format: 'xlsx', filters: { network: 'BTC' } },
      { kind: 'withdrawals', format: 'csv', filters: { status: 'bogus' } },
      { kind: 'withdrawals', format: 'csv', filters: { start_time: '2026-03-05', end_time: '2026-03-01' } },
      { kind: 'daily_reports', format: 'csv', filters: { start_date: '2026-03-05', end_date: '2026-03-01' } },
      {
        kind: 'daily_reports',
        format: 'xlsx',
        filters: { start_date: '2025-01-01', end_date: '2026-03-01' },
      },
      { kind: 'daily_reports', format: 'csv', filters: { end_date: 'yesterday' } },
    ];
    for (const body of cases) {
      const response = await createExport(finance, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().message).toBeTruthy();
    }
    const badFilter = await createExport(finance, {
      kind: 'fund_flows',
      format: 'csv',
      filters: { type: 'bogus' },
    });
    expect(Object.keys(badFilter.json().errors)).toEqual(['filters.type']);
    expect((await finance.get('/api/merchant/exports')).json().meta.total).toBe(before);
  });
});

describe('failures, retries, expiry and the running limit', () => {
  it('keeps why a task failed, refuses its download, and runs it again on retry', async () => {
    failNextPut = true;
    const failed = await exported(finance, { kind: 'fund_flows', format: 'xlsx', filters: FILTERS });
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The file could not be written. Please retry.');
    const download = await finance.get(`/api/merchant/exports/${failed.id}/download`);
    expect(download.statusCode).toBe(409);
    expect(download.json().code).toBe('export_not_ready');

    const retried = await finance.post(`/api/merchant/exports/${failed.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toMatchObject({ status: 'waiting', error: null });
    await run(failed.id);
    const done = await taskOf(finance, failed.id);
    expect(done.status).toBe('success');
    expect((await finance.get(`/api/merchant/exports/${failed.id}/download`)).statusCode).toBe(200);

    const again = await finance.post(`/api/merchant/exports/${failed.id}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('export_not_retryable');
  });

  it('deletes the file 7 days after it was written; the task stays listed without a download', async () => {
    const task = await exported(finance, { kind: 'fund_flows', format: 'csv', filters: FILTERS });
    const [row] = await queryRows<{ file_key: string }>(
      db,
      sql`select file_key from export_tasks where id = ${task.id}`,
    );
    expect(await storage.stat(row!.file_key)).not.toBeNull();
    expect(new Date(task.expires_at!).getTime() - new Date(task.finished_at!).getTime()).toBe(7 * 86_400_000);

    clock = new Date(clock.getTime() + 7 * 86_400_000 - 60_000);
    await ctx.app.services.housekeeping();
    expect(await storage.stat(row!.file_key)).not.toBeNull();

    clock = new Date(clock.getTime() + 120_000);
    await ctx.app.services.housekeeping();
    expect(await storage.stat(row!.file_key)).toBeNull();
    finance = await loginAs(ctx.app, emails.FINANCE!, TEST_PASSWORD);
    expect(await taskOf(finance, task.id)).toMatchObject({ status: 'success', expired: true });
    const download = await finance.get(`/api/merchant/exports/${task.id}/download`);
    expect(download.statusCode).toBe(410);
    expect(download.json().code).toBe('export_expired');
  });

  it('runs at most 2 exports of a merchant at once; the next starts when one ends', async () => {
    let release: () => void = () => undefined;
    gate = new Promise<void>((resolve) => (release = resolve));
    let puts = 0;
    const twoWriting = new Promise<void>((resolve) => {
      onPut = () => {
        puts += 1;
        if (puts === 2) resolve();
      };
    });
    // A merchant of its own, with no other export waiting.
    const busy = await createMerchant(db, { roles: ['FINANCE'] });
    const client = await loginAs(ctx.app, busy.users.FINANCE!.email, TEST_PASSWORD);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await createExport(client, { kind: 'fund_flows', format: 'csv', filters: FILTERS });
      ids.push((created.json().data as ExportTask).id);
    }
    const first = run(ids[0]!);
    const second = run(ids[1]!);
    await twoWriting;
    await run(ids[2]!);
    expect((await taskOf(client, ids[0]!)).status).toBe('exporting');
    expect((await taskOf(client, ids[1]!)).status).toBe('exporting');
    expect((await taskOf(client, ids[2]!)).status).toBe('waiting');

    gate = null;
    release();
    await Promise.all([first, second]);
    // The export that ended sent the waiting one's job again.
    const jobs = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from pgboss.job where name = 'export.run' and (data->>'id')::bigint = ${ids[2]}`,
    );
    expect(Number(jobs[0]!.n)).toBeGreaterThanOrEqual(2);
    await run(ids[2]!);
    expect((await taskOf(client, ids[2]!)).status).toBe('success');
  });
});

describe('an export whose process died', () => {
  it('is failed by housekeeping after 10 minutes without progress, can be retried, and its late file is dropped', async () => {
    const lone = await createMerchant(db, { roles: ['FINANCE'] });
    const client = await loginAs(ctx.app, lone.users.FINANCE!.email, TEST_PASSWORD);
    const created = await createExport(client, { kind: 'fund_flows', format: 'csv', filters: {} });
    const id = (created.json().data as ExportTask).id;
    let release: () => void = () => undefined;
    gate = new Promise<void>((resolve) => (release = resolve));
    const writing = new Promise<void>((resolve) => (onPut = resolve));
    const stuck = run(id);
    await writing;
    expect((await taskOf(client, id)).status).toBe('exporting');

    clock = new Date(clock.getTime() + 11 * 60_000);
    await ctx.app.services.housekeeping();
    const interrupted = await taskOf(client, id);
    expect(interrupted).toMatchObject({
      status: 'failed',
      error: 'The export was interrupted. Please retry.',
    });

    gate = null;
    release();
    await stuck;
    const [row] = await queryRows<{ status: string; file_key: string | null }>(
      db,
      sql`select status, file_key from export_tasks where id = ${id}`,
    );
    expect(row).toEqual({ status: 'failed', file_key: null });

    expect((await client.post(`/api/merchant/exports/${id}/retry`)).statusCode).toBe(200);
    await run(id);
    expect((await taskOf(client, id)).status).toBe('success');
  });
});

describe('every list exports what it shows', () => {
  it('every kind of the demo merchant: count and sums equal meta', async () => {
    // The demo data needs an empty database: an app of its own (with its top-ups' screenshots stored).
    const demo = await createDemoTestApp();
    try {
      await exportsEveryList(demo);
    } finally {
      await demo.close();
    }
  });
});

/** The demo merchant's local date (Asia/Shanghai) `days` days before today. */
const daysAgo = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Asia/Shanghai' });

async function exportsEveryList(demo: TestContext) {
  const root = await loginAs(demo.app, DEMO_USERS[0]!.email, DEMO_PASSWORD);
  // `first`: the list's field in the file's first column: the file's first row is the list's first (newest).
  // The demo's orders are test data (the sandbox serves test mode only); its top-ups and withdrawals are live.
  const lists: {
    kind: string;
    url: string;
    filters: Record<string, string>;
    first?: string;
    mode?: 'live';
  }[] = [
    { kind: 'collections', url: '/api/merchant/collections', filters: { status: 'paid' } },
    { kind: 'collections', url: '/api/merchant/collections', filters: {} },
    { kind: 'settlements', url: '/api/merchant/settlements', filters: {} },
    { kind: 'payouts', url: '/api/merchant/payouts', filters: {} },
    { kind: 'payouts', url: '/api/merchant/payouts', filters: { status: 'failed' } },
    { kind: 'fund_flows', url: '/api/merchant/fund-flows', filters: { type: 'collection_settlement' } },
    { kind: 'recharges', url: '/api/merchant/recharges', filters: {}, first: 'recharge_no', mode: 'live' },
    { kind: 'recharges', url: '/api/merchant/recharges', filters: { status: 'approved' }, mode: 'live' },
    {
      kind: 'withdrawals',
      url: '/api/merchant/withdrawals',
      filters: {},
      first: 'withdrawal_no',
      mode: 'live',
    },
    { kind: 'withdrawals', url: '/api/merchant/withdrawals', filters: { status: 'rejected' }, mode: 'live' },
    { kind: 'daily_reports', url: '/api/merchant/daily-reports', filters: {}, first: 'date' },
    { kind: 'daily_reports', url: '/api/merchant/daily-reports', filters: { start_date: daysAgo(6) } },
    { kind: 'daily_reports', url: '/api/merchant/daily-reports', filters: { end_date: daysAgo(3) } },
  ];
  for (const list of lists) {
    const headers = { ...SHANGHAI, 'x-mode': list.mode ?? 'test' };
    const shown = (await root.get(`${list.url}?${new URLSearchParams(list.filters)}`, headers)).json();
    expect(shown.meta.mode, list.kind).toBe(list.mode ?? 'test');
    const meta = shown.meta;
    expect(meta.total, list.kind).toBeGreaterThan(0);
    for (const format of ['csv', 'xlsx']) {
      const created = await createExport(root, { kind: list.kind, format, filters: list.filters }, headers);
      expect(created.statusCode, created.body).toBe(201);
      await demo.app.services.exports.run((created.json().data as ExportTask).id);
      const task = await taskOf(root, (created.json().data as ExportTask).id, headers);
      expect(task.status, `${list.kind} ${format}: ${task.error}`).toBe('success');
      expect(task.row_count, list.kind).toBe(meta.total);
      // The count is the file's rows; other sums are decimal strings (the daily reports' counts too).
      const { count: _count, ...sums } = meta.sums as Record<string, string | number>;
      expect(task.sums, list.kind).toEqual(
        Object.fromEntries(Object.entries(sums).map(([key, value]) => [key, String(value)])),
      );
      const file = (await root.get(`/api/merchant/exports/${task.id}/download`, headers)).rawPayload;
      if (!list.mode) {
        // The console's link sends no X-Mode: a test export says its mode in the query, else it is not found.
        const byLink = (query: string) => root.get(`/api/merchant/exports/${task.id}/download${query}`);
        expect((await byLink('?mode=test')).rawPayload.equals(file), list.kind).toBe(true);
        expect((await byLink('')).statusCode, list.kind).toBe(404);
      }
      const rows =
        format === 'csv'
          ? csvRecords(file).length - 1
          : (await readXlsxFile(file)).reduce((n, s) => n + s.data.length - 1, 0);
      expect(rows, `${list.kind} ${format}`).toBe(meta.total);
      if (list.first && format === 'csv')
        expect(csvRecords(file)[1]![0], list.kind).toBe(shown.data[0][list.first]);
    }
  }
}
