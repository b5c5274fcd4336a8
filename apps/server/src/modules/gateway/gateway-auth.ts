import { ERROR_CODES, type Currency } from '@paydesk/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { decrypt } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { checkTimestamp, isValidNonce, verifyRequestSignature } from '../../lib/gateway-signature.ts';
import { ipAllowed } from '../../lib/ip-whitelist.ts';
import { accessKeysRepository } from '../access-key/index.ts';
import { gatewayRepository } from './gateway.repository.ts';

// The signed gateway call (DESIGN section 6): X-Merchant-No, X-Access-Key, X-Timestamp (within 300 s),
// X-Nonce (once per 10 minutes), X-Signature over the method, path, timestamp, nonce and body hash; the
// caller's IP in the merchant's whitelist. Refusals say what kind of thing failed, never which part of a
// secret was wrong.

export type GatewayMerchant = { id: number; no: string; name: string; currency: Currency };

declare module 'fastify' {
  interface FastifyRequest {
    gatewayMerchant?: GatewayMerchant;
    /** The body's bytes as received: the signature covers them, not a re-serialisation. */
    rawBody?: Buffer;
  }
}

const refuse = (status: 401 | 403, message: string, code: string) =>
  new AppError(status, message, { code: code as (typeof ERROR_CODES)[keyof typeof ERROR_CODES] });

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

export function gatewayMerchantOf(request: FastifyRequest): GatewayMerchant {
  if (!request.gatewayMerchant) throw refuse(401, 'The request is not signed.', ERROR_CODES.signatureInvalid);
  return request.gatewayMerchant;
}

export function createGatewayGuard({ db, appKey, now }: { db: Db; appKey: Buffer; now: () => Date }) {
  return async function requireSignature(request: FastifyRequest, _reply: FastifyReply) {
    const accessKey = header(request, 'x-access-key');
    const merchantNo = header(request, 'x-merchant-no');
    const found = accessKey ? await accessKeysRepository.findByAccessKey(db, accessKey) : undefined;
    if (!found || found.merchant.no !== merchantNo) {
      throw refuse(
        401,
        'The merchant number and access key do not match a key of ours.',
        ERROR_CODES.unknownKey,
      );
    }
    const at = now();
    const timestamp = header(request, 'x-timestamp');
    const window = checkTimestamp(timestamp, at.getTime() / 1000);
    if (window !== 'ok') {
      throw refuse(
        401,
        window === 'malformed'
          ? 'X-Timestamp must be the unix time in seconds.'
          : 'X-Timestamp is more than 300 seconds away from our clock.',
        ERROR_CODES.timestampOutOfWindow,
      );
    }
    const nonce = header(request, 'x-nonce');
    if (!isValidNonce(nonce)) {
      throw refuse(401, 'X-Nonce must be 16 to 64 letters, digits, _ or -.', ERROR_CODES.signatureInvalid);
    }
    const secret = decrypt(appKey, found.key.secretEncrypted);
    const signed = verifyRequestSignature(
      secret,
      {
        method: request.method,
        pathWithQuery: request.url,
        timestamp: timestamp!,
        nonce,
        body: request.rawBody ?? null,
      },
      header(request, 'x-signature'),
    );
    if (!signed) throw refuse(401, 'The signature does not match the request.', ERROR_CODES.signatureInvalid);
    if (found.merchant.status !== 'active') {
      throw refuse(403, 'This merchant is disabled.', ERROR_CODES.merchantDisabled);
    }
    if (!ipAllowed(request.ip, found.merchant.ipWhitelist)) {
      throw refuse(
        403,
        `The IP address ${request.ip} is not in the merchant's whitelist.`,
        ERROR_CODES.ipNotAllowed,
      );
    }
    // Last, once everything else holds: a refused call does not burn its nonce.
    if (!(await gatewayRepository.claimNonce(db, found.merchant.id, nonce, at))) {
      throw refuse(401, 'This nonce was already used in the last 10 minutes.', ERROR_CODES.nonceReused);
    }
    request.gatewayMerchant = {
      id: found.merchant.id,
      no: found.merchant.no,
      name: found.merchant.name,
      currency: found.merchant.currency as Currency,
    };
  };
}
