import { randomBytes } from 'node:crypto';
import { ERROR_CODES, type Perm } from '@paydesk/shared';
import {
  BULK_RESEND_LIMIT,
  type BulkResendCallbacksBody,
  UNDELIVERED_LISTED_DAYS,
  type UndeliveredCallbackListQuery,
  type UndeliveredCallbackListResponse,
} from '@paydesk/shared/callbacks/callbacks.schemas.ts';
import type { CallbackEvent, CallbackEventType } from '@paydesk/shared/collections/collections.schemas.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { setNewest } from '../../lib/bounded-map.ts';
import { notFound, ValidationError } from '../../lib/errors.ts';
import { localRangeToUtc } from '../../lib/timezone.ts';
import { deliverWebhook, retryDelayMs } from '../../lib/webhooks.ts';
import {
  type CallbackEventRow,
  callbacksRepository as repo,
  type UndeliveredFilter,
  type UndeliveredRow,
} from './callbacks.repository.ts';

// Callbacks (DESIGN section 6): an event is written to the outbox in the transaction of the state change
// that causes it, then delivered by jobs with Standard Webhooks signatures. A 2xx ends it; otherwise the
// retry schedule (15 s ... 72 h after the first attempt, with jitter) sends it again under the same
// webhook-id; every attempt is logged. The HTTP call never runs inside a transaction: no lock or connection is held while we wait.

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

const DAY_MS = 86_400_000;
/** A list's total is counted up to this; more reads as "10000+" (DESIGN 5). */
const TOTAL_CAP = 10_000;

/**
 * Events of orders a user may not see (payout:view) or send callbacks of (payout:notify) are left out for
 * that user. Every other ref type (collections, and their refunds to come) needs only the route's own
 * permission (collection:view to list, collection:notify to resend).
 */
const REF_TYPE_PERMS = {
  view: { payout: 'payout:view' },
  resend: { payout: 'payout:notify' },
} as const satisfies Record<string, Record<string, Perm>>;

export const hiddenCallbackRefTypes = (
  perms: readonly string[],
  action: keyof typeof REF_TYPE_PERMS,
): string[] =>
  Object.entries(REF_TYPE_PERMS[action])
    .filter(([, perm]) => !perms.includes(perm))
    .map(([refType]) => refType);

/** Who asks, in which merchant row (its mode) and time zone, and the ref types whose events it may not see. */
export type CallbackViewer = { merchantId: number; timeZone: string; hiddenRefTypes: string[] };

// The list's position: base64url of "<created_at ms>.<event id>" of the last row seen.
const encodeEventCursor = (row: { createdAt: Date; id: string }) =>
  Buffer.from(`${row.createdAt.getTime()}.${row.id}`).toString('base64url');
function decodeEventCursor(cursor: string): { createdAt: Date; id: string } {
  const match = /^(\d{1,15})\.(evt_[0-9a-z]{1,40})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number(match[1]) > Date.UTC(9999, 11, 31)) {
    throw ValidationError.field('cursor', 'The cursor is not valid.', ERROR_CODES.invalidCursor);
  }
  return { createdAt: new Date(Number(match[1])), id: match[2] };
}

/** An event id of ours; anything else is "not found", never a validation error that confirms a format. */
const EVENT_ID = /^evt_[0-9a-z]{1,40}$/;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function presentUndelivered(row: UndeliveredRow): UndeliveredCallbackListResponse['data'][number] {
  return {
    id: row.id,
    type: row.type as CallbackEventType,
    ref_type: row.ref_type,
    trade_no: row.trade_no,
    url: row.url,
    status: row.status === 'failed' ? 'failed' : 'pending',
    attempts: Number(row.attempts),
    last_status_code: row.last_status_code === null ? null : Number(row.last_status_code),
    last_error: row.last_error,
    last_response_excerpt: row.last_response_excerpt,
    last_attempt_at: iso(row.last_attempt_at),
    next_attempt_at: iso(row.next_attempt_at),
    created_at: iso(row.created_at)!,
  };
}

/** A delivery job scheduled for `at` (the event's next_attempt_at it was sent for). */
const deliveryJob = (id: string, at: Date) => ({ id, at: at.toISOString() });

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
  async function attempt(id: string, scheduledFor?: string) {
    const found = await repo.findForDelivery(db, id);
    if (!found || found.event.status !== 'pending') return null;
    // A retry's job names the time it was scheduled for; once a resend has moved the event's schedule on,
    // that job is stale and does nothing (else every resend of a failing event would add a retry chain).
    if (scheduledFor !== undefined && found.event.nextAttemptAt?.toISOString() !== scheduledFor) return null;
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
      if (nextAttemptAt)
        await jobs.send(tx, 'callback.deliver', deliveryJob(id, nextAttemptAt), {
          startAfter: nextAttemptAt,
        });
      return { attempt: number, ok: result.ok, statusCode: result.statusCode, nextAttemptAt };
    });
  }

  /** The merchant's Resend: the latest event of the order goes out again (same webhook-id, next attempt). */
  async function resend(merchantId: number, refType: 'collection' | 'payout' | 'refund', refId: number) {
    const latest = await repo.latestOfRef(db, merchantId, refType, refId);
    if (!latest) throw notFound('This order has no callback to send again.');
    await db.transaction(async (tx) => {
      const at = now();
      await repo.requeue(tx, latest.id, at);
      await jobs.send(tx, 'callback.deliver', deliveryJob(latest.id, at));
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

  /** The undelivered events' filter: the viewer's, within the last 30 days, in [start, end] of its zone. */
  function undeliveredFilter(
    viewer: CallbackViewer,
    range: { start?: string; end?: string; type?: string },
  ): UndeliveredFilter {
    const since = new Date(now().getTime() - UNDELIVERED_LISTED_DAYS * DAY_MS);
    const { from, to } = localRangeToUtc(range.start, range.end, viewer.timeZone);
    return {
      merchantId: viewer.merchantId,
      from: from && from > since ? from : since,
      to,
      type: range.type,
      hiddenRefTypes: viewer.hiddenRefTypes,
    };
  }

  /** The webhook deliveries page: events not delivered (given up or still failing), newest first, 30 days. */
  async function listUndelivered(
    viewer: CallbackViewer,
    query: UndeliveredCallbackListQuery,
  ): Promise<UndeliveredCallbackListResponse> {
    const filter = undeliveredFilter(viewer, {
      start: query.start_time,
      end: query.end_time,
      type: query.type,
    });
    const cursor = query.cursor ? decodeEventCursor(query.cursor) : undefined;
    const [rows, total] = await Promise.all([
      repo.undeliveredPage(db, filter, query.per_page + 1, {
        cursor,
        offset: (query.page - 1) * query.per_page,
      }),
      repo.countUndelivered(db, filter, TOTAL_CAP),
    ]);
    const shown = rows.slice(0, query.per_page);
    const last = shown.at(-1);
    return {
      data: shown.map(presentUndelivered),
      meta: {
        page: query.page,
        per_page: query.per_page,
        total: Math.min(total, TOTAL_CAP),
        ...(total > TOTAL_CAP ? { total_capped: true } : {}),
        next_cursor:
          rows.length > query.per_page && last
            ? encodeEventCursor({ createdAt: new Date(last.created_at), id: last.id })
            : null,
      },
    };
  }

  /**
   * Resend matching: every undelivered event of the type and range (within the 30 days) gets a new attempt
   * now, under its own webhook-id; at most BULK_RESEND_LIMIT a call. One already queued is not queued again.
   */
  async function resendUndelivered(viewer: CallbackViewer, body: BulkResendCallbacksBody) {
    const filter = undeliveredFilter(viewer, { start: body.from, end: body.to, type: body.type });
    return db.transaction(async (tx) => {
      const at = now();
      const ids = await repo.requeueUndelivered(tx, filter, at, BULK_RESEND_LIMIT);
      await jobs.sendMany(
        tx,
        'callback.deliver',
        ids.map((id) => deliveryJob(id, at)),
      );
      // The rest of the match (not yet queued): what a next call would send.
      const hasMore = ids.length === BULK_RESEND_LIMIT && (await repo.countPendingResend(tx, filter, at)) > 0;
      return { resent: ids.length, has_more: hasMore };
    });
  }

  /** Resend of one event from the webhook deliveries page: queued now (unless it already is), same webhook-id. */
  async function resendEvent(viewer: CallbackViewer, eventId: string): Promise<CallbackEvent> {
    const event = EVENT_ID.test(eventId) ? await repo.find(db, viewer.merchantId, eventId) : undefined;
    if (!event || viewer.hiddenRefTypes.includes(event.refType)) throw notFound('The event was not found.');
    await db.transaction(async (tx) => {
      const at = now();
      const queued = await repo.requeueUnlessQueued(tx, viewer.merchantId, event.id, at);
      if (queued) await jobs.send(tx, 'callback.deliver', deliveryJob(event.id, at));
    });
    const [fresh, attempts] = await Promise.all([
      repo.find(db, viewer.merchantId, event.id),
      repo.attemptsOf(db, [event.id]),
    ]);
    return presentEvent(fresh!, attempts);
  }

  return {
    enqueue,
    enqueueMany,
    attempt,
    resend,
    eventsOf,
    listUndelivered,
    resendUndelivered,
    resendEvent,
  };
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
