import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportTask } from '@paydesk/shared/exports/exports.schemas.ts';
import { queryRows } from '../../src/db/client.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// DESIGN 9 (turn 3): one request must not start unbounded work. At most 10 export tasks wait (waiting or
// exporting) per merchant; a daily report export's range is capped as the list's (366 days, open end =
// today).

const clock = new Date('2026-05-10T12:00:00Z');
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, { now: () => clock });
});
afterAll(() => ctx?.close());

const db = () => ctx.database.db;

async function financeOfNewMerchant(): Promise<{ client: TestClient; merchantId: number }> {
  const { merchant, users } = await createMerchant(db(), { roles: ['FINANCE'] });
  return { client: await loginAs(ctx.app, users.FINANCE!.email, TEST_PASSWORD), merchantId: merchant.id };
}

const createExport = (client: TestClient, body: Record<string, unknown> = {}) =>
  client.post('/api/merchant/exports', { kind: 'fund_flows', format: 'csv', ...body });

async function tasksOf(merchantId: number): Promise<{ status: string }[]> {
  return queryRows<{ status: string }>(
    db(),
    sql`select status from export_tasks where merchant_id = ${merchantId} order by id`,
  );
}

describe('at most 10 exports wait per merchant', () => {
  it('answers the 11th with 429 too_many_exports and creates nothing; a finished one frees a place', async () => {
    const { client, merchantId } = await financeOfNewMerchant();
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      const created = await createExport(client);
      expect(created.statusCode, created.body).toBe(201);
      ids.push((created.json().data as ExportTask).id);
    }
    const refused = await createExport(client, { format: 'xlsx' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'too_many_exports',
      message: 'You already have 10 exports waiting. Please wait for one to finish, then export again.',
    });
    expect(await tasksOf(merchantId)).toHaveLength(10);
    expect((await client.get('/api/merchant/exports')).json().meta.total).toBe(10);

    // A running export still waits (for its file); one that finished, or failed, no longer does.
    await ctx.app.services.exports.run(ids[0]!);
    expect((await tasksOf(merchantId))[0]!.status).toBe('success');
    const next = await createExport(client);
    expect(next.statusCode, next.body).toBe(201);
    expect((await createExport(client)).statusCode).toBe(429);
    expect(await tasksOf(merchantId)).toHaveLength(11);
  });

  it('counts per merchant: another merchant exports while this one is full', async () => {
    const full = await financeOfNewMerchant();
    for (let i = 0; i < 10; i++) expect((await createExport(full.client)).statusCode).toBe(201);
    expect((await createExport(full.client)).statusCode).toBe(429);
    const other = await financeOfNewMerchant();
    expect((await createExport(other.client)).statusCode).toBe(201);
  });

  it('refuses to retry a failed export while 10 wait, and leaves it failed', async () => {
    const { client, merchantId } = await financeOfNewMerchant();
    const first = (await createExport(client)).json().data as ExportTask;
    await queryRows(
      db(),
      sql`update export_tasks set status = 'failed', error = 'The file could not be written. Please retry.',
          finished_at = now() where id = ${first.id}`,
    );
    for (let i = 0; i < 10; i++) expect((await createExport(client)).statusCode).toBe(201);
    const retry = await client.post(`/api/merchant/exports/${first.id}/retry`);
    expect(retry.statusCode).toBe(429);
    expect(retry.json().code).toBe('too_many_exports');
    expect((await tasksOf(merchantId))[0]!.status).toBe('failed');
  });

  it('lets exactly 10 of 16 concurrent creations through (the count and the insert are one step)', async () => {
    const { client, merchantId } = await financeOfNewMerchant();
    const answers = await Promise.all(Array.from({ length: 16 }, () => createExport(client)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    for (const refused of answers.filter((a) => a.statusCode === 429)) {
      expect(refused.json().code).toBe('too_many_exports');
    }
    expect(await tasksOf(merchantId)).toHaveLength(10);
  });
});

describe("a daily report export's range is capped as the list's", () => {
  it('refuses a start in 2000 without an end with 422 naming filters.start_date, computing nothing', async () => {
    const { client, merchantId } = await financeOfNewMerchant();
    const keptBefore = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from daily_reports`,
    );
    const refused = await createExport(client, {
      kind: 'daily_reports',
      filters: { start_date: '2000-01-01' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'validation_failed',
      errors: { 'filters.start_date': ['Choose at most 366 days.'] },
    });
    expect(await tasksOf(merchantId)).toHaveLength(0);
    const keptAfter = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from daily_reports`);
    expect(Number(keptAfter[0]!.n)).toBe(Number(keptBefore[0]!.n));
  });

  it('takes 366 days up to today without an end, and refuses 367', async () => {
    const { client } = await financeOfNewMerchant();
    // The merchant's zone is Asia/Shanghai (the default): 12:00 UTC is 20:00 there, today is 2026-05-10.
    const longest = await createExport(client, {
      kind: 'daily_reports',
      filters: { start_date: '2025-05-10' },
    });
    expect(longest.statusCode, longest.body).toBe(201);
    expect((longest.json().data as ExportTask).rows_expected).toBe(366);
    const tooLong = await createExport(client, {
      kind: 'daily_reports',
      filters: { start_date: '2025-05-09' },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(Object.keys(tooLong.json().errors)).toEqual(['filters.start_date']);
  });
});
