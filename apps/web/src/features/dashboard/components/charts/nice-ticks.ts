/**
 * A value axis from 0 to at least `max` in about `count` round steps (1, 2 or 5 times a power of ten), so
 * it reads 0, 500, 1,000 rather than 0, 437, 874. An axis with nothing on it runs from 0 to 1.
 */
export function niceTicks(max: number, count = 5): number[] {
  const top = max > 0 ? max : 1;
  const rough = top / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((multiple) => multiple * power).find((candidate) => candidate >= rough)!;
  // 0.1 * 3 is 0.30000000000000004: each tick is rounded to the step's decimals.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const steps = Math.ceil(top / step - 1e-9);
  return Array.from({ length: steps + 1 }, (_, i) => Number((i * step).toFixed(decimals)));
}
