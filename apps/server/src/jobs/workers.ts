import { type JobHandler, type JobRunner, QUEUES, type QueueName } from '../db/jobs.ts';
import type { CallbacksService } from '../modules/callbacks/index.ts';
import type { CollectionsService, SettlementsService } from '../modules/collections/index.ts';
import type { ExportsService } from '../modules/exports/index.ts';
import type { PayoutsService } from '../modules/payouts/index.ts';
import type { DailyReportsService } from '../modules/reports/index.ts';
import type { ChannelJobs } from '../modules/channels/index.ts';
import type { TestDataService } from '../modules/test-data/index.ts';
import type { MailService } from '../modules/mail/index.ts';

export type JobServices = {
  collections: CollectionsService;
  settlements: SettlementsService;
  payouts: PayoutsService;
  callbacks: CallbacksService;
  channelJobs: ChannelJobs;
  housekeeping: () => Promise<void>;
  exports: ExportsService;
  dailyReports: DailyReportsService;
  testData: TestDataService;
  mail: Pick<MailService, 'deliver'>;
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The queues a process works: all, or those JOB_QUEUES names (an unknown name stops the start). */
export function workedQueues(names: string[] | null): QueueName[] {
  if (!names) return [...QUEUES];
  const unknown = names.filter((name) => !(QUEUES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`JOB_QUEUES names unknown queues: ${unknown.join(', ')} (known: ${QUEUES.join(', ')}).`);
  return names as QueueName[];
}

/** Every queue's work (DESIGN section 2); each step is idempotent, so a job that runs twice is harmless. */
export async function startWorkers(
  jobs: JobRunner,
  services: JobServices,
  { pollingSeconds = 1, queues = [...QUEUES] }: { pollingSeconds?: number; queues?: QueueName[] } = {},
): Promise<void> {
  const named: Partial<Record<QueueName, JobHandler>> = {
    // The expiry sweep (scheduled below). A job naming one order was queued per order by earlier versions.
    'collection.expire': async (data) => {
      if (data.trade_no) await services.collections.expire(text(data.trade_no));
      else await services.collections.expireOverdue();
    },
    'callback.deliver': async (data) => {
      // `at`: the time a retry or resend was scheduled for (a stale one does nothing).
      await services.callbacks.attempt(text(data.id), typeof data.at === 'string' ? data.at : undefined);
    },
    'settlement.run': async () => {
      await services.settlements.run();
    },
    housekeeping: () => services.housekeeping(),
    'export.run': async (data) => {
      await services.exports.run(Number(data.id));
    },
    'reports.keep-days': async () => {
      await services.dailyReports.keepFinishedDays();
    },
    'test-data.delete': async (data) => {
      await services.testData.run(Number(data.id));
    },
    // A mail server that refuses or does not answer throws: pg-boss retries (db/jobs.ts RETRY_POLICIES).
    'mail.send': async (data) => {
      await services.mail.deliver(data);
    },
  };
  // The channels' adapters' follow-up jobs: each adapter names its queues (the sandbox's completion).
  const handlers: Partial<Record<QueueName, JobHandler>> = { ...named };
  for (const queue of services.channelJobs.queues) {
    handlers[queue] = (data) => services.channelJobs.run(queue, data);
  }
  const unworked = queues.filter((queue) => !handlers[queue]);
  if (unworked.length > 0) throw new Error(`No handler for the queues ${unworked.join(', ')}.`);
  await jobs.work(Object.fromEntries(queues.map((queue) => [queue, handlers[queue]!])), { pollingSeconds });
  const schedules: Partial<Record<QueueName, string>> = {
    // Unpaid orders are closed within a minute of their expiry (they refuse payment from the second it).
    'collection.expire': '* * * * *',
    // In UTC; each run settles what its channels' cycles allow in their merchants' time zones.
    'settlement.run': '*/10 * * * *',
    housekeeping: '*/10 * * * *',
    // Days end at a different UTC hour in each merchant's zone (and on the half hour in some).
    'reports.keep-days': '15,45 * * * *',
  };
  for (const queue of queues) {
    const cron = schedules[queue];
    if (cron) await jobs.schedule(queue, cron);
  }
}
