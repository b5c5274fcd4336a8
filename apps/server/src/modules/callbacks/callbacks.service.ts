import { randomBytes } from 'node:crypto';
import type { CallbackEvent, CallbackEventType } from '@paydesk/shared/collections/collections.schemas.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { setNewest } from '../../lib/bounded-map.ts';
import { notFound } from '../../lib/errors.ts';
import { deliverWebhook, retryDelayMs } from '../../lib/webhooks.ts';
import { type CallbackEventRow, callbacksRepository as repo } from './callbacks.repository.ts';

// Callbacks (DESIGN section 6): an event is written to the outbox in the transaction of the state change
// that causes it, then delivered by jobs with Standard Webhooks signatures. A 2xx ends it; otherwise the
// retry schedule (15 s ... 24 h, with jitter) sends it again under the same webhook-id; every attempt is
// logged. The HTTP call never runs inside a transaction: no lock or connection is held while we wait.

export type MerchantCallbackSettings = { notifyUrl: string | null; webhookSecret: string | null };

/** How many merchant rows' modes one process remembers (the oldest is forgotten first). */
const REMEMBERED_MODES = 10_000;

type Deps = {
  db: Db;
  jobs: JobQueue;
  now: () => Date;
  allowPrivate: boolean;
  /** The merchant's default notify URL and webhook secret (the access key module). */
  settingsOf: (db: DbOrTx, merchantId: number) => Promise<MerchantCallbackSettings | undefined>;
  /** Opens a webhook secret as stored (encrypted with APP_KEY). */
  openSecret: (encrypted: string) => string;
  deliver?: typeof deliverWebhook;
  timeoutMs?: number;
  random?: () => number;
};

export type EnqueueInput = {
  merchantId: number;
  type: CallbackEventType;
  refType: 'collection' | 'payout' | 'refund';
  refId: number;
  /** The order's own notify URL; the merchant's default when absent. */
  url: string | null;
  data: Record<string, unknown>;
};

/** Time-ordered and unique: "evt_" + milliseconds (base 36) + 80 random bits. */
const newEventId = (now: Date) =>
  `evt_${now.getTime().toString(36).padStart(9, '0')}${randomBytes(10).toString('hex')}`;

export type CallbacksService = ReturnType<typeof createCallbacksService>;

export function createCallbacksService(deps: Deps) {
  const { db, jobs, now, settingsOf } = deps;
  const deliver = deps.deliver ?? deliverWebhook;
  // Every callback carries its object's mode (DESIGN 12); a merchant row's mode never changes, so a
  // process reads it once per merchant row.
  const modes = new Map<number, boolean>();
  async function livemodeOf(tx: DbOrTx, merchantId: number): Promise<boolean> {
    let live = modes.get(merchantId);
    if (live === undefined) {
      live = await repo.isLive(tx, merchantId);
      setNewest(modes, merchantId, live, REMEMBERED_MODES);
    }
    return live;
  }

  /** The event row of one callback to `url`, its payload signed later by delivery. */
  async function eventRow(tx: Tx, input: EnqueueInput, url: string, at: Date) {
    const id = newEventId(at);
    const data = { ...input.data, livemode: await livemodeOf(tx, input.merchantId) };
    const payload = JSON.stringify({ id, type: input.type, created_at: at.toISOString(), data });
    return {
      id,
      merchantId: input.merchantId,
      type: input.type,
      refType: input.refType,
      refId: input.refId,
      url,
      payload,
      nextAttemptAt: at,
      createdAt: at,
    };
  }

  /**
   * enqueue for many events at once (a statement import pays thousands of orders): one insert of the
   * events and one of their jobs, in the caller's transaction. Events without a URL are skipped.
   */
  async function enqueueMany(tx: Tx, inputs: EnqueueInput[]): Promise<number> {
    const at = now();
    const urls = new Map<number, string | null>();
    const rows = [];
    for (const input of inputs) {
      if (!input.url && !urls.has(input.merchantId))
        urls.set(input.merchantId, (await settingsOf(tx, input.merchantId))?.notifyUrl ?? null);
      const url = input.url ?? urls.get(input.merchantId) ?? null;
      if (url) rows.push(await eventRow(tx, input, url, at));
    }
    await repo.insertEvents(tx, rows);
    await jobs.sendMany(
      tx,
      'callback.deliver',
      rows.map((row) => ({ id: row.id })),
    );
    return rows.length;
  }

  /** Writes the event in the caller's transaction and queues its first attempt; null when no URL is set. */
  async function enqueue(tx: Tx, input: EnqueueInput): Promise<CallbackEventRow | null> {
    const url = input.url ?? (await settingsOf(tx, input.merchantId))?.notifyUrl ?? null;
    if (!url) return null;
    const event = await repo.insertEvent(tx, await eventRow(tx, input, url, now()));
    await jobs.send(tx, 'callback.deliver', { id: event.id });
    return event;
  }

  /**
   * One delivery attempt of a pending event (the job's work). Returns what happened, or null when the event
   * is not pending (delivered, given up, or another worker has it right now).
   */
  async function attempt(id: string) {
    const found = await repo.findForDelivery(db, id);
    if (!found || found.event.status !== 'pending') return null;
    const { event } = found;
    const webhookSecret = found.webhookSecretEncrypted ? deps.openSecret(found.webhookSecretEncrypted) : null;
    const startedAt = now();
    const result = webhookSecret
      ? await deliver({
          url: event.url,
          id: event.id,
          body: event.payload,
          secret: webhookSecret,
          allowPrivate: deps.allowPrivate,
          now,
          ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}),
        })
      : {
          ok: false,
          statusCode: null,
          latencyMs: 0,
          error: 'no webhook secret: generate the access key',
          responseExcerpt: null,
        };
    if (result.ok) {
      // The common case in one statement, no transaction round trips.
      const number = await repo.recordDelivered(
        db,
        {
          eventId: id,
          statusCode: result.statusCode,
          latencyMs: result.latencyMs,
          error: result.error,
          responseExcerpt: result.responseExcerpt,
          createdAt: startedAt,
        },
        now(),
      );
      return number === undefined
        ? null
        : { attempt: number, ok: true, statusCode: result.statusCode, nextAttemptAt: null };
    }
    return db.transaction(async (tx) => {
      const locked = await repo.lockPending(tx, id);
      if (!locked) return null;
      const number = locked.attempts + 1;
      const delay = result.ok ? null : retryDelayMs(number, deps.random);
      const nextAttemptAt = delay === null ? null : new Date(now().getTime() + delay);
      await repo.recordAttempt(
        tx,
        {
          eventId: id,
          attempt: number,
          statusCode: result.statusCode,
          latencyMs: result.latencyMs,
          error: result.error,
          responseExcerpt: result.responseExcerpt,
          createdAt: startedAt,
        },
        {
          id,
          status: result.ok ? 'delivered' : nextAttemptAt ? 'pending' : 'failed',
          nextAttemptAt,
          deliveredAt: result.ok ? now() : null,
        },
      );
      if (nextAttemptAt) await jobs.send(tx, 'callback.deliver', { id }, { startAfter: nextAttemptAt });
      return { attempt: number, ok: result.ok, statusCode: result.statusCode, nextAttemptAt };
    });
  }

  /** The merchant's Resend: the latest event of the order goes out again (same webhook-id, next attempt). */
  async function resend(merchantId: number, refType: 'collection' | 'payout' | 'refund', refId: number) {
    const latest = await repo.latestOfRef(db, merchantId, refType, refId);
    if (!latest) throw notFound('This order has no callback to send again.');
    await db.transaction(async (tx) => {
      await repo.requeue(tx, latest.id, now());
      await jobs.send(tx, 'callback.deliver', { id: latest.id });
    });
    const events = await eventsOf(db, merchantId, refType, refId);
    return events.find((e) => e.id === latest.id)!;
  }

  /** The events of one order with every attempt, oldest first (the detail drawer). */
  async function eventsOf(
    dbOrTx: DbOrTx,
    merchantId: number,
    refType: string,
    refId: number,
  ): Promise<CallbackEvent[]> {
    const events = await repo.eventsOfRef(dbOrTx, merchantId, refType, refId);
    const attempts = await repo.attemptsOf(
      dbOrTx,
      events.map((e) => e.id),
    );
    return events.map((event) =>
      presentEvent(
        event,
        attempts.filter((a) => a.eventId === event.id),
      ),
    );
  }

  return { enqueue, enqueueMany, attempt, resend, eventsOf };
}

/** When the merchant's server first took one of these callbacks (a 2xx answer), for an order's timeline. */
export function firstDelivery(events: readonly CallbackEvent[]): string | undefined {
  return events
    .flatMap((e) =>
      e.attempts.filter((a) => a.status_code !== null && a.status_code >= 200 && a.status_code < 300),
    )
    .at(0)?.created_at;
}

export function presentEvent(
  event: CallbackEventRow,
  attempts: {
    attempt: number;
    statusCode: number | null;
    latencyMs: number | null;
    error: string | null;
    responseExcerpt: string | null;
    createdAt: Date;
  }[],
): CallbackEvent {
  return {
    id: event.id,
    type: event.type as CallbackEventType,
    url: event.url,
    status: event.status as CallbackEvent['status'],
    next_attempt_at: event.nextAttemptAt?.toISOString() ?? null,
    created_at: event.createdAt.toISOString(),
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      status_code: a.statusCode,
      latency_ms: a.latencyMs,
      error: a.error,
      response_excerpt: a.responseExcerpt,
      created_at: a.createdAt.toISOString(),
    })),
  };
}
