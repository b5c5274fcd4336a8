import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportKind, ExportTask } from '@paydesk/shared/exports/exports.schemas.ts';
import { queryRows } from '../../src/db/client.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// DESIGN 9 (turn 3): an export is visible only to users who hold the view permission of the list it was
// made from as well as export:view; to anyone else it does not exist (absent from the list and its
// total, 404 on its detail, download and retry).

let ctx: TestContext;
let clients: Record<'ROOT' | 'FINANCE' | 'OPERATOR' | 'VIEWER', TestClient>;
/** The merchant's tasks by kind: FINANCE's fund flows, top-ups and withdrawals, OPERATOR's collections (FINANCE sees payouts: it approves them, DESIGN 16). */
const tasks: Partial<Record<ExportKind, ExportTask>> = {};

async function exportAs(client: TestClient, kind: ExportKind): Promise<ExportTask> {
  const created = await client.post('/api/merchant/exports', { kind, format: 'csv', filters: {} });
  expect(created.statusCode, created.body).toBe(201);
  const task = created.json().data as ExportTask;
  await ctx.app.services.exports.run(task.id);
  return task;
}

async function listed(client: TestClient, query = 'per_page=100') {
  const response = await client.get(`/api/merchant/exports?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: ExportTask[]; meta: { total: number } };
}

beforeAll(async () => {
  ctx = await createTestApp();
  const { users } = await createMerchant(ctx.database.db, {
    roles: ['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'],
  });
  clients = {
    ROOT: await loginAs(ctx.app, users.ROOT!.email, TEST_PASSWORD),
    FINANCE: await loginAs(ctx.app, users.FINANCE!.email, TEST_PASSWORD),
    OPERATOR: await loginAs(ctx.app, users.OPERATOR!.email, TEST_PASSWORD),
    VIEWER: await loginAs(ctx.app, users.VIEWER!.email, TEST_PASSWORD),
  };
  for (const kind of ['fund_flows', 'recharges', 'withdrawals'] as const) {
    tasks[kind] = await exportAs(clients.FINANCE, kind);
  }
  tasks.collections = await exportAs(clients.OPERATOR, 'collections');
  // One of FINANCE's exports failed (as a full disk would leave it), so retry has something to act on.
  await queryRows(
    ctx.database.db,
    sql`update export_tasks set status = 'failed', error = 'The file could not be written. Please retry.',
        file_key = null, finished_at = now() where id = ${tasks.withdrawals!.id}`,
  );
});
afterAll(() => ctx?.close());

describe("who sees an export: the list's view permission and export:view", () => {
  it("lists to OPERATOR only its collections export, and counts only that one in the list's total", async () => {
    const operator = await listed(clients.OPERATOR);
    expect(operator.data.map((t) => t.kind)).toEqual(['collections']);
    expect(operator.meta.total).toBe(1);
    // Paging counts the same set: a page of one holds the collections export, the second page is empty.
    const firstPage = await listed(clients.OPERATOR, 'per_page=1&page=1');
    expect(firstPage.data.map((t) => t.kind)).toEqual(['collections']);
    expect(firstPage.meta.total).toBe(1);
    expect((await listed(clients.OPERATOR, 'per_page=1&page=2')).data).toEqual([]);
  });

  it("answers 404 to OPERATOR on FINANCE's exports: detail, download and retry", async () => {
    for (const kind of ['fund_flows', 'recharges', 'withdrawals'] as const) {
      const id = tasks[kind]!.id;
      for (const url of [`/api/merchant/exports/${id}`, `/api/merchant/exports/${id}/download`]) {
        const response = await clients.OPERATOR.get(url);
        expect(response.statusCode, `${kind} ${url}`).toBe(404);
        expect(response.json()).toMatchObject({ code: 'not_found', message: 'The export was not found.' });
        expect(response.body).not.toContain('"sums"');
      }
    }
    const retry = await clients.OPERATOR.post(`/api/merchant/exports/${tasks.withdrawals!.id}/retry`);
    expect(retry.statusCode).toBe(404);
    expect(retry.json().code).toBe('not_found');
    const [row] = await queryRows<{ status: string }>(
      ctx.database.db,
      sql`select status from export_tasks where id = ${tasks.withdrawals!.id}`,
    );
    expect(row!.status).toBe('failed');
  });

  it("lists to FINANCE its own three kinds, and answers 404 on OPERATOR's collections export", async () => {
    const finance = await listed(clients.FINANCE);
    expect(finance.data.map((t) => t.kind).sort()).toEqual(['fund_flows', 'recharges', 'withdrawals']);
    expect(finance.meta.total).toBe(3);
    const id = tasks.collections!.id;
    for (const url of [`/api/merchant/exports/${id}`, `/api/merchant/exports/${id}/download`]) {
      const response = await clients.FINANCE.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    expect(
      (await clients.FINANCE.get(`/api/merchant/exports/${tasks.fund_flows!.id}/download`)).statusCode,
    ).toBe(200);
  });

  it('shows VIEWER and ROOT every kind their permissions cover (all four here)', async () => {
    for (const role of ['VIEWER', 'ROOT'] as const) {
      const all = await listed(clients[role]);
      expect(all.data.map((t) => t.kind).sort(), role).toEqual([
        'collections',
        'fund_flows',
        'recharges',
        'withdrawals',
      ]);
      expect(all.meta.total).toBe(4);
      const download = await clients[role].get(`/api/merchant/exports/${tasks.collections!.id}/download`);
      expect(download.statusCode, role).toBe(200);
    }
    // ROOT may retry FINANCE's failed export: it sees it and may create its kind.
    const retry = await clients.ROOT.post(`/api/merchant/exports/${tasks.withdrawals!.id}/retry`);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().data.status).toBe('waiting');
  });

  it('refuses with 403 an export of a kind whose list the user cannot view, and creates nothing', async () => {
    const before = (await listed(clients.ROOT)).meta.total;
    for (const kind of ['fund_flows', 'recharges', 'withdrawals', 'daily_reports'] as const) {
      const response = await clients.OPERATOR.post('/api/merchant/exports', { kind, format: 'csv' });
      expect(response.statusCode, kind).toBe(403);
      expect(response.json().message).toBeTruthy();
    }
    for (const kind of ['collections', 'settlements'] as const) {
      const response = await clients.FINANCE.post('/api/merchant/exports', { kind, format: 'csv' });
      expect(response.statusCode, kind).toBe(403);
    }
    expect((await listed(clients.ROOT)).meta.total).toBe(before);
  });
});
