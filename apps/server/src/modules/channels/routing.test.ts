import { describe, expect, it } from 'vitest';
import { healthChange, healthOf, pickChannel, type RoutableChannel } from './routing.ts';

// Routing's choice (DESIGN 14) with an injected random: priority first, then weight, amount limits, and
// a channel's cool-down and probation.

const NOW = new Date('2026-11-29T10:00:00Z');
const channel = (id: number, over: Partial<RoutableChannel> = {}): RoutableChannel => ({
  id,
  priority: 0,
  weight: 100,
  minAmountMinor: 100n,
  maxAmountMinor: 1_000_000n,
  cooldownUntil: null,
  ...over,
});

/** How many of `n` orders each channel gets, with draws spread evenly over [0, 1). */
function shares(channels: RoutableChannel[], amountMinor = 10_000n, n = 1000, now = NOW) {
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const chosen = pickChannel(channels, amountMinor, now, () => (i + 0.5) / n);
    counts.set(chosen!.id, (counts.get(chosen!.id) ?? 0) + 1);
  }
  return Object.fromEntries(counts);
}

describe('pickChannel', () => {
  it('shares orders among the same priority by weight', () => {
    expect(shares([channel(1, { weight: 300 }), channel(2, { weight: 100 })])).toEqual({ 1: 750, 2: 250 });
    expect(shares([channel(1), channel(2), channel(3)])).toEqual({ 1: 333, 2: 334, 3: 333 });
  });

  it('sends every order to the highest priority that accepts its amount', () => {
    const table = [
      channel(1, { priority: 5, maxAmountMinor: 5_000n }),
      channel(2, { priority: 1 }),
      channel(3, { priority: 1 }),
      channel(4, { priority: 9, minAmountMinor: 50_000n }),
    ];
    expect(shares(table, 1_000n)).toEqual({ 1: 1000 });
    expect(shares(table, 10_000n)).toEqual({ 2: 500, 3: 500 });
    expect(shares(table, 60_000n)).toEqual({ 4: 1000 });
    // Nothing accepts it: no channel (the caller refuses with the first one's limits).
    expect(pickChannel(table, 50n, NOW, () => 0)).toBeUndefined();
  });

  it('skips channels already tried (a failover) and those cooling down', () => {
    const table = [channel(1, { priority: 2 }), channel(2, { priority: 1 }), channel(3)];
    expect(pickChannel(table, 10_000n, NOW, () => 0, new Set([1]))?.id).toBe(2);
    expect(pickChannel(table, 10_000n, NOW, () => 0, new Set([1, 2]))?.id).toBe(3);
    expect(pickChannel(table, 10_000n, NOW, () => 0, new Set([1, 2, 3]))).toBeUndefined();
    const cooling = new Date(NOW.getTime() + 60_000);
    expect(shares([channel(1, { priority: 2, cooldownUntil: cooling }), channel(2)])).toEqual({ 2: 1000 });
    // All of them cooling: they share the orders rather than refuse them.
    expect(shares([channel(1, { cooldownUntil: cooling }), channel(2, { cooldownUntil: cooling })])).toEqual({
      1: 500,
      2: 500,
    });
  });

  it('gives a channel after its cool-down a tenth of its weight, the rest to the next priority', () => {
    const over = new Date(NOW.getTime() - 1);
    expect(shares([channel(1, { priority: 2, cooldownUntil: over }), channel(2)])).toEqual({
      1: 100,
      2: 900,
    });
    expect(shares([channel(1, { cooldownUntil: over }), channel(2)])).toEqual({ 1: 91, 2: 909 });
  });
});

describe('channel health', () => {
  it('cools down at half failed over at least 10 ended attempts, recovers after its probation', () => {
    expect(healthOf({ cooldownUntil: null }, NOW)).toBe('healthy');
    expect(healthOf({ cooldownUntil: new Date(NOW.getTime() + 1) }, NOW)).toBe('cooling');
    expect(healthOf({ cooldownUntil: NOW }, NOW)).toBe('probation');
    expect(healthChange('healthy', 9, 9)).toBeNull();
    expect(healthChange('healthy', 10, 4)).toBeNull();
    expect(healthChange('healthy', 10, 5)).toBe('cooled_down');
    expect(healthChange('cooling', 50, 50)).toBeNull();
    expect(healthChange('probation', 10, 4)).toBe('recovered');
    expect(healthChange('probation', 10, 5)).toBe('cooled_down');
    expect(healthChange('probation', 9, 0)).toBeNull();
  });
});
