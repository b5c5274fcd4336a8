import type { Currency } from '@paydesk/shared';
import type { AttemptOutcome } from '@paydesk/shared/channels/attempts.schemas.ts';
import type { Provider } from '@paydesk/shared/channels/providers.ts';
import type { Country } from '@paydesk/shared/collections/collections.schemas.ts';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { QueueName } from '../../../db/jobs.ts';
import type { ChannelRow } from '../channels.repository.ts';

// The one interface every channel provider implements (DESIGN 13). Services reach a provider only through
// adapterFor(channel.provider) (registry.ts) and never branch on its name; an adapter reaches our orders
// only through the ports it is handed (ChannelPorts), so it imports no service.
//
// Creating an order is two steps so the gateway's write stays one statement (DESIGN 8): the adapter first
// says, without any I/O, what the order needs (its pay URL, a follow-up job); the service writes the order,
// its attempt (channel_attempts) and that job together; the job then talks to the provider and reports
// back through the ports, which update the order and its attempt.

export type OrderKind = 'collection' | 'payout' | 'refund';

/** What an adapter can do, so that routing and channel opening ask it instead of knowing providers. */
export type Capabilities = {
  kinds: readonly OrderKind[];
  modes: readonly Mode[];
  countries: readonly Country[];
  currencies: readonly Currency[];
};

/** What this server's configuration allows the adapters (config.ts). */
export type AdapterSettings = {
  /** config.sandboxEnabled: development, tests and the demo run channels that mark orders paid on request. */
  sandboxEnabled: boolean;
};

/** Background work an adapter asks for, sent in the order's own transaction (or statement). */
export type FollowUp = { queue: QueueName; data: Record<string, string>; startAfter?: Date };

export type CollectionOrder = { tradeNo: string; createdAt: Date };
export type CollectionStart = {
  /** Where the payer pays: a path of this server (its public URL goes in front) or a full URL. */
  payUrl: string;
  followUp?: FollowUp;
};

export type PayoutOrder = { tradeNo: string };
export type PayoutSubmission = { followUp?: FollowUp };

/** What a provider says of one order, when asked (query) or when it notifies. */
export type OrderReport = {
  tradeNo: string;
  /** The provider's own number for the order (the order's channel_ref). */
  providerRef: string | null;
  outcome: AttemptOutcome;
  /** Why it failed, as the merchant may read it. */
  reason?: string | null;
};

/** A refund's answer: `supported: false` from a provider (or, today, the sandbox) that cannot refund yet. */
export type RefundAnswer = { supported: false } | { supported: true; report: OrderReport };

/** A provider's notification as it arrived: the raw body is what signatures cover. */
export type IncomingNotification = {
  tradeNo?: string;
  headers: Record<string, string | undefined>;
  rawBody: string;
};
export type ParsedNotification =
  { verified: false; reason: string } | { verified: true; reports: OrderReport[] };

/**
 * Where a call to a provider failed. `connect`: no connection was made; `refused`: the provider answered
 * that it did not take the order (a validation error, an unknown account); `unknown`: the request left and
 * no usable answer came back (a timeout, a 5xx), so the provider may have taken it.
 */
export type ProviderFailure = { stage: 'connect' | 'refused' | 'unknown'; status?: number; code?: string };

/** Our orders as an adapter's jobs and queries see them: passed in, never imported. */
export type ChannelPorts = {
  now: () => Date;
  /** In [0, 1). */
  random: () => number;
  settings: AdapterSettings;
  findChannel: (id: number) => Promise<ChannelRow | undefined>;
  collections: {
    findAny: (
      tradeNo: string,
    ) => Promise<{ status: string; channelId: number; channelRef: string | null } | undefined>;
    finish: (tradeNo: string, status: 'paid' | 'failed', channelRef?: string) => Promise<unknown>;
  };
  payouts: {
    findAny: (
      tradeNo: string,
    ) => Promise<
      { status: string; channelId: number; channelRef: string | null; accountNo: string } | undefined
    >;
    transition: (
      tradeNo: string,
      to: 'processing' | 'success' | 'failed',
      reason?: string | null,
      channelRef?: string,
    ) => Promise<unknown>;
  };
  /** Sends a follow-up job in a transaction of its own. */
  send: (followUp: FollowUp) => Promise<void>;
};

export interface ChannelAdapter {
  readonly provider: Provider;
  readonly capabilities: Capabilities;
  /** Whether its open channels may take new orders on this server. */
  acceptsOrders(settings: AdapterSettings): boolean;
  /** Whether its channels' paid collections are settled into balances on this server. */
  settles(settings: AdapterSettings): boolean;
  /** Whether a new collection on the channel needs a follow-up job (then it is not a one-statement write). */
  collectionFollowsUp(channel: ChannelRow): boolean;
  /** What a new collection needs, without I/O (see the top of this file). */
  createCollection(channel: ChannelRow, order: CollectionOrder): CollectionStart;
  queryCollection(
    channel: ChannelRow,
    tradeNo: string,
    ports: ChannelPorts,
  ): Promise<OrderReport | undefined>;
  /** What a new payout needs, without I/O. */
  submitPayout(channel: ChannelRow, order: PayoutOrder): PayoutSubmission;
  queryPayout(channel: ChannelRow, tradeNo: string, ports: ChannelPorts): Promise<OrderReport | undefined>;
  refundCollection(
    channel: ChannelRow,
    refund: { tradeNo: string; amountMinor: bigint },
    ports: ChannelPorts,
  ): Promise<RefundAnswer>;
  /** Verifies a notification (its signature) and reads the orders it reports; never trusts an unverified one. */
  parseNotification(channel: ChannelRow, notification: IncomingNotification): ParsedNotification;
  /** True only when the order certainly never reached the provider: another channel may take it. */
  isSafeToRetryElsewhere(failure: ProviderFailure): boolean;
  /** The queues of its follow-up jobs, and the step each runs (idempotent: a job may run twice). */
  readonly queues: readonly QueueName[];
  runJob(queue: QueueName, data: Record<string, unknown>, ports: ChannelPorts): Promise<void>;
}
