import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { JobQueue } from './db/jobs.ts';
import type { FileStorage } from './lib/storage/index.ts';
import type { SessionStarter } from './modules/auth/index.ts';
import type { MailService } from './modules/mail/index.ts';
import type { NotificationsService } from './modules/notifications/index.ts';
import type { Guards } from './plugins/auth-context.ts';

/** What buildApp hands to each module's register function. */
export type AppContext = {
  config: Config;
  database: Database;
  db: Db;
  sessions: SessionStarter;
  guards: Guards;
  /** Enqueue background work inside the caller's transaction. */
  jobs: JobQueue;
  /** The clock every rule of time reads (expiry, signatures' window, retries); tests inject theirs. */
  now: () => Date;
  /** In [0, 1): routing's share by weight (DESIGN 14); tests inject theirs. Crypto-random when absent. */
  random?: () => number;
  /** Screenshots and export files: local disk or S3 (lib/storage). */
  storage: FileStorage;
  /** Email (DESIGN 16): `mail.queue(tx, {to, locale, template, params})` in the caller's transaction. */
  mail: MailService;
  /** `notifications.notifyRoots(tx, {merchantId, type, params})`: the ROOT users' bell rows and emails. */
  notifications: NotificationsService;
};

/** What an order's service takes of the app (collections, payouts, refunds, settlements): the database,
 * jobs, the clock and the channel adapters' settings. */
export const orderServiceContext = (ctx: AppContext) => ({
  db: ctx.db,
  jobs: ctx.jobs,
  now: ctx.now,
  adapterSettings: { sandboxEnabled: ctx.config.sandboxEnabled },
});
