import { describe, expect, it } from 'vitest';
import { niceTicks } from './nice-ticks.ts';

describe('niceTicks', () => {
  it('steps by 1, 2 or 5 times a power of ten, up to the first tick at or above the maximum', () => {
    expect(niceTicks(1000)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(niceTicks(1001)).toEqual([0, 500, 1000, 1500]);
    expect(niceTicks(7.25)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(123_456)).toEqual([0, 50_000, 100_000, 150_000]);
  });

  it('keeps decimal steps exact, and runs an empty axis to 1', () => {
    expect(niceTicks(0.3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(0)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
});
