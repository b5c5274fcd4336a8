import { createSecretKey, type KeyObject } from 'node:crypto';
import { ERROR_CODES, type Currency } from '@paydesk/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { setNewest } from '../../lib/bounded-map.ts';
import { decrypt } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import {
  checkTimestamp,
  isValidNonce,
  isWellFormedSignature,
  verifyRequestSignature,
} from '../../lib/gateway-signature.ts';
import { ipAllowed } from '../../lib/ip-whitelist.ts';
import { findAccessKeyWithMerchant } from '../access-key/index.ts';
import type { GatewayLimits } from './gateway-limits.ts';
import { gatewayRepository } from './gateway.repository.ts';
import { type NonceClaimSql, nonceClaimSql, type RememberedKey } from './nonce-claim.sql.ts';

// The signed gateway call (DESIGN section 6): X-Merchant-No, X-Access-Key, X-Timestamp (within 300 s),
// X-Nonce (once per 10 minutes), X-Signature over the method, path, timestamp, nonce and body hash; the
// caller's IP in the merchant's whitelist. Refusals say what kind of thing failed, never which part of a
// secret was wrong.

/**
 * The merchant a signed call acts for: the row of its key's mode (the live row or the test twin, DESIGN 12),
 * with the live row's number and name; `livemode` goes on every object the call answers.
 */
export type GatewayMerchant = { id: number; no: string; name: string; currency: Currency; livemode: boolean };

declare module 'fastify' {
  interface FastifyRequest {
    gatewayMerchant?: GatewayMerchant;
    /** The body's bytes as received: the signature covers them, not a re-serialisation. */
    rawBody?: Buffer;
    /** A signed call whose nonce the route claims with its own write (requireSignatureDeferringClaim). */
    gatewayClaim?: DeferredClaim;
    /** Set once the call's signature is accepted and counted against its merchant's quota. */
    gatewayVerified?: boolean;
    /** The quota the call spent (its merchant, when): given back if its nonce proves used. */
    gatewaySpent?: { merchantId: number; at: Date };
  }
}

const refuse = (status: 401 | 403, message: string, code: string) =>
  new AppError(status, message, { code: code as (typeof ERROR_CODES)[keyof typeof ERROR_CODES] });

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** What each signing header must be (DESIGN 6), in the order they are checked. */
const SIGNING_HEADERS: Array<{ name: string; isValid: (value: string) => boolean; form: string }> = [
  { name: 'X-Merchant-No', isValid: (v) => v.length > 0 && v.length <= 64, form: 'your merchant number' },
  { name: 'X-Access-Key', isValid: (v) => v.length > 0 && v.length <= 128, form: 'your access key' },
  {
    name: 'X-Timestamp',
    isValid: (v) => checkTimestamp(v, Number(v)) !== 'malformed',
    form: 'the unix time in seconds (digits only)',
  },
  { name: 'X-Nonce', isValid: isValidNonce, form: '16 to 64 letters, digits, _ or -, new for every call' },
  {
    name: 'X-Signature',
    isValid: isWellFormedSignature,
    form: 'the lowercase hex HMAC-SHA256 of the request (64 characters)',
  },
];

/**
 * The refusal of a call whose signing header is missing or not of its form, naming the header and what it
 * must be (DESIGN 6: signature_header_invalid); undefined when all five are there and well formed. Says
 * nothing about a secret: the form of each header is public.
 */
export function signingHeaderRefusal(request: FastifyRequest): AppError | undefined {
  for (const { name, isValid, form } of SIGNING_HEADERS) {
    const value = header(request, name.toLowerCase());
    if (value === undefined || value === '') {
      return refuse(401, `The ${name} header is missing: send ${form}.`, ERROR_CODES.signatureHeaderInvalid);
    }
    if (!isValid(value)) {
      return refuse(401, `The ${name} header must be ${form}.`, ERROR_CODES.signatureHeaderInvalid);
    }
  }
  return undefined;
}

/**
 * A call checked against a remembered key, its nonce not claimed yet: the route's write claims it in the
 * same statement (`sql`), or the route calls `confirm()` before anything else, which claims it the usual
 * way (reading the key again if it changed) and answers the merchant, or throws the refusal.
 */
export type DeferredClaim = {
  sql: NonceClaimSql;
  confirm: () => Promise<GatewayMerchant>;
  /** The refusal of a nonce already used, for a statement that answered current but not claimed. */
  reused: () => AppError;
};

export function gatewayMerchantOf(request: FastifyRequest): GatewayMerchant {
  if (!request.gatewayMerchant) throw refuse(401, 'The request is not signed.', ERROR_CODES.signatureInvalid);
  return request.gatewayMerchant;
}

/** How many access keys one process remembers (the oldest is forgotten first). */
const REMEMBERED_KEYS = 10_000;

/** The secret as a KeyObject: made once, it signs faster than the string each call. */
type Known = { key: RememberedKey; secret: KeyObject };

/**
 * The gateway's signature check. A process remembers each access key it has read (with its secret
 * decrypted once), so a call with a known key costs one round trip: the nonce is claimed by a statement
 * that also confirms the key row and its merchant still read as remembered. A stale memory (a regenerated
 * secret, a disabled merchant, a new whitelist) is read again before anything is decided, and a refusal
 * is never based on memory alone: it takes effect on the very next call, in every process.
 */
export function createGatewayGuard({
  db,
  appKey,
  now,
  limits,
}: {
  db: Db;
  appKey: Buffer;
  now: () => Date;
  limits: Pick<GatewayLimits, 'spend'>;
}) {
  const known = new Map<string, Known>();

  async function read(accessKey: string | undefined): Promise<Known | undefined> {
    if (!accessKey) return undefined;
    const found = await findAccessKeyWithMerchant(db, accessKey);
    known.delete(accessKey);
    if (!found) return undefined;
    const { key, merchant, live } = found;
    const entry: Known = {
      key: {
        accessKey,
        merchantId: merchant.id,
        livemode: merchant.mode === 'live',
        secretEncrypted: key.secretEncrypted,
        no: live.no,
        name: live.name,
        currency: live.currency,
        status: live.status,
        ipWhitelist: live.ipWhitelist,
      },
      secret: createSecretKey(Buffer.from(decrypt(appKey, key.secretEncrypted), 'utf8')),
    };
    setNewest(known, accessKey, entry, REMEMBERED_KEYS);
    return entry;
  }

  /** Every check but the nonce's claim, against one reading of the key: the refusal, or undefined. */
  function refusalOf(request: FastifyRequest, entry: Known | undefined, at: Date): AppError | undefined {
    const malformed = signingHeaderRefusal(request);
    if (malformed) return malformed;
    if (!entry || entry.key.no !== header(request, 'x-merchant-no')) {
      return refuse(
        401,
        'The merchant number and access key do not match a key of ours.',
        ERROR_CODES.unknownKey,
      );
    }
    const timestamp = header(request, 'x-timestamp');
    const window = checkTimestamp(timestamp, at.getTime() / 1000);
    if (window !== 'ok') {
      return refuse(
        401,
        'X-Timestamp is more than 300 seconds away from our clock.',
        ERROR_CODES.timestampOutOfWindow,
      );
    }
    const nonce = header(request, 'x-nonce')!;
    const signed = verifyRequestSignature(
      entry.secret,
      {
        method: request.method,
        pathWithQuery: request.url,
        timestamp: timestamp!,
        nonce,
        body: request.rawBody ?? null,
      },
      header(request, 'x-signature'),
    );
    if (!signed)
      return refuse(401, 'The signature does not match the request.', ERROR_CODES.signatureInvalid);
    if (entry.key.status !== 'active') {
      return refuse(403, 'This merchant is disabled.', ERROR_CODES.merchantDisabled);
    }
    if (!ipAllowed(request.ip, entry.key.ipWhitelist)) {
      return refuse(
        403,
        `The IP address ${request.ip} is not in the merchant's whitelist.`,
        ERROR_CODES.ipNotAllowed,
      );
    }
    return undefined;
  }

  /** The key as read now, checked: throws its refusal. */
  async function readAndCheck(request: FastifyRequest, at: Date): Promise<Known> {
    const entry = await read(header(request, 'x-access-key'));
    const refusal = refusalOf(request, entry, at);
    if (refusal) throw refusal;
    return entry!;
  }

  const nonceReused = () =>
    refuse(401, 'This nonce was already used in the last 10 minutes.', ERROR_CODES.nonceReused);

  /**
   * A call whose signature (and every check but the nonce's claim) passed: it spends one call of its
   * merchant's quota, before its nonce is claimed, so a call over the quota leaves its nonce unused.
   */
  function spend(request: FastifyRequest, entry: Known, at: Date) {
    request.gatewayVerified = true;
    request.gatewaySpent = { merchantId: entry.key.merchantId, at };
    const refusal = limits.spend(entry.key.merchantId, at);
    if (refusal) throw refusal;
  }

  const merchantOf = (entry: Known): GatewayMerchant => ({
    id: entry.key.merchantId,
    no: entry.key.no,
    name: entry.key.name,
    currency: entry.key.currency as Currency,
    livemode: entry.key.livemode,
  });

  /**
   * The signature check as requireSignature makes it, once it is past the remembered key's checks
   * (`remembered`, whose call has spent its quota already).
   */
  async function claimAndConfirm(
    request: FastifyRequest,
    remembered: Known | undefined,
    nonce: string,
    at: Date,
  ): Promise<GatewayMerchant> {
    let entry = remembered;
    let confirmed = false;
    if (entry) {
      // Last, once everything else holds: a refused call does not burn its nonce.
      const { current, claimed } = await gatewayRepository.claimNonceIfCurrent(db, entry.key, nonce, at);
      if (current && !claimed) throw nonceReused();
      confirmed = current;
    }
    if (!confirmed) {
      entry = await readAndCheck(request, at);
      if (!remembered) spend(request, entry, at);
      if (!(await gatewayRepository.claimNonce(db, entry.key.merchantId, nonce, at))) throw nonceReused();
    }
    request.gatewayMerchant = merchantOf(entry!);
    return request.gatewayMerchant;
  }

  /** The remembered key when every check but the nonce's claim passes on it. */
  function rememberedAndChecked(request: FastifyRequest, at: Date): Known | undefined {
    const accessKey = header(request, 'x-access-key');
    const entry = accessKey ? known.get(accessKey) : undefined;
    return entry && !refusalOf(request, entry, at) ? entry : undefined;
  }

  async function requireSignature(request: FastifyRequest, _reply: FastifyReply) {
    const at = now();
    const entry = rememberedAndChecked(request, at);
    if (entry) spend(request, entry, at);
    await claimAndConfirm(request, entry, header(request, 'x-nonce')!, at);
  }

  /**
   * requireSignature for a route that makes one write: with a remembered key that passes every check,
   * the nonce's claim is left to the route's statement (request.gatewayClaim); otherwise it is made here.
   */
  async function requireSignatureDeferringClaim(request: FastifyRequest, _reply: FastifyReply) {
    const at = now();
    const nonce = header(request, 'x-nonce')!;
    const entry = rememberedAndChecked(request, at);
    if (!entry) {
      await claimAndConfirm(request, undefined, nonce, at);
      return;
    }
    spend(request, entry, at);
    request.gatewayMerchant = merchantOf(entry);
    request.gatewayClaim = {
      sql: nonceClaimSql(entry.key, nonce, at),
      confirm: () => claimAndConfirm(request, entry, nonce, at),
      reused: nonceReused,
    };
  }

  return { requireSignature, requireSignatureDeferringClaim };
}

/** Housekeeping: nonces past their 10 minutes, which no call can replay any more. */
export const deleteExpiredNonces = gatewayRepository.deleteExpired;
