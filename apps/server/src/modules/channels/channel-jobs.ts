import { randomInt } from 'node:crypto';
import type { Db, Tx } from '../../db/client.ts';
import type { JobInsert, JobQueue, QueueName } from '../../db/jobs.ts';
import { sql } from 'drizzle-orm';
import type { ChannelPorts, FollowUp, InFlightOrder } from './adapters/adapter.ts';
import { adapterFor, allAdapters } from './adapters/registry.ts';
import { channelsRepository } from './channels.repository.ts';
import { openChannelSecrets } from './channels.service.ts';

// The adapters' own background work (their follow-up jobs): jobs/workers.ts runs every queue an adapter
// declares through here, and the adapter drives our orders through the ports below, never a service
// import (the services import the channels module, so the arrow points one way).

const optionsOf = (followUp: FollowUp) => (followUp.startAfter ? { startAfter: followUp.startAfter } : {});

/** Sends an adapter's follow-up job, if it asked for one, in the transaction of the order that caused it. */
export async function sendFollowUp(jobs: JobQueue, tx: Tx, followUp: FollowUp | undefined): Promise<void> {
  if (followUp) await jobs.send(tx, followUp.queue, followUp.data, optionsOf(followUp));
}

/** The statement that sends the follow-up job, for an order written by one statement of its own. */
export async function followUpInsert(
  jobs: JobQueue,
  followUp: FollowUp | undefined,
): Promise<JobInsert | undefined> {
  return followUp ? jobs.insertOf(followUp.queue, followUp.data, optionsOf(followUp)) : undefined;
}

/**
 * How long a payout or refund stays in flight before the housekeeping sweep looks for a job of it: longer
 * than a job's own retries last (5 retries 15 s apart doubling: about 8 minutes) plus the 15 minutes pg-boss
 * lets a job run before it counts as failed, so an order whose job is still trying is never sent twice;
 * short enough that a refund's hold is not kept for hours after its provider came back.
 */
export const RESUME_AFTER_MS = 30 * 60_000;
/** At most this many orders of each kind per sweep, oldest first (the next sweep takes the rest). */
const RESUME_BATCH = 1000;
/** The sweep's advisory lock: two sweeps at once would each find an order without a job and send two. */
const RESUME_LOCK = 0x72_65_73_75; // "resu"

type InFlight = InFlightOrder & { provider: string };

type Deps = Omit<ChannelPorts, 'findChannel' | 'send' | 'random' | 'secretsOf'> & {
  db: Db;
  jobs: JobQueue;
  /** APP_KEY: channels' secrets are kept encrypted under it. */
  appKey: Buffer;
  random?: () => number;
  /** Orders in flight since before a time, on channels of these providers (resumeInFlight). */
  inFlight: {
    payouts: (providers: readonly string[], before: Date, limit: number) => Promise<InFlight[]>;
    refunds: (providers: readonly string[], before: Date, limit: number) => Promise<InFlight[]>;
  };
};

export type ChannelJobs = ReturnType<typeof createChannelJobs>;

export function createChannelJobs({
  db,
  jobs,
  random = () => randomInt(0, 1_000_000) / 1_000_000,
  appKey,
  inFlight,
  ...rest
}: Deps) {
  const ports: ChannelPorts = {
    ...rest,
    random,
    secretsOf: (channel) => openChannelSecrets(appKey, channel),
    findChannel: (id) => channelsRepository.findById(db, id),
    send: (followUp) => db.transaction((tx) => sendFollowUp(jobs, tx, followUp)),
  };
  // A queue's owner by its provider's name, so an adapter a test puts in its place (useAdapter) runs it.
  const owners = new Map(
    allAdapters().flatMap((adapter) => adapter.queues.map((queue) => [queue, adapter.provider])),
  );
  return {
    /** The queues the adapters' jobs run on. */
    queues: [...owners.keys()] as QueueName[],
    /** One job of an adapter's queue (idempotent: a job may run twice). */
    run: async (queue: QueueName, data: Record<string, unknown>): Promise<void> => {
      const provider = owners.get(queue);
      if (!provider) throw new Error(`No channel adapter works the queue ${queue}.`);
      await adapterFor(provider).runJob(queue, data, ports);
    },
    /**
     * The housekeeping sweep: payouts and refunds in flight for RESUME_AFTER_MS or more with no job left
     * to look at them (their jobs' retries ran out while the provider was down) get their adapter's
     * resumeFollowUp job, so the provider's answer ends them (a refund's hold captured or released).
     * Idempotent: an order with a job still waiting, retrying or running is left to it, and two sweeps
     * take turns. Answers how many it sent.
     */
    resumeInFlight: async (now: Date): Promise<number> => {
      const providers = allAdapters()
        .filter((adapter) => adapter.resumeFollowUp)
        .map((adapter) => adapter.provider);
      if (providers.length === 0) return 0;
      const before = new Date(now.getTime() - RESUME_AFTER_MS);
      const orders = [
        ...(await inFlight.payouts(providers, before, RESUME_BATCH)),
        ...(await inFlight.refunds(providers, before, RESUME_BATCH)),
      ];
      if (orders.length === 0) return 0;
      const queues = [...owners.keys()] as QueueName[];
      const resumed = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${RESUME_LOCK})`);
        const waiting = {
          payout: await jobs.waitingFor(tx, queues, 'trade_no'),
          refund: await jobs.waitingFor(tx, queues, 'refund_no'),
        };
        const sent: string[] = [];
        for (const order of orders) {
          if (waiting[order.kind].has(order.number)) continue;
          const followUp = adapterFor(order.provider).resumeFollowUp?.(order);
          if (!followUp) continue;
          await sendFollowUp(jobs, tx, followUp);
          sent.push(order.number);
        }
        return sent;
      });
      if (resumed.length > 0)
        rest.warn(
          { orders: resumed },
          `${resumed.length} payouts and refunds in flight had no job left; their provider is asked again.`,
        );
      return resumed.length;
    },
    ports,
  };
}
