import { setNewest } from '../../lib/bounded-map.ts';
import { type AppError, tooManyRequests } from '../../lib/errors.ts';
import { rateKeyOfAddress } from '../../lib/ip-address.ts';

// The gateway's rate limits (DESIGN 9, turn 3): a call that is refused before its signature is accepted
// (unsigned, wrongly signed, a reused nonce, a body that is not JSON, ...) counts against the caller's IP
// address only; a merchant's quota is spent only by calls that carry its valid signature. Counters are
// in this process's memory, in fixed windows of one minute of the injected clock: no database round trip.

/** The limits a deployment (or a test) may set; both per minute and per server process. */
export type GatewayLimitOptions = {
  /** Calls with a valid signature one merchant may make (GATEWAY_RATE_PER_MINUTE by default). */
  ratePerMinute?: number;
  /** Refused calls one IP address may make before it is answered 429 (API_RATE_PER_MINUTE by default). */
  failuresPerIpPerMinute?: number;
};

const WINDOW_MS = 60_000;

/** How many addresses one window remembers (the oldest is forgotten first): memory stays bounded. */
const REMEMBERED_ADDRESSES = 100_000;

type Counter = { count: number };

export type GatewayLimits = ReturnType<typeof createGatewayLimits>;

export function createGatewayLimits({
  now,
  ratePerMinute,
  failuresPerIpPerMinute,
}: {
  now: () => Date;
  ratePerMinute: number;
  failuresPerIpPerMinute: number;
}) {
  let window = Number.NaN;
  const failures = new Map<string, Counter>();
  const spent = new Map<number, Counter>();

  /** Moves to the window of `at` (forgetting the last one's counts); the seconds until it ends. */
  function windowOf(at: Date): number {
    const ms = at.getTime();
    const current = Math.floor(ms / WINDOW_MS);
    if (current !== window) {
      window = current;
      failures.clear();
      spent.clear();
    }
    return ((current + 1) * WINDOW_MS - ms) / 1000;
  }

  return {
    /** The 429 of an address that has used up its refused calls this minute; checked before anything. */
    addressRefusal(ip: string): AppError | undefined {
      if (failures.size === 0) return undefined;
      const retryAfter = windowOf(now());
      const counter = failures.get(rateKeyOfAddress(ip));
      if (!counter || counter.count < failuresPerIpPerMinute) return undefined;
      return tooManyRequests(
        retryAfter,
        'Too many refused calls from this address. Please wait the seconds in Retry-After.',
      );
    },

    /** Counts a refused call against its address. */
    refused(ip: string): void {
      windowOf(now());
      const key = rateKeyOfAddress(ip);
      const counter = failures.get(key);
      if (counter) counter.count += 1;
      else setNewest(failures, key, { count: 1 }, REMEMBERED_ADDRESSES);
    },

    /**
     * Gives back the call `spend` took at `at`, for a call that turned out to be a replay (its nonce was
     * used): a copy of a signed call is not the merchant's call. A call of a past window is left alone.
     */
    giveBack(merchantId: number, at: Date): void {
      if (Math.floor(at.getTime() / WINDOW_MS) !== window) return;
      const counter = spent.get(merchantId);
      if (counter && counter.count > 0) counter.count -= 1;
    },

    /** Spends one call of the merchant's quota: the 429 when the quota of this minute is used up. */
    spend(merchantId: number, at: Date): AppError | undefined {
      const retryAfter = windowOf(at);
      const counter = spent.get(merchantId);
      if (!counter) {
        spent.set(merchantId, { count: 1 });
        return undefined;
      }
      counter.count += 1;
      if (counter.count <= ratePerMinute) return undefined;
      return tooManyRequests(
        retryAfter,
        `Too many calls: at most ${ratePerMinute} a minute. Please wait the seconds in Retry-After.`,
      );
    },
  };
}
