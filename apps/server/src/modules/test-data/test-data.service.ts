import type { TestDataDeletion } from '@paydesk/shared/modes/modes.schemas.ts';
import { ERROR_CODES } from '@paydesk/shared';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { conflict } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage/index.ts';
import type { Ledger } from '../ledger/index.ts';
import {
  deleteTestObjects,
  deleteTestReportsAndExports,
  testDataRepository as repo,
  type TestDataDeletionRow,
} from './test-data.repository.ts';
import { creditStartingTestFunds } from './test-funds.ts';

export const TEST_DATA_QUEUE = 'test-data.delete';

/** How long a deletion waits for a test export being written before it looks again. */
const EXPORT_WAIT_MS = 30_000;

type Deps = {
  db: Db;
  jobs: JobQueue;
  storage: FileStorage;
  ledger: Pick<Ledger, 'post' | 'eraseTestHistory'>;
  now: () => Date;
};

export type TestDataService = ReturnType<typeof createTestDataService>;

/** Where the latest request stands: idle when there is none or it is done. */
const present = (row: TestDataDeletionRow | undefined): TestDataDeletion => ({
  status: row && row.status !== 'done' ? (row.status as 'queued' | 'running') : 'idle',
  requested_at: row?.requestedAt.toISOString() ?? null,
  finished_at: row?.finishedAt?.toISOString() ?? null,
});

/**
 * "Delete all test data" (DESIGN 12): a ROOT asks, a job deletes every test object of the merchant's test
 * twin (orders, settlements, callbacks, fund flows and their ledger entries, reports, exports) and gives it
 * fresh starting test funds. Its channels, keys and notify URL stay, and nothing of live mode is touched.
 */
export function createTestDataService({ db, jobs, storage, ledger, now }: Deps) {
  async function status(liveMerchantId: number): Promise<TestDataDeletion> {
    const twin = await repo.twinOf(db, liveMerchantId);
    return present(await repo.latest(db, twin.id));
  }

  /** Queues the deletion (a second request while one waits answers that one); 409 while a test export runs. */
  async function request(liveMerchantId: number, userId: number): Promise<TestDataDeletion> {
    const twin = await repo.twinOf(db, liveMerchantId);
    if ((await repo.runningExports(db, twin.id)) > 0) {
      throw conflict(
        'A test mode export is being written: delete the test data when it has finished.',
        ERROR_CODES.testDataBusy,
      );
    }
    await db.transaction(async (tx) => {
      const row = await repo.insert(tx, twin.id, userId, now());
      if (row) await jobs.send(tx, TEST_DATA_QUEUE, { id: row.id });
    });
    return present(await repo.latest(db, twin.id));
  }

  /** The job: idempotent (a done request does nothing; one stopped midway never committed and runs again). */
  async function run(id: number): Promise<void> {
    const request = await repo.find(db, id);
    if (!request || request.status === 'done') return;
    // An export asked for after the request reads the rows: the deletion waits for it, and asks again.
    if ((await repo.runningExports(db, request.merchantId)) > 0) {
      await db.transaction((tx) =>
        jobs.send(tx, TEST_DATA_QUEUE, { id }, { startAfter: new Date(now().getTime() + EXPORT_WAIT_MS) }),
      );
      return;
    }
    const started = await repo.start(db, id, now());
    if (!started) return;
    const files = await db.transaction(async (tx) => {
      await deleteTestObjects(tx, started.merchantId);
      await ledger.eraseTestHistory(tx, started.merchantId);
      const exportFiles = await deleteTestReportsAndExports(tx, started.merchantId);
      await creditStartingTestFunds(ledger, tx, await repo.merchant(tx, started.merchantId));
      await repo.finish(tx, id, now());
      return exportFiles;
    });
    // The files of deleted exports, once their rows are gone for good (a file left behind harms no one).
    await Promise.allSettled(files.map((key) => storage.delete(key)));
  }

  return { status, request, run };
}
