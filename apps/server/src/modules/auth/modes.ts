import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@paydesk/shared';
import { isMode, MODE_HEADER, type Mode } from '@paydesk/shared/modes/modes.schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { merchants } from '../../db/schema/index.ts';
import { setNewest } from '../../lib/bounded-map.ts';
import { badRequest, conflict } from '../../lib/errors.ts';

// The console's mode (DESIGN 12): the X-Mode header of every signed-in call picks the merchant row the call
// acts for, the live row or its test twin. A twin's id never changes once made, so a process remembers it.

/**
 * A file the browser fetches by a plain link, which sends no header: an export's download says its mode
 * in `?mode=` instead (the header wins when both are there).
 */
const MODE_IN_QUERY_ROUTES = new Set(['/api/merchant/exports/:id/download']);

/** The mode a console call asks for: absent or `live` is live; anything but live or test is refused. */
export function modeOfRequest(request: FastifyRequest): Mode {
  const inQuery = MODE_IN_QUERY_ROUTES.has(request.routeOptions.url ?? '')
    ? (request.query as { mode?: unknown } | undefined)?.mode
    : undefined;
  const value = request.headers[MODE_HEADER] ?? inQuery;
  if (value === undefined) return 'live';
  if (isMode(value)) return value;
  throw badRequest('The X-Mode header must be live or test.', ERROR_CODES.modeInvalid);
}

/**
 * The console's routes of money that is live only (DESIGN 12): top-ups and withdrawals, their lists,
 * details, options and files. In test mode they answer 409 live_only, whatever the route.
 */
const LIVE_ONLY_ROUTES = ['/api/merchant/recharge', '/api/merchant/withdrawal'];

/** Refuses a live-only route in test mode (409 live_only); decided by the route the router matched. */
export function refuseLiveOnlyInTestMode(request: FastifyRequest, mode: Mode): void {
  const route = request.routeOptions.url ?? '';
  if (mode === 'test' && LIVE_ONLY_ROUTES.some((prefix) => route.startsWith(prefix))) {
    throw conflict(
      'Top-ups and withdrawals are live only: switch off test mode to use them.',
      ERROR_CODES.liveOnly,
    );
  }
}

/** How many merchants' twins one process remembers (the oldest is forgotten first). */
const REMEMBERED_TWINS = 10_000;

/** The test twin's id of a live merchant row, read once per process and merchant. */
export function createTwinLookup(db: DbOrTx) {
  const known = new Map<number, number>();
  return async function twinOf(liveMerchantId: number): Promise<number> {
    const remembered = known.get(liveMerchantId);
    if (remembered !== undefined) return remembered;
    const [row] = await db
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.liveMerchantId, liveMerchantId));
    if (!row) throw new Error(`Merchant ${liveMerchantId} has no test twin`);
    setNewest(known, liveMerchantId, row.id, REMEMBERED_TWINS);
    return row.id;
  };
}

/** Lists of what is the company's, the same in both modes (DESIGN 12): no mode to say. */
const COMPANY_LIST_ROUTES = new Set(['/api/merchant/security-events']);

/**
 * `meta.mode` on every signed-in list answer of per-mode objects (DESIGN 12): the mode its objects are of,
 * set in one place so that no list forgets it.
 */
export function registerModeMeta(app: FastifyInstance) {
  app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
    const meta = (payload as { meta?: unknown } | null)?.meta;
    if (COMPANY_LIST_ROUTES.has(request.routeOptions.url ?? '')) return payload;
    if (request.auth && meta && typeof meta === 'object' && !Array.isArray(meta)) {
      (meta as { mode?: Mode }).mode = request.auth.mode;
    }
    return payload;
  });
}
