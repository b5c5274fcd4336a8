import type { JobRunner } from '../db/jobs.ts';
import type { CallbacksService } from '../modules/callbacks/index.ts';
import type { CollectionsService, SettlementsService } from '../modules/collections/index.ts';
import type { ExportsService } from '../modules/exports/index.ts';
import type { PayoutsService } from '../modules/payouts/index.ts';
import type { DailyReportsService } from '../modules/reports/index.ts';
import type { SandboxService } from '../modules/sandbox/index.ts';

export type JobServices = {
  collections: CollectionsService;
  settlements: SettlementsService;
  payouts: PayoutsService;
  callbacks: CallbacksService;
  sandbox: SandboxService;
  housekeeping: () => Promise<void>;
  exports: ExportsService;
  dailyReports: DailyReportsService;
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Every queue's work (DESIGN section 2); each step is idempotent, so a job that runs twice is harmless. */
export async function startWorkers(
  jobs: JobRunner,
  services: JobServices,
  pollingSeconds = 1,
): Promise<void> {
  await jobs.work(
    {
      'collection.expire': async (data) => {
        await services.collections.expire(text(data.trade_no));
      },
      'callback.deliver': async (data) => {
        await services.callbacks.attempt(text(data.id));
      },
      'settlement.run': async () => {
        await services.settlements.run();
      },
      // The sandbox channel: collections (C...) in auto mode, payouts (P...) always.
      'sandbox.complete': async (data) => {
        await services.sandbox.autoComplete(text(data.trade_no));
      },
      housekeeping: () => services.housekeeping(),
      'export.run': async (data) => {
        await services.exports.run(Number(data.id));
      },
      'reports.keep-days': async () => {
        await services.dailyReports.keepFinishedDays();
      },
    },
    { pollingSeconds },
  );
  // In UTC; each run settles what its channels' cycles allow in their merchants' time zones.
  await jobs.schedule('settlement.run', '*/10 * * * *');
  await jobs.schedule('housekeeping', '*/10 * * * *');
  // Days end at a different UTC hour in each merchant's zone (and on the half hour in some).
  await jobs.schedule('reports.keep-days', '15,45 * * * *');
}
