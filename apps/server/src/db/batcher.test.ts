import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher.ts';

/** A statement the test finishes by hand: each `many` or `one` call waits until released. */
function fakeStatements() {
  const calls: { kind: 'one' | 'many'; items: number[]; release: (error?: Error) => void }[] = [];
  const run = (kind: 'one' | 'many', items: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      calls.push({
        kind,
        items,
        release: (error) => (error ? reject(error) : resolve(items.map((n) => n * 10))),
      });
    });
  return {
    calls,
    one: async (n: number) => {
      if (n < 0) throw new Error(`refused ${n}`);
      return (await run('one', [n]))[0];
    },
    many: (items: number[]) => run('many', items),
  };
}

/** Lets the batcher's next turn of the event loop (its flush) and the promise chains before it run. */
/** A batcher on the test's statements; every failure runs each call alone unless the options say otherwise. */
const batcherOn = (
  s: ReturnType<typeof fakeStatements>,
  options: Partial<Parameters<typeof createBatcher<number, number>>[0]> = {},
) => createBatcher<number, number>({ one: s.one, many: s.many, alone: () => true, ...options });

const turn = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};
const refusedAlone = Object.assign(new Error('unique violation'), { code: '23505' });
const lost = Object.assign(new Error('connection terminated'), { code: undefined });

describe('createBatcher', () => {
  it('runs a call alone when nothing is in flight, and writes the calls that came meanwhile together', async () => {
    const s = fakeStatements();
    const batcher = batcherOn(s, { maxInFlight: 1 });
    const first = batcher.submit(1);
    await turn();
    const later = [2, 3, 4].map((n) => batcher.submit(n));
    await turn();
    expect(s.calls.map((c) => [c.kind, c.items])).toEqual([['one', [1]]]);

    s.calls[0].release();
    expect(await first).toBe(10);
    await turn();
    expect(s.calls.map((c) => [c.kind, c.items])).toEqual([
      ['one', [1]],
      ['many', [2, 3, 4]],
    ]);
    s.calls[1].release();
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
  });

  it('caps a batch at maxBatch and runs up to maxInFlight statements at once', async () => {
    const s = fakeStatements();
    const batcher = batcherOn(s, { maxBatch: 2, maxInFlight: 2 });
    const answers = [1, 2, 3, 4, 5].map((n) => batcher.submit(n));
    await turn();
    expect(s.calls.map((c) => c.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    s.calls[0].release();
    await turn();
    expect(s.calls.map((c) => c.items)).toEqual([[1, 2], [3, 4], [5]]);
    s.calls[1].release();
    s.calls[2].release();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50]);
  });

  it('shares the waiting calls fairly between the statements that may run at once', async () => {
    const s = fakeStatements();
    const batcher = batcherOn(s, { maxInFlight: 2 });
    const first = batcher.submit(1);
    await turn();
    const later = [2, 3, 4, 5, 6, 7, 8].map((n) => batcher.submit(n));
    await turn();
    // 8 calls over 2 statements: the second takes its share of 4, not all 7 waiting.
    expect(s.calls.map((c) => c.items)).toEqual([[1], [2, 3, 4, 5]]);
    s.calls[0].release();
    expect(await first).toBe(10);
    await turn();
    // The 3 left go when a statement is free.
    expect(s.calls[2].items).toEqual([6, 7, 8]);
    s.calls[1].release();
    s.calls[2].release();
    expect(await Promise.all(later)).toEqual([20, 30, 40, 50, 60, 70, 80]);
  });

  it('runs each call of a batch alone after an error that wrote nothing: each gets its own answer', async () => {
    const s = fakeStatements();
    const batcher = batcherOn(s, {
      alone: (error) => (error as { code?: string }).code === '23505',
      maxInFlight: 1,
    });
    const answers = [5, -1, 6].map((n) => batcher.submit(n).catch((e: Error) => e.message));
    await turn();
    s.calls[0].release(refusedAlone);
    await turn();
    expect(s.calls.map((c) => [c.kind, c.items])).toEqual([
      ['many', [5, -1, 6]],
      ['one', [5]],
      ['one', [6]],
    ]);
    s.calls[1].release();
    s.calls[2].release();
    expect(await Promise.all(answers)).toEqual([50, 'refused -1', 60]);
  });

  it('answers any other error to every call of the batch, running none again', async () => {
    const s = fakeStatements();
    const batcher = batcherOn(s, {
      alone: (error) => (error as { code?: string }).code === '23505',
      maxInFlight: 1,
    });
    const answers = [7, 8].map((n) => batcher.submit(n).catch((e: Error) => e.message));
    await turn();
    s.calls[0].release(lost);
    expect(await Promise.all(answers)).toEqual(['connection terminated', 'connection terminated']);
    expect(s.calls).toHaveLength(1);
  });
});

describe('createBatcher with keys', () => {
  it('puts calls that share a key in different batches, in the order they came', async () => {
    const s = fakeStatements();
    const batcher = batcherOn(s, { maxInFlight: 1, keysOf: (n) => [`k${n % 10}`] });
    const first = batcher.submit(1);
    await turn();
    const later = [2, 12, 3, 22, 4].map((n) => batcher.submit(n));
    s.calls[0].release();
    await first;
    await turn();
    expect(s.calls[1].items).toEqual([2, 3, 4]);
    s.calls[1].release();
    await turn();
    expect(s.calls[2].items).toEqual([12]);
    s.calls[2].release();
    await turn();
    expect(s.calls[3].items).toEqual([22]);
    s.calls[3].release();
    expect(await Promise.all(later)).toEqual([20, 120, 30, 220, 40]);
  });
});

describe('createBatcher with lanes', () => {
  it('keeps a lane in one batch at a time: its calls wait for it while other lanes go ahead', async () => {
    const s = fakeStatements();
    const batcher = batcherOn(s, { maxInFlight: 2, laneOf: (n) => (n < 10 ? 'hot' : `m${n}`) });
    const answers = [1, 2, 3].map((n) => batcher.submit(n));
    await turn();
    expect(s.calls.map((c) => c.items)).toEqual([[1, 2, 3]]);
    const more = [4, 11, 5, 12].map((n) => batcher.submit(n));
    await turn();
    // 4 and 5 wait for the hot lane; 11 and 12 go ahead in the second batch in flight.
    expect(s.calls.map((c) => c.items)).toEqual([
      [1, 2, 3],
      [11, 12],
    ]);
    s.calls[0].release();
    await turn();
    expect(s.calls[2].items).toEqual([4, 5]);
    s.calls[1].release();
    s.calls[2].release();
    expect(await Promise.all([...answers, ...more])).toEqual([10, 20, 30, 40, 110, 50, 120]);
  });
});
