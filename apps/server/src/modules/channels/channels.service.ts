import type { AttemptOrderKind, ChannelAttempt } from '@paydesk/shared/channels/attempts.schemas.ts';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { decrypt } from '../../lib/crypto.ts';
import type { AdapterSettings, ChannelSecrets, ProviderFailure } from './adapters/adapter.ts';
import { attemptsRepository } from './attempts.repository.ts';
import { type ChannelRow, channelsRepository } from './channels.repository.ts';
import { adapterFor, providerServesMode, takesNewOrders } from './adapters/registry.ts';
import { healthChange, healthOf, pickChannel, ROUTING_RULES } from './routing.ts';

// What other modules do with channels: the operator opens, closes and lists them (modules/ops, the demo
// seed); an order reads the merchant's open channel of its kind (collections, payouts, the sandbox).
// The SQL stays in channels.repository.ts.

export const openChannel = channelsRepository.upsertOpen;
export const closeChannel = channelsRepository.close;
export const listChannelsOfMerchant = channelsRepository.listOfMerchant;
export const listAllChannels = channelsRepository.listAll;
export const findChannelById = channelsRepository.findById;
export const findOpenChannel = channelsRepository.findOpen;
export const findOpenOrClosedChannel = channelsRepository.findOfMerchant;

/** Whether the merchant row has an open channel that serves `mode` (a live sandbox channel does not). */
export async function hasOpenChannelFor(db: DbOrTx, merchantId: number, mode: Mode): Promise<boolean> {
  const providers = await channelsRepository.openProviders(db, merchantId);
  return providers.some((provider) => providerServesMode(provider, mode));
}

/** A channel's secrets (channels.secrets, encrypted under APP_KEY), for the one call that needs them. */
export const openChannelSecrets = (appKey: Buffer, channel: { secrets: string | null }): ChannelSecrets =>
  channel.secrets ? (JSON.parse(decrypt(appKey, channel.secrets)) as ChannelSecrets) : {};

/**
 * How an order's attempt on its channel ended, in the order's transaction (channel_attempts); then the
 * channel's health (DESIGN 14, routing.ts): cooled down after too many failures by its fault (a decline of
 * the order is no failure of the channel), recovered after its cool-down, each change in the operator's
 * audit log.
 */
export async function recordAttemptOutcome(
  tx: Tx,
  order: Parameters<typeof attemptsRepository.recordOutcome>[1],
  set: Parameters<typeof attemptsRepository.recordOutcome>[2],
) {
  const row = await attemptsRepository.recordOutcome(tx, order, set);
  if (row && (set.outcome === 'failed' || set.outcome === 'succeeded'))
    await updateChannelHealth(tx, row.channelId, set.outcome === 'failed' && row.channelFault, set.at);
  return row;
}

async function updateChannelHealth(tx: Tx, channelId: number, isFault: boolean, at: Date) {
  const found = await channelsRepository.healthWindow(tx, channelId, isFault, ROUTING_RULES.window);
  if (!found) return;
  const { channel, ended, failures } = found;
  const change = healthChange(healthOf(channel, at), ended, failures);
  if (!change) return;
  const cooling = change === 'cooled_down';
  await channelsRepository.setHealth(
    tx,
    channel,
    {
      action: `channel.${change}`,
      cooldownUntil: cooling ? new Date(at.getTime() + ROUTING_RULES.cooldownMs) : null,
      // A cool-down starts the count again; a recovered channel keeps counting from there.
      healthSince: cooling ? at : channel.healthSince,
      at,
    },
    {
      channel: channel.code,
      kind: channel.kind,
      attempts: ended,
      failures,
      ...(cooling ? { cooldown_until: new Date(at.getTime() + ROUTING_RULES.cooldownMs).toISOString() } : {}),
    },
  );
}

/**
 * A merchant's routing table for a kind (DESIGN 14): its open channels that take new orders on this
 * server, highest priority first, and its version (the latest updated_at of its channels of the kind,
 * open or closed: a gateway order's one statement goes ahead only while no channel changed since).
 * Undefined when none is open.
 */
export type RoutingTable = { channels: ChannelRow[]; version: Date };

export async function routingTableOf(
  db: DbOrTx,
  merchantId: number,
  kind: 'collection' | 'payout',
  settings: AdapterSettings,
): Promise<RoutingTable | undefined> {
  const rows = await channelsRepository.ofKind(db, merchantId, kind);
  const open = rows.filter((row) => row.status === 'open' && takesNewOrders(row, settings));
  if (open.length === 0) return undefined;
  const version = new Date(Math.max(...rows.map((row) => row.updatedAt.getTime())));
  return { channels: open, version };
}

/**
 * The channel of the table an order of this amount goes to (pickChannel), as remembered for the order's
 * one statement: its updated_at is the table's version (rememberedChannelWhere with `routed`). When none
 * accepts the amount, the first one (its limits then refuse the order, naming them).
 */
export function routeOf(
  table: RoutingTable,
  amountMinor: bigint,
  now: Date,
  random: () => number,
): ChannelRow {
  const chosen = pickChannel(table.channels, amountMinor, now, random) ?? table.channels[0];
  return { ...chosen, updatedAt: table.version };
}

/**
 * The channels a new order may take (DESIGN 14): the one its call named (a table of one; none when it is
 * not open or takes no new orders), else the merchant's routing table of the kind.
 */
export async function channelsForOrder(
  db: DbOrTx,
  merchantId: number,
  kind: 'collection' | 'payout',
  named: string | null | undefined,
  settings: AdapterSettings,
): Promise<RoutingTable | undefined> {
  if (!named) return routingTableOf(db, merchantId, kind, settings);
  const found = await channelsRepository.findOpen(db, merchantId, kind, named);
  return found && takesNewOrders(found, settings)
    ? { channels: [found], version: found.updatedAt }
    : undefined;
}

/**
 * The next channel for an order whose attempt failed in a way that is safe to retry elsewhere: one of
 * the table's that accepts its amount and has no attempt of the order yet; undefined when none is left.
 */
export async function nextChannelFor(
  tx: Tx,
  order: { kind: 'collection' | 'payout'; id: number; merchantId: number; amountMinor: bigint },
  settings: AdapterSettings,
  now: Date,
  random: () => number,
): Promise<ChannelRow | undefined> {
  const table = await routingTableOf(tx, order.merchantId, order.kind, settings);
  if (!table) return undefined;
  const tried = await attemptsRepository.channelsTried(tx, order.merchantId, order.kind, order.id);
  return pickChannel(table.channels, order.amountMinor, now, random, new Set(tried));
}

/**
 * A routed order's failover (DESIGN 14) after a failure that is safe to retry elsewhere: the next channel
 * that takes it (nextChannelFor), the order moved onto it by `move` (false when the order changed
 * meanwhile), the failed attempt recorded on the old channel (its fault or not) and a new attempt on the
 * new one. The new channel, or undefined when the order stays where it is.
 */
export async function failOverToNext(
  tx: Tx,
  order: { kind: 'collection' | 'payout'; id: number; merchantId: number; amountMinor: bigint },
  from: ChannelRow,
  failure: ProviderFailure,
  { settings, at, random }: { settings: AdapterSettings; at: Date; random: () => number },
  move: (next: ChannelRow) => Promise<boolean>,
): Promise<ChannelRow | undefined> {
  const next = await nextChannelFor(tx, order, settings, at, random);
  if (!next || !(await move(next))) return undefined;
  await recordAttemptOutcome(
    tx,
    { kind: order.kind, id: order.id, merchantId: order.merchantId },
    {
      outcome: 'failed',
      at,
      answer: { failure },
      channelFault: adapterFor(from.provider).isChannelFault(failure),
    },
  );
  await addAttempt(tx, order.kind, order.id, at);
  return next;
}

/**
 * Whether a payout was left for an operator's review (DESIGN 14): its provider call may have reached the
 * provider, so failover never sends it again; an operator ends it (payout:mark-paid, payout:mark-failed).
 */
export async function isLeftForReview(db: DbOrTx, payout: { id: number; merchantId: number }) {
  const latest = await attemptsRepository.latestOf(db, payout.merchantId, 'payout', payout.id);
  return latest?.outcome === 'processing' && (latest.answerSummary as { review?: boolean })?.review === true;
}

/** A new attempt of an order on the channel it now has (a failover). */
export const addAttempt = attemptsRepository.insertForOrder;
/** A routing decision in the operator's audit log (operator_actions, by "routing"). */
export const auditRouting = channelsRepository.audit;

/** A channel's priority and weight (ops channel:route); undefined when the merchant has none such. */
export const setChannelRoute = channelsRepository.setRoute;
/** The lowest priority among a merchant's channels of a kind (a channel opened without one goes below). */
export const lowestChannelPriority = channelsRepository.lowestPriority;
/** recordAttemptOutcome for many orders at once (a statement import's). */
export const recordAttemptOutcomes = attemptsRepository.recordOutcomes;

/** An order's attempts on channels as the console's detail drawer shows them; only the merchant's own. */
export async function attemptsOf(
  db: DbOrTx,
  merchantId: number,
  kind: AttemptOrderKind,
  orderId: number,
): Promise<ChannelAttempt[]> {
  const rows = await attemptsRepository.listOf(db, merchantId, kind, orderId);
  return rows.map((row) => ({
    channel: row.channelCode,
    provider_ref: row.channelRef,
    outcome: row.outcome as ChannelAttempt['outcome'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }));
}
