import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportTask } from '@paydesk/shared/exports/exports.schemas.ts';
import { createLedger } from '../../src/modules/ledger/index.ts';
import { workedQueues } from '../../src/jobs/workers.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { type ServerProcess, startExportWorker } from '../helpers/server-process.ts';
import { createTestApp, type TestContext, testDatabaseKind } from '../helpers/test-app.ts';

// Exports in their own small process (README, Running at scale): `npm run worker:exports` takes the
// export.run queue alone, with its npm script's heap caps, beside servers and workers whose JOB_QUEUES
// leave that queue out.

let ctx: TestContext | undefined;
let worker: ServerProcess | undefined;
afterAll(async () => {
  if (worker && worker.child.exitCode === null) worker.child.kill('SIGKILL');
  await ctx?.close();
});

describe('JOB_QUEUES', () => {
  it('names the queues a process works, and refuses a name it does not know', () => {
    expect(workedQueues(null)).toContain('export.run');
    expect(workedQueues(['callback.deliver', 'housekeeping'])).toEqual(['callback.deliver', 'housekeeping']);
    expect(() => workedQueues(['callback.deliver', 'export.runn'])).toThrow(
      /JOB_QUEUES names unknown queues: export\.runn/,
    );
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('npm run worker:exports', () => {
  it('makes the file of an export created on a server that leaves exports to it', async () => {
    ctx = await createTestApp();
    const db = ctx.database.db;
    const { merchant, users } = await createMerchant(db, { roles: ['FINANCE'] });
    const ledger = createLedger();
    for (let i = 1; i <= 30; i++) {
      await db.transaction((tx) =>
        ledger.post(tx, {
          merchantId: merchant.id,
          type: 'transfer_in',
          amountMinor: BigInt(i * 100),
          refType: 'test',
          refId: String(i),
          note: i === 7 ? '=cmd|"/c calc"!A1' : `入账 ${i}`,
          idempotencyKey: `export-worker:${merchant.id}:${i}`,
        }),
      );
    }
    const finance = await loginAs(ctx.app, users.FINANCE!.email, TEST_PASSWORD);
    const created = await finance.post('/api/merchant/exports', {
      kind: 'fund_flows',
      format: 'csv',
      filters: {},
    });
    expect(created.statusCode, created.body).toBe(201);
    const task = created.json().data as ExportTask;
    expect(task.status).toBe('waiting');

    // The worker shares the files folder with the server (or both use S3), as deployed.
    worker = await startExportWorker({ DATABASE_URL: ctx.database.url, DATA_DIR: ctx.config.dataDir });
    const until = Date.now() + 60_000;
    let seen = task;
    while (seen.status !== 'success' && seen.status !== 'failed' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      seen = (await finance.get(`/api/merchant/exports/${task.id}`)).json().data as ExportTask;
    }
    expect(seen).toMatchObject({ status: 'success', row_count: 30 });

    const download = await finance.get(`/api/merchant/exports/${task.id}/download`);
    expect(download.statusCode).toBe(200);
    const rows = parse(download.rawPayload.subarray(3).toString('utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows).toHaveLength(30);
    expect(rows.some((row) => Object.values(row).includes('\'=cmd|"/c calc"!A1'))).toBe(true);
    expect(rows.some((row) => Object.values(row).includes('入账 30'))).toBe(true);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});
