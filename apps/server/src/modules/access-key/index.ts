import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccessKeyResponseSchema,
  AccessKeySecretResponseSchema,
  IpWhitelistResponseSchema,
  RegeneratedAccessKeyResponseSchema,
  UpdateIpWhitelistBodySchema,
  UpdateNotifyUrlBodySchema,
} from '@paydesk/shared/access-key/access-key.schemas.ts';
import { ModeSchema } from '@paydesk/shared/modes/modes.schemas.ts';
import type { AppContext } from '../../context.ts';
import { authOf, clientOf } from '../../plugins/auth-context.ts';
import { parseInput } from '../security/index.ts';
import { type AccessKeyService, createAccessKeyService } from './access-key.service.ts';

export {
  type AccessKeyService,
  findAccessKeyWithMerchant,
  seedAccessKey,
  seedIpWhitelist,
} from './access-key.service.ts';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
/** Step-up fields are checked by the step-up itself (its own messages, counts and lock). */
const StepUpInputSchema = z.object({ payment_password: z.unknown(), code: z.unknown() }).partial();
/** Which key (DESIGN 12): the query's or body's `mode`, not X-Mode; absent means live. */
const KeyModeSchema = z.object({ mode: ModeSchema.default('live') });
const IpWhitelistInputSchema = StepUpInputSchema.extend({
  ip_address: UpdateIpWhitelistBodySchema.shape.ip_address,
});

/**
 * The merchant's access key and IP whitelist (ROOT: access-key:manage and ip-whitelist:manage). Revealing
 * and regenerating the secret and saving the whitelist need the payment password and a Google code.
 */
export function registerAccessKeyModule(
  app: FastifyInstance,
  { db, guards, config, notifications, now }: AppContext,
): AccessKeyService {
  const service = createAccessKeyService({ db, appKey: config.appKey, notifications, now });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const keyPerm = guards.requirePerm('access-key:manage');
  const ipPerm = guards.requirePerm('ip-whitelist:manage');
  /** The actor on the live row (keys and the whitelist are the company's), on the key of `mode`. */
  const actorOf = (request: Parameters<typeof authOf>[0], input: unknown = {}) => {
    const { user, liveMerchant } = authOf(request);
    const { mode } = parseInput(KeyModeSchema, input ?? {});
    return { user, merchant: liveMerchant, mode, client: clientOf(request) };
  };
  const stepUpOf = (input: { payment_password?: unknown; code?: unknown }) => ({
    paymentPassword: text(input.payment_password),
    code: text(input.code),
  });

  r.get(
    '/api/merchant/access-key',
    { onRequest: keyPerm, schema: { response: { 200: AccessKeyResponseSchema } } },
    async (request) => ({ data: await service.get(actorOf(request, request.query)) }),
  );

  r.get(
    '/api/merchant/access-key/secret',
    { onRequest: keyPerm, schema: { response: { 200: AccessKeySecretResponseSchema } } },
    async (request) => ({
      data: await service.reveal(
        actorOf(request, request.query),
        stepUpOf(parseInput(StepUpInputSchema, request.query)),
      ),
    }),
  );

  r.put(
    '/api/merchant/access-key/regenerate',
    { onRequest: keyPerm, schema: { response: { 200: RegeneratedAccessKeyResponseSchema } } },
    async (request) => ({
      data: await service.regenerate(
        actorOf(request, request.body),
        stepUpOf(parseInput(StepUpInputSchema, request.body)),
      ),
    }),
  );

  r.put(
    '/api/merchant/access-key/update',
    { onRequest: keyPerm, schema: { response: { 200: AccessKeyResponseSchema } } },
    async (request) => ({
      // Parsed after the guard: a caller who may not use the form learns nothing from its validation.
      // One notify URL per key, as Stripe has one webhook endpoint per mode: the body's `mode` says which.
      data: await service.updateNotifyUrl(
        actorOf(request, request.body),
        parseInput(UpdateNotifyUrlBodySchema, request.body).notify_url ?? null,
      ),
    }),
  );

  r.get(
    '/api/merchant/ip-address',
    { onRequest: ipPerm, schema: { response: { 200: IpWhitelistResponseSchema } } },
    async (request) => ({ data: { ips: await service.whitelist(authOf(request).liveMerchant.id) } }),
  );

  r.put(
    '/api/merchant/ip-address',
    {
      onRequest: ipPerm,
      schema: { response: { 200: IpWhitelistResponseSchema } },
    },
    async (request) => {
      const body = parseInput(IpWhitelistInputSchema, request.body);
      return {
        data: { ips: await service.updateWhitelist(actorOf(request), body.ip_address, stepUpOf(body)) },
      };
    },
  );

  return service;
}
