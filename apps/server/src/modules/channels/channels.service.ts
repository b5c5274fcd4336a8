import type { AttemptOrderKind, ChannelAttempt } from '@paydesk/shared/channels/attempts.schemas.ts';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { decrypt } from '../../lib/crypto.ts';
import type { ChannelSecrets } from './adapters/adapter.ts';
import { attemptsRepository } from './attempts.repository.ts';
import { channelsRepository } from './channels.repository.ts';
import { providerServesMode } from './adapters/registry.ts';

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

/** How an order's attempt on its channel ended, in the order's transaction (channel_attempts). */
export const recordAttemptOutcome = attemptsRepository.recordOutcome;
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
