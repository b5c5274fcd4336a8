import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromMinor } from '@paydesk/shared';
import { BalanceResponseSchema } from '@paydesk/shared/funds/funds.schemas.ts';
import type { AppContext } from '../../context.ts';
import { createLedger } from '../ledger/index.ts';
import { createGatewayGuard, gatewayMerchantOf } from './gateway-auth.ts';

export { type DeferredClaim, gatewayMerchantOf, type GatewayMerchant } from './gateway-auth.ts';
export {
  gatewayRepository,
  NONCE_CLAIM_COLUMNS,
  NONCE_TTL_MS,
  nonceClaimBatchAnswers,
  nonceClaimBatchCtes,
  nonceClaimedBy,
  nonceClaimRow,
  type NonceClaimSql,
} from './gateway.repository.ts';
export { GATEWAY_API_DESCRIPTION } from './gateway-docs.ts';

/** Requests per minute one merchant may send the gateway (per server process). */
export const GATEWAY_RATE_PER_MINUTE = 3000;

/** Every gateway route's options: its merchant's rate limit (@fastify/rate-limit, per process). */
export const GATEWAY_ROUTE_CONFIG = {
  rateLimit: {
    max: GATEWAY_RATE_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: (request: { headers: Record<string, unknown>; ip: string }) =>
      `gateway:${String(request.headers['x-merchant-no'] ?? request.ip)}`,
  },
};

export type GatewayScope = {
  scope: FastifyInstance;
  requireSignature: preHandlerAsyncHookHandler;
  /** requireSignature for a route whose one write claims the nonce too (see DeferredClaim). */
  requireSignatureDeferringClaim: preHandlerAsyncHookHandler;
};

/**
 * The merchant gateway API (/gateway/v1, DESIGN section 6) in its own scope: JSON bodies are kept as the
 * bytes received (the signature covers them), every route is signed, and each merchant is rate limited.
 * `routes` adds the other modules' gateway routes (collections, later payouts) to the scope.
 */
export async function registerGatewayModule(
  app: FastifyInstance,
  ctx: AppContext,
  routes: (gateway: GatewayScope) => void,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
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
export async function registerGatewayDocs(app: FastifyInstance): Promise<void> {
  app.get('/gateway/openapi.json', { schema: { hide: true } }, async () => app.swagger());
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
