import type { ChannelRow } from './channels.repository.ts';

// Routing (DESIGN 14), the pure part: which of a merchant's open channels of a kind and mode an order goes
// to, and when a channel's health changes. No I/O: the services choose from the routing table they keep
// in memory (channels.service.ts, routingTableOf), so a gateway order stays one statement.
//
// - Priority: higher first. An order goes to the highest-priority channels that accept its amount (their
//   minimum and maximum), shared by weight.
// - Health: over a channel's last 50 ended attempts (succeeded or failed) since its health was last reset,
//   at least 10 and half or more failed by the channel's fault (its adapter's isChannelFault: no
//   connection, a timeout, a 5xx; a declined order, such as an account the bank does not know, counts as
//   ended, not failed): it cools down for 5 minutes (skipped), then takes a tenth of its weight (the other
//   nine tenths go to the next priority, when there is one) until its next 10 ended attempts fail less
//   than half (recovered) or half or more (cooled down again).
// - A channel cooling down is still used when every channel that accepts the amount is cooling down: an
//   order is never refused for health alone.

export const ROUTING_RULES = {
  /** How many of a channel's latest ended attempts its failure rate is counted over. */
  window: 50,
  /** Fewer ended attempts than this say nothing yet. */
  minAttempts: 10,
  /** The failure rate (failed by the channel's fault / ended) at which a channel cools down. */
  failureRate: 0.5,
  cooldownMs: 5 * 60_000,
  /** The share of its weight a channel takes after its cool-down, until it recovers. */
  probationShare: 0.1,
} as const;

export type RoutableChannel = Pick<
  ChannelRow,
  'id' | 'priority' | 'weight' | 'minAmountMinor' | 'maxAmountMinor' | 'cooldownUntil'
>;

export type ChannelHealth = 'healthy' | 'cooling' | 'probation';

export const healthOf = (channel: Pick<ChannelRow, 'cooldownUntil'>, now: Date): ChannelHealth =>
  channel.cooldownUntil === null
    ? 'healthy'
    : channel.cooldownUntil.getTime() > now.getTime()
      ? 'cooling'
      : 'probation';

/**
 * The channel an order of this amount goes to, or undefined when none accepts it. `exclude`: channels
 * already tried for the order (a failover's next channel). `random` is in [0, 1).
 */
export function pickChannel<T extends RoutableChannel>(
  channels: readonly T[],
  amountMinor: bigint,
  now: Date,
  random: () => number,
  exclude?: ReadonlySet<number>,
): T | undefined {
  const accepting = channels.filter(
    (c) => !exclude?.has(c.id) && amountMinor >= c.minAmountMinor && amountMinor <= c.maxAmountMinor,
  );
  if (accepting.length === 0) return undefined;
  if (accepting.length === 1) return accepting[0];
  const usable = accepting.filter((c) => healthOf(c, now) !== 'cooling');
  // Every one cooling down: they share the orders as if their cool-downs were over.
  const pool = usable.length > 0 ? usable : accepting;
  const priorities = [...new Set(pool.map((c) => c.priority))].sort((a, b) => b - a);
  const draw = random();
  return pickFrom(pool, priorities, 0, draw, now);
}

/**
 * One priority's channels by weight; a channel after its cool-down takes a share of its weight only, and
 * the rest of its weight goes to the next priority when there is one. `draw` in [0, 1) decides, rescaled
 * at each step so one random number serves the whole choice.
 */
function pickFrom<T extends RoutableChannel>(
  pool: readonly T[],
  priorities: readonly number[],
  level: number,
  draw: number,
  now: Date,
): T {
  const group = pool.filter((c) => c.priority === priorities[level]);
  const effective = group.map((c) =>
    healthOf(c, now) === 'healthy' ? c.weight : c.weight * ROUTING_RULES.probationShare,
  );
  const full = group.reduce((sum, c) => sum + c.weight, 0);
  const kept = effective.reduce((sum, w) => sum + w, 0);
  const hasNext = level + 1 < priorities.length;
  const total = hasNext ? full : kept;
  let at = draw * total;
  for (let i = 0; i < group.length; i++) {
    if (at < effective[i]) return group[i];
    at -= effective[i];
  }
  // What probation channels gave up goes to the next priority (only reached when there is one).
  return hasNext ? pickFrom(pool, priorities, level + 1, at / (full - kept), now) : group[group.length - 1];
}

export type HealthChange = 'cooled_down' | 'recovered' | null;

/**
 * How a channel's health changes after an attempt ended, from its ended attempts counted since its health
 * was last reset (at most ROUTING_RULES.window of them, `failed` of which failed).
 */
export function healthChange(health: ChannelHealth, ended: number, failed: number): HealthChange {
  if (health === 'cooling' || ended < ROUTING_RULES.minAttempts) return null;
  const failing = failed / ended >= ROUTING_RULES.failureRate;
  if (failing) return 'cooled_down';
  return health === 'probation' ? 'recovered' : null;
}
