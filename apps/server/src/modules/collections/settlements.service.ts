import { type Currency, fromMinor } from '@paydesk/shared';
import type {
  Settlement,
  SettlementCycle,
  SettlementDetail,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { localDate, zonedTimeToUtc } from '@paydesk/shared/time-zone.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { type AdapterSettings, type ChannelRow, providersNotSettled } from '../channels/index.ts';
import { type Ledger, transactionWithRetry } from '../ledger/index.ts';
import { collectionsRepository } from './collections.repository.ts';
import type { CollectionsService, Viewer } from './collections.service.ts';
import { type SettlementRow, settlementsRepository as repo } from './settlements.repository.ts';

// Settlements (DESIGN sections 3 and 4): paid orders go unsettled -> pending_settlement -> settled in
// batches per channel and cycle. A run first claims each channel's settleable orders into a batch (their
// rows locked, so a concurrent run finds none left), then posts each pending batch as one journal entry:
// channel clearing - gross; merchant available + net; fee revenue + fees. The entry's key is the batch's,
// so a batch is posted once whatever runs it again (the scheduled job, ops settlement:run, a retry).

type Deps = {
  db: Db;
  ledger: Pick<Ledger, 'post'>;
  now: () => Date;
  collections: CollectionsService;
  /**
   * What this server's configuration allows the adapters: the channels of a provider whose adapter does
   * not settle here (the sandbox in production without --demo: anyone could mark its orders paid) and
   * their batches are left out of every run, so those orders never become money.
   */
  adapterSettings: AdapterSettings;
};

const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** Up to when a cycle settles: T+1 the orders paid before today began (merchant's zone), T+0 until now. */
export function settlementCutoff(cycle: SettlementCycle, at: Date, timeZone: string) {
  const today = localDate(at, timeZone);
  if (cycle === 'T0') return { cutoff: at, businessDate: today };
  return { cutoff: zonedTimeToUtc(`${today}T00:00:00`, timeZone), businessDate: dayBefore(today) };
}

export type SettlementRunResult = { created: SettlementRow[]; posted: SettlementRow[] };

/** A settlement batch as the console shows it. */
export function presentSettlement(row: SettlementRow): Settlement {
  const currency = row.currency as Currency;
  return {
    settlement_no: row.settlementNo,
    channel: row.channelCode,
    cycle: row.cycle as SettlementCycle,
    business_date: row.businessDate,
    order_count: row.orderCount,
    gross: fromMinor(row.grossMinor, currency),
    fee: fromMinor(row.feeMinor, currency),
    net: fromMinor(row.netMinor, currency),
    currency,
    settled_at: (row.settledAt ?? row.createdAt).toISOString(),
  };
}

export type SettlementsService = ReturnType<typeof createSettlementsService>;

export function createSettlementsService({ db, ledger, now, collections, adapterSettings }: Deps) {
  /** Claims one channel's settleable orders into a new batch; undefined when none are left. */
  async function createBatch(channel: ChannelRow, timeZone: string): Promise<SettlementRow | undefined> {
    const at = now();
    const { cutoff, businessDate } = settlementCutoff(
      channel.settlementCycle as SettlementCycle,
      at,
      timeZone,
    );
    return transactionWithRetry(db, async (tx) => {
      const orders = await collectionsRepository.lockSettleable(tx, channel.id, cutoff);
      if (orders.length === 0) return undefined;
      const gross = orders.reduce((sum, o) => sum + o.amountMinor, 0n);
      const fee = orders.reduce((sum, o) => sum + o.feeMinor, 0n);
      const batch = await repo.insert(tx, {
        settlementNo: `S${at
          .toISOString()
          .replace(/[-:TZ.]/g, '')
          .slice(
            0,
            14,
          )}${String(channel.id).padStart(4, '0')}${String(orders[0].id % 10000).padStart(4, '0')}`,
        merchantId: channel.merchantId,
        channelId: channel.id,
        channelCode: channel.code,
        cycle: channel.settlementCycle!,
        businessDate,
        orderCount: orders.length,
        grossMinor: gross,
        feeMinor: fee,
        netMinor: gross - fee,
        currency: channel.currency,
        createdAt: at,
      });
      await collectionsRepository.attachToBatch(
        tx,
        batch.id,
        orders.map((o) => o.id),
      );
      return batch;
    });
  }

  /** Posts a pending batch: one journal entry, its orders settled. A batch already settled is left alone. */
  async function post(id: number): Promise<SettlementRow | undefined> {
    return transactionWithRetry(db, async (tx) => {
      const batch = await repo.lockPending(tx, id);
      if (!batch) return undefined;
      const at = now();
      const { entry } = await ledger.post(tx, {
        merchantId: batch.merchantId,
        type: 'collection_settlement',
        amountMinor: batch.netMinor,
        feeMinor: batch.feeMinor,
        channel: batch.channelCode,
        refType: 'settlement',
        refId: String(batch.id),
        refNo: batch.settlementNo,
        note: `${batch.orderCount} orders, ${batch.businessDate}`,
        idempotencyKey: `settlement:${batch.id}`,
      });
      await collectionsRepository.markSettled(tx, batch.id, at);
      return repo.markSettled(tx, batch.id, entry.entryId, at);
    });
  }

  /** The scheduled job and ops settlement:run: batches for every channel, then every pending batch posted. */
  async function run(): Promise<SettlementRunResult> {
    const created: SettlementRow[] = [];
    const scope = { leaveOut: providersNotSettled(adapterSettings) };
    for (const { channel, timeZone } of await repo.collectionChannels(db, scope)) {
      if (!channel.settlementCycle) continue;
      const batch = await createBatch(channel, timeZone);
      if (batch) created.push(batch);
    }
    const posted: SettlementRow[] = [];
    for (const id of await repo.pendingIds(db, scope)) {
      const row = await post(id);
      if (row) posted.push(row);
    }
    return { created, posted };
  }

  async function detail(viewer: Viewer, settlementNo: string): Promise<SettlementDetail> {
    const row = await repo.findByNo(db, viewer.merchantId, settlementNo);
    if (!row) throw notFound('The settlement was not found.');
    const orders = await collectionsRepository.ofSettlement(db, viewer.merchantId, row.id);
    return {
      ...presentSettlement(row),
      orders: orders.map((o) => collections.consoleView(o, row.settlementNo)),
    };
  }

  return {
    run,
    createBatch,
    post,
    detail,
    present: presentSettlement,
    settlementNoOf: (id: number) => repo.noOf(db, id),
  };
}

/** The demo seed's settled batch. */
export const seedSettlementRow = repo.insert;
export const markSettlementSettled = repo.markSettled;
