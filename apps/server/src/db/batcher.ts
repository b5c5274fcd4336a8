/**
 * Group commit for one-statement writes: calls that arrive while the database is busy with earlier ones
 * are written together by one statement (one round trip, one commit, one WAL flush) instead of one each.
 * Each call still answers exactly what its own statement would have: `many` answers one result per item,
 * in order. When it fails with an error after which nothing of it was written (`alone`: a constraint one
 * item broke, a deadlock), every item runs again alone through `one`, which gives each its own answer or
 * error; any other error (the connection lost: the commit may have happened) is every item's answer, as
 * it would have been of each one's own statement.
 *
 * A call waits only for the batches already running, never for a timer: with nothing in flight it starts
 * at once (a batch of one is `one` itself), and under load the queue grows while `maxInFlight` statements
 * run, so the batches grow with the load; with several statements allowed at once, each takes its fair
 * share of the calls waiting and in flight, so that they run side by side. Calls that share a key
 * (`keysOf`: the same order number or nonce, which would fail the whole statement) go in different
 * batches, in the order they came.
 */
import { sqlStateOf } from './sql-state.ts';

export type Batcher<I, O> = { submit: (item: I) => Promise<O> };

type BatcherOptions<I, O> = {
  one: (item: I) => Promise<O>;
  many: (items: I[]) => Promise<O[]>;
  /** Whether `many` failed with nothing written, so that each item can run alone. */
  alone: (error: unknown) => boolean;
  /** What two items of one batch must not share (their unique keys); none by default. */
  keysOf?: (item: I) => string[];
  /**
   * What items of two batches in flight must not share (a merchant, whose balance row the second would
   * only wait for): one lane is in one batch at a time, and its items wait for it; none by default.
   */
  laneOf?: (item: I) => string | undefined;
  maxBatch?: number;
  maxInFlight?: number;
};

export function createBatcher<I, O>({
  one,
  many,
  maxBatch = 64,
  maxInFlight = 1,
  alone,
  keysOf = () => [],
  laneOf = () => undefined,
}: BatcherOptions<I, O>): Batcher<I, O> {
  type Waiting = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void };
  const queue: Waiting[] = [];
  let inFlight = 0;
  /** The calls in the batches in flight. */
  let inFlightItems = 0;
  let scheduled = false;
  /** The lanes of the batches in flight. */
  const busy = new Set<string>();

  async function write(batch: Waiting[]) {
    if (batch.length === 1) {
      const [only] = batch;
      await one(only.item).then(only.resolve, only.reject);
      return;
    }
    try {
      const results = await many(batch.map((w) => w.item));
      if (results.length !== batch.length)
        throw new Error(`${results.length} results for ${batch.length} items`);
      batch.forEach((w, i) => w.resolve(results[i]));
      return;
    } catch (error) {
      if (!alone(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
    }
    await Promise.all(batch.map((w) => one(w.item).then(w.resolve, w.reject)));
  }

  /**
   * A batch's share when the queued calls could also run beside it: the calls queued and in flight over
   * the statements that may run at once, so that two statements of 8 run side by side rather than one
   * of 14 beside one of 2 (on two cores, the 14 wait for the longest statement while a core idles).
   * Calls of a single lane cannot run beside each other: they all go in one batch.
   */
  function fairShare(): number {
    // Two calls that could run beside each other: of two lanes free now (a call without one is its own).
    const lanes = new Set<unknown>();
    for (const w of queue) {
      const lane = laneOf(w.item);
      if (lane !== undefined && busy.has(lane)) continue;
      lanes.add(lane ?? w);
      if (lanes.size > 1) return Math.ceil((queue.length + inFlightItems) / maxInFlight);
    }
    return maxBatch;
  }

  /**
   * The oldest calls, up to their fair share, none sharing a key with one before it nor a lane with a
   * batch in flight; the rest stay queued, in order.
   */
  function takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const taken = new Set<string>();
    const limit = Math.min(maxBatch, fairShare());
    let i = 0;
    while (i < queue.length && batch.length < limit) {
      const keys = keysOf(queue[i].item);
      const lane = laneOf(queue[i].item);
      if (keys.some((key) => taken.has(key)) || (lane !== undefined && busy.has(lane))) {
        i += 1;
        continue;
      }
      for (const key of keys) taken.add(key);
      batch.push(...queue.splice(i, 1));
    }
    return batch;
  }

  function flush() {
    scheduled = false;
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = takeBatch();
      if (batch.length === 0) break;
      const lanes = new Set(batch.map((w) => laneOf(w.item)).filter((lane) => lane !== undefined));
      for (const lane of lanes) busy.add(lane);
      inFlight += 1;
      inFlightItems += batch.length;
      void write(batch).finally(() => {
        inFlight -= 1;
        inFlightItems -= batch.length;
        for (const lane of lanes) busy.delete(lane);
        schedule();
      });
    }
  }

  // The calls of one turn of the event loop (the requests read off the sockets together) go out together.
  function schedule() {
    if (scheduled || queue.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    setImmediate(flush);
  }

  return {
    submit: (item) =>
      new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      }),
  };
}

/**
 * A statement's errors after which it wrote nothing and each call of its batch may run alone: a
 * constraint (one call's number clashed), an upsert touching one row twice (two calls with one nonce), a
 * deadlock or a serialization failure; plus the statement's own refusals (`also`).
 */
export const batchWroteNothing =
  (also: string[] = []) =>
  (error: unknown): boolean => {
    const state = sqlStateOf(error) ?? '';
    return state.startsWith('23') || ['21000', '40P01', '40001', ...also].includes(state);
  };

/** One batcher per database and statement shape: only calls of one shape share a statement. */
export function batchersByShape<D extends object, I, O>(options: (db: D) => BatcherOptions<I, O>) {
  const byDb = new WeakMap<D, Map<string, Batcher<I, O>>>();
  return (db: D, shape: string): Batcher<I, O> => {
    let byShape = byDb.get(db);
    if (!byShape) byDb.set(db, (byShape = new Map()));
    let batcher = byShape.get(shape);
    if (!batcher) byShape.set(shape, (batcher = createBatcher(options(db))));
    return batcher;
  };
}
