import { randomInt } from 'node:crypto';
import type { Db, Tx } from '../../db/client.ts';
import type { JobInsert, JobQueue, QueueName } from '../../db/jobs.ts';
import type { ChannelPorts, FollowUp } from './adapters/adapter.ts';
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

type Deps = Omit<ChannelPorts, 'findChannel' | 'send' | 'random' | 'secretsOf'> & {
  db: Db;
  jobs: JobQueue;
  /** APP_KEY: channels' secrets are kept encrypted under it. */
  appKey: Buffer;
  random?: () => number;
};

export type ChannelJobs = ReturnType<typeof createChannelJobs>;

export function createChannelJobs({
  db,
  jobs,
  random = () => randomInt(0, 1_000_000) / 1_000_000,
  appKey,
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
    ports,
  };
}
