import type { FastifyError, FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ERROR_CODES, fromMinor } from '@paydesk/shared';
import { BalanceResponseSchema } from '@paydesk/shared/funds/funds.schemas.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { createLedger } from '../ledger/index.ts';
import { createGatewayGuard, gatewayMerchantOf } from './gateway-auth.ts';
import { createGatewayLimits, type GatewayLimitOptions } from './gateway-limits.ts';

export {
  type DeferredClaim,
  deleteExpiredNonces,
  gatewayMerchantOf,
  type GatewayMerchant,
} from './gateway-auth.ts';
// SQL fragments for a gateway order's one-statement write (DESIGN 8), not a repository.
export { NONCE_TTL_MS, nonceClaim, type NonceClaimSql } from './nonce-claim.sql.ts';
export { GATEWAY_API_DESCRIPTION } from './gateway-docs.ts';
export { GATEWAY_TAGS, gatewayTransform, gatewayTransformObject } from './gateway-openapi.ts';
export type { GatewayLimitOptions } from './gateway-limits.ts';

/**
 * The scheme and host a call reached (through trusted proxies, TRUST_PROXY), e.g. https://pay.example.com:
 * what makes a path of ours absolute in an answer when PUBLIC_URL is not set.
 */
export const requestOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Requests per minute one merchant may send the gateway (per server process). */
export const GATEWAY_RATE_PER_MINUTE = 3000;

/**
 * Every gateway route's options: out of the API's per-IP limit (@fastify/rate-limit), which would count a
 * merchant's signed calls with strangers' from the same address. The gateway limits its calls itself
 * (gateway-limits.ts): refused calls per IP address, signed calls per merchant.
 */
export const GATEWAY_ROUTE_CONFIG = { rateLimit: false } as const;

/** The media type the gateway takes a body in (a charset parameter is fine). */
const JSON_TYPE = 'application/json';

/** The 415 of a call that has a body whose Content-Type is not application/json, else undefined. */
function unsupportedBody(request: FastifyRequest): AppError | undefined {
  const { headers } = request;
  const length = headers['content-length'];
  if (headers['transfer-encoding'] === undefined && (length === undefined || length === '0'))
    return undefined;
  const type = headers['content-type'];
  if (type === JSON_TYPE || type?.split(';', 1)[0].trim().toLowerCase() === JSON_TYPE) return undefined;
  return new AppError(
    415,
    'The gateway takes a request body as JSON only: send it with Content-Type: application/json.',
    { code: ERROR_CODES.unsupportedMediaType },
  );
}

export type GatewayScope = {
  scope: FastifyInstance;
  requireSignature: preHandlerAsyncHookHandler;
  /** requireSignature for a route whose one write claims the nonce too (see DeferredClaim). */
  requireSignatureDeferringClaim: preHandlerAsyncHookHandler;
};

/**
 * The merchant gateway API (/gateway/v1, DESIGN section 6) in its own scope: bodies are JSON only (415
 * else), kept as the bytes received (the signature covers them), every route is signed, refused calls are
 * limited per IP address and signed ones per merchant (DESIGN 9). `routes` adds the other modules'
 * gateway routes (collections, payouts) to the scope.
 */
export async function registerGatewayModule(
  app: FastifyInstance,
  ctx: AppContext,
  routes: (gateway: GatewayScope) => void,
  limitOptions: GatewayLimitOptions = {},
): Promise<void> {
  await app.register(async (scope) => {
    const limits = createGatewayLimits({
      now: ctx.now,
      ratePerMinute: limitOptions.ratePerMinute ?? GATEWAY_RATE_PER_MINUTE,
      failuresPerIpPerMinute: limitOptions.failuresPerIpPerMinute ?? ctx.config.apiRatePerMinute,
    });
    // Before anything is read or checked: an address over its refused calls, then a body that is not JSON.
    scope.addHook('onRequest', (request, _reply, done) => {
      done((limits.addressRefusal(request.ip) ?? unsupportedBody(request)) as FastifyError | undefined);
    });
    // Every call refused before its signature was accepted counts against its address, and so does a
    // replayed nonce, whose merchant gets back the quota it took (a copy of a signed call, which anyone
    // who saw it could send, is not the merchant's call); a signed call's other refusals (a 422, its
    // merchant's 429) do not count against the address.
    scope.addHook('onError', (request, _reply, error, done) => {
      const replayed = error.code === ERROR_CODES.nonceReused;
      if (replayed && request.gatewaySpent) {
        limits.giveBack(request.gatewaySpent.merchantId, request.gatewaySpent.at);
      }
      if (!request.gatewayVerified || replayed) limits.refused(request.ip);
      done();
    });
    // No form parsers here (the app's multipart one included): JSON is the only body the gateway reads.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      const raw = body as Buffer;
      request.rawBody = raw;
      if (raw.length === 0) return done(null, undefined);
      try {
        done(null, JSON.parse(raw.toString('utf8')));
      } catch {
        const error = new Error('The body is not valid JSON.') as Error & { statusCode: number };
        error.statusCode = 400;
        done(error, undefined);
      }
    });
    const { requireSignature, requireSignatureDeferringClaim } = createGatewayGuard({
      db: ctx.db,
      appKey: ctx.config.appKey,
      now: ctx.now,
      limits,
    });
    const ledger = createLedger();
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/gateway/v1/balance',
      {
        preHandler: requireSignature,
        config: GATEWAY_ROUTE_CONFIG,
        schema: {
          summary: "The merchant's balance",
          tags: ['Balance'],
          response: { 200: BalanceResponseSchema },
        },
      },
      async (request) => {
        const merchant = gatewayMerchantOf(request);
        const { availableMinor, lockedMinor } = await ledger.balanceOf(ctx.db, merchant.id);
        return {
          data: {
            available: fromMinor(availableMinor, merchant.currency),
            locked: fromMinor(lockedMinor, merchant.currency),
            total: fromMinor(availableMinor + lockedMinor, merchant.currency),
            currency: merchant.currency,
          },
        };
      },
    );
    routes({ scope, requireSignature, requireSignatureDeferringClaim });
  });
}

/**
 * The gateway's reference (DESIGN section 6): the OpenAPI 3.1 document at /gateway/openapi.json and a
 * readable page at /gateway/docs (Scalar, served from our own node_modules: no network needed).
 */
export async function registerGatewayDocs(
  app: FastifyInstance,
  config: Pick<AppContext['config'], 'publicUrl'>,
): Promise<void> {
  // The server a generated client or the reference's "try it" calls: PUBLIC_URL, else the origin this
  // document was read from (the same server, as the reader reached it).
  app.get('/gateway/openapi.json', { schema: { hide: true } }, async (request) => ({
    ...app.swagger(),
    servers: [{ url: config.publicUrl || requestOrigin(request), description: 'This Paydesk server' }],
  }));
  await app.register(async (scope) => {
    // Scalar's page boots with an inline script and inline styles: its own, looser policy on its own pages.
    scope.addHook('onSend', async (_request, reply) => {
      reply.header(
        'content-security-policy',
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'",
      );
    });
    // Loaded here, not with the module: the reference page is a few MB of script that processes which
    // serve no pages (the export worker, the ops command line) need not hold.
    const { default: scalar } = await import('@scalar/fastify-api-reference');
    await scope.register(scalar, {
      routePrefix: '/gateway/docs',
      configuration: { url: '/gateway/openapi.json', hideClientButton: true, telemetry: false } as never,
      logLevel: 'silent',
    });
  });
}
