import type { Currency } from '@paydesk/shared';
import type { AttemptOutcome } from '@paydesk/shared/channels/attempts.schemas.ts';
import type { Provider } from '@paydesk/shared/channels/providers.ts';
import type { Country } from '@paydesk/shared/collections/collections.schemas.ts';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { z } from 'zod';
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

/** A new refund of a paid collection (DESIGN 14), as its adapter is told of it. */
export type RefundOrder = {
  refundNo: string;
  /** The refunded collection: our number and the provider's own for its payment. */
  tradeNo: string;
  collectionRef: string | null;
  amountMinor: bigint;
  currency: Currency;
  createdAt: Date;
};
/**
 * What a new refund needs, without I/O: `supported: false` from a provider that cannot refund (the refund is
 * refused, nothing written); else its follow-up job, or none when the platform's staff refund it by hand
 * (`byOperator`: it waits in the operator's queue, like a manual payout).
 */
export type RefundSubmission =
  | { supported: false }
  | { supported: true; byOperator?: false; followUp: FollowUp }
  | { supported: true; byOperator: true };

/**
 * A payout or refund still in flight at its provider (a payout pending or processing, a refund
 * processing) that no job of its adapter will look at again: its job's retries ran out (the housekeeping
 * sweep finds them, ChannelJobs.resumeInFlight).
 */
export type InFlightOrder = {
  kind: 'payout' | 'refund';
  /** Our number: the payout's trade_no, the refund's refund_no. */
  number: string;
  status: string;
  channelRef: string | null;
};

/** A provider's notification as it arrived: the raw body is what signatures cover. */
export type IncomingNotification = {
  tradeNo?: string;
  headers: Record<string, string | undefined>;
  rawBody: string;
};
/**
 * A payment the provider says reached the platform's own account (a bank transfer): applied once by the
 * bank's transaction id, matched to an order by the reference the payer wrote (DESIGN 13).
 */
export type ReceivedPayment = {
  txnId: string;
  reference: string;
  amountMinor: bigint;
  currency: string;
  paidAt: Date;
  payer?: string | null;
};

export type ParsedNotification =
  | { verified: false; reason: string }
  | {
      verified: true;
      reports: OrderReport[];
      payments?: ReceivedPayment[];
      /** Signed, but not a body we can read: answered 422 with this, nothing applied. */
      invalid?: string;
    };

/** A channel's secrets, decrypted for the one call that needs them (never logged, never answered). */
export type ChannelSecrets = Record<string, string>;

/** What a payer needs to pay by their own bank (the pay page shows it): DESIGN 13. */
export type PayInstructions = {
  /** What the payer must write in the transfer's reference. */
  reference: string;
  /** The receiving account's details, in the order they are shown (names are the page's text keys). */
  fields: { name: PayField; value: string }[];
  /** A QR code in the country's standard that the payer's banking app reads, when it has one. */
  qr?: { standard: 'vietqr' | 'pix' | 'upi'; payload: string };
};
export type PayField = 'bank' | 'branch' | 'account_name' | 'account_no' | 'ifsc' | 'pix_key' | 'upi_id';

/** A payout batch file's layout (payouts paid by the platform's staff through their bank). */
export type BatchLayout = {
  /** The columns of the file we export, in order: each a header and the payout field it holds. */
  columns: { header: string; field: BatchField }[];
  /** The bank's result file: which header holds what, and the words it uses for paid and failed. */
  result: {
    tradeNo: string;
    status: string;
    bankReference: string;
    reason: string;
    paidValues: string[];
    failedValues: string[];
  };
};
export const BATCH_FIELDS = [
  'trade_no',
  'amount',
  'currency',
  'account_type',
  'account_name',
  'account_no',
  'bank_code',
  'bank_name',
  'branch',
  'ifsc',
  'cpf_cnpj',
  'created_at',
] as const;
export type BatchField = (typeof BATCH_FIELDS)[number];

/**
 * Where a call to a provider failed. `connect`: no connection was made; `refused`: the provider answered
 * that it did not take the order (a validation error, an unknown account); `unknown`: the request left and
 * no usable answer came back (a timeout, a 5xx), so the provider may have taken it.
 */
export type ProviderFailure = { stage: 'connect' | 'refused' | 'unknown'; status?: number; code?: string };

/**
 * The channel's fault, as most providers' failures read (ChannelAdapter.isChannelFault): no connection, no
 * usable answer (a timeout, a 5xx), or a refusal that says the provider cannot take orders now (408, 429).
 * Any other refusal is about the order itself (a malformed request, an unknown account): a decline.
 */
export const isChannelFaultByDefault = (failure: ProviderFailure): boolean =>
  failure.stage !== 'refused' || failure.status === 408 || failure.status === 429;

/**
 * What became of an order whose provider call failed (ports' failOver, DESIGN 14): `moved` to another
 * channel (a new attempt; the adapter stops), `review` (a payout that may have reached the provider,
 * left for an operator; the adapter stops), `stay` (nothing changed: the adapter goes on as it would).
 */
export type FailOver = 'moved' | 'review' | 'stay';

/** Our orders as an adapter's jobs and queries see them: passed in, never imported. */
export type ChannelPorts = {
  now: () => Date;
  /** In [0, 1). */
  random: () => number;
  settings: AdapterSettings;
  findChannel: (id: number) => Promise<ChannelRow | undefined>;
  collections: {
    findAny: (tradeNo: string) => Promise<
      | {
          tradeNo: string;
          status: string;
          channelId: number;
          channelRef: string | null;
          amountMinor: bigint;
          currency: string;
          expiresAt: Date;
          outTradeNo: string;
          payerName: string | null;
        }
      | undefined
    >;
    finish: (tradeNo: string, status: 'paid' | 'failed', channelRef?: string) => Promise<unknown>;
    /** The provider's own page for an unpaid order (a payment link) and its number for it. */
    setProviderLink: (tradeNo: string, providerRef: string, payUrl: string) => Promise<unknown>;
    /** The provider call for an unpaid order failed: to the next channel when it is safe (FailOver). */
    failOver: (tradeNo: string, failure: ProviderFailure) => Promise<FailOver>;
  };
  payouts: {
    findAny: (tradeNo: string) => Promise<
      | {
          tradeNo: string;
          status: string;
          channelId: number;
          channelRef: string | null;
          accountNo: string;
          amountMinor: bigint;
          currency: string;
          payeeName: string;
          ifsc: string | null;
          accountType: string;
        }
      | undefined
    >;
    transition: (
      tradeNo: string,
      to: 'processing' | 'success' | 'failed',
      reason?: string | null,
      channelRef?: string,
    ) => Promise<unknown>;
    /**
     * The provider call for a pending payout failed: to the next channel when it is safe, else left for
     * review, never sent again (FailOver).
     */
    failOver: (tradeNo: string, failure: ProviderFailure) => Promise<FailOver>;
  };
  refunds: {
    findAny: (refundNo: string) => Promise<
      | {
          refundNo: string;
          tradeNo: string;
          status: string;
          channelId: number;
          amountMinor: bigint;
          currency: string;
          /** The provider's number for the refunded collection's payment. */
          collectionRef: string | null;
          channelRef: string | null;
        }
      | undefined
    >;
    finish: (
      refundNo: string,
      to: 'succeeded' | 'failed',
      reason?: string | null,
      channelRef?: string,
    ) => Promise<unknown>;
  };
  /** Money a provider says reached the platform for an order (applied once by its id, DESIGN 13). */
  receive: (channel: ChannelRow, payment: ReceivedPayment) => Promise<unknown>;
  /** The channel's secrets, decrypted for the call that needs them. */
  secretsOf: (channel: ChannelRow) => ChannelSecrets;
  /** Logs what a provider answered that we could not read (the order stays as it was). */
  warn: (detail: Record<string, unknown>, message: string) => void;
  /** Sends a follow-up job in a transaction of its own. */
  send: (followUp: FollowUp) => Promise<void>;
};

export interface ChannelAdapter {
  readonly provider: Provider;
  readonly capabilities: Capabilities;
  /** The channel's settings it needs (channels.settings), checked when an operator opens the channel. */
  settingsSchema(currency: Currency): z.ZodType<Record<string, unknown>>;
  /**
   * The secrets a channel of it keeps (channels.secrets): those `generated` the server makes at opening
   * when the operator gives none (and answers once); the others the operator must give.
   */
  readonly secrets: readonly { name: string; generated?: boolean }[];
  /** Whether it reports through POST /channels/{code}/notify (verified with the channel's secrets). */
  readonly notifies: boolean;
  /** For a payer who pays by their own bank: what our pay page shows (undefined: the provider's page). */
  payInstructions?(
    channel: ChannelRow,
    order: { tradeNo: string; amountMinor: bigint; currency: Currency; merchantName: string },
  ): PayInstructions;
  /** For payouts paid by staff: the batch file's layout (undefined: the provider pays them itself). */
  batchLayout?(channel: ChannelRow): BatchLayout;
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
  /** Whether its refunds are paid back by the platform's staff (they wait in the operator's queue). */
  readonly refundsByOperator: boolean;
  /** What a new refund of one of its paid collections needs, without I/O (see RefundSubmission). */
  submitRefund(channel: ChannelRow, refund: RefundOrder): RefundSubmission;
  /** Verifies a notification (its signature) and reads the orders it reports; never trusts an unverified one. */
  parseNotification(
    channel: ChannelRow,
    notification: IncomingNotification,
    secrets: ChannelSecrets,
  ): ParsedNotification;
  /** True only when the order certainly never reached the provider: another channel may take it. */
  isSafeToRetryElsewhere(failure: ProviderFailure): boolean;
  /**
   * Whether the failure is the channel's fault (it is down, slow, failing), not a decline of the order:
   * only these count against the channel's health (DESIGN 14, routing.ts). Most: isChannelFaultByDefault.
   */
  isChannelFault(failure: ProviderFailure): boolean;
  /**
   * The follow-up job that takes an order in flight up again once its own jobs gave up (an idempotent
   * step: it asks the provider, or sends the order again under the same idempotency key), so it ends as
   * the provider says. Undefined (or no method): nothing to send, its orders wait for an operator.
   */
  resumeFollowUp?(order: InFlightOrder): FollowUp | undefined;
  /** The queues of its follow-up jobs, and the step each runs (idempotent: a job may run twice). */
  readonly queues: readonly QueueName[];
  runJob(queue: QueueName, data: Record<string, unknown>, ports: ChannelPorts): Promise<void>;
}
