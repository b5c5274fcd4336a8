import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Role } from '@paydesk/shared';
import type { Db } from '../../src/db/client.ts';
import { accessKeys, channels, merchants } from '../../src/db/schema/index.ts';
import { encrypt } from '../../src/lib/crypto.ts';
import { signRequest } from '../../src/lib/gateway-signature.ts';
import { newWebhookSecret } from '../../src/lib/webhooks.ts';
import { eq, or } from 'drizzle-orm';
import { createLedger } from '../../src/modules/ledger/index.ts';
import { createMerchant } from './merchants.ts';

export type GatewayMerchant = Awaited<ReturnType<typeof createGatewayMerchant>>;

/**
 * A merchant ready for the gateway: an access key, a webhook secret, a whitelist (127.0.0.1 by default)
 * and an open sandbox collection channel (1.5% + 0, 1.00 to 50,000.00, T+1) unless told otherwise.
 */
export async function createGatewayMerchant(
  db: Db,
  appKey: Buffer,
  options: {
    currency?: string;
    roles?: Role[];
    whitelist?: string[];
    channel?: Partial<typeof channels.$inferInsert> | false;
    notifyUrl?: string | null;
    /**
     * The key's mode (DESIGN 12): live (the default) puts the key and the channel on the live row; test on
     * its test twin, which is then the `merchant` answered (its users stay on the live row).
     */
    mode?: 'live' | 'test';
  } = {},
) {
  const created = await createMerchant(db, { currency: options.currency, roles: options.roles });
  const { users } = created;
  const liveMerchant = created.merchant;
  const merchant =
    options.mode === 'test'
      ? (await db.select().from(merchants).where(eq(merchants.liveMerchantId, liveMerchant.id)))[0]
      : liveMerchant;
  const secret = randomBytes(24).toString('base64url');
  const webhookSecret = newWebhookSecret();
  const accessKey = `${options.mode === 'test' ? 'test' : 'ak'}_${randomBytes(12).toString('hex')}`;
  await db.insert(accessKeys).values({
    merchantId: merchant.id,
    accessKey,
    secretEncrypted: encrypt(appKey, secret),
    webhookSecretEncrypted: encrypt(appKey, webhookSecret),
    notifyUrl: options.notifyUrl ?? null,
  });
  // The company's whitelist: on both rows, as the console writes it.
  await db
    .update(merchants)
    .set({ ipWhitelist: options.whitelist ?? ['127.0.0.1'] })
    .where(or(eq(merchants.id, liveMerchant.id), eq(merchants.liveMerchantId, liveMerchant.id)));
  let channel: typeof channels.$inferSelect | undefined;
  if (options.channel !== false) {
    [channel] = await db
      .insert(channels)
      .values({
        merchantId: merchant.id,
        code: 'sandbox',
        kind: 'collection',
        country: 'CN',
        currency: merchant.currency,
        feeRatePpm: 15_000,
        fixedFeeMinor: 0n,
        minAmountMinor: 100n,
        maxAmountMinor: 5_000_000n,
        settlementCycle: 'T1',
        openedBy: 'test',
        ...(options.channel ?? {}),
      })
      .returning();
  }
  return { merchant, liveMerchant, users, secret, webhookSecret, accessKey, channel };
}

/** The same merchant's test mode: a test key and the live channel's terms on its test twin. */
export async function testModeOf(db: Db, appKey: Buffer, m: GatewayMerchant): Promise<GatewayMerchant> {
  const [twin] = await db.select().from(merchants).where(eq(merchants.liveMerchantId, m.merchant.id));
  const secret = randomBytes(24).toString('base64url');
  const webhookSecret = newWebhookSecret();
  const accessKey = `test_${randomBytes(12).toString('hex')}`;
  await db.insert(accessKeys).values({
    merchantId: twin.id,
    accessKey,
    secretEncrypted: encrypt(appKey, secret),
    webhookSecretEncrypted: encrypt(appKey, webhookSecret),
  });
  const { id: _id, merchantId: _m, createdAt: _c, updatedAt: _u, ...terms } = m.channel!;
  const [channel] = await db
    .insert(channels)
    .values({ ...terms, merchantId: twin.id })
    .returning();
  return { ...m, merchant: twin, accessKey, secret, webhookSecret, channel };
}

/** Opens a sandbox payout channel for the merchant: `sandbox-pay`, 1% + 0.50, 1.00 to 50,000.00 (CNY). */
export async function openPayoutChannel(
  db: Db,
  merchantId: number,
  values: Partial<typeof channels.$inferInsert> = {},
) {
  const [channel] = await db
    .insert(channels)
    .values({
      merchantId,
      code: 'sandbox-pay',
      kind: 'payout',
      country: 'CN',
      currency: 'CNY',
      feeRatePpm: 10_000,
      fixedFeeMinor: 50n,
      minAmountMinor: 100n,
      maxAmountMinor: 5_000_000n,
      openedBy: 'test',
      ...values,
    })
    .returning();
  return channel;
}

/** Credits the merchant's available balance through the ledger, as an operator's funds:transfer-in does. */
export async function fundMerchant(db: Db, merchantId: number, amountMinor: bigint) {
  await db.transaction((tx) =>
    createLedger().post(tx, {
      merchantId,
      type: 'transfer_in',
      amountMinor,
      refType: 'test',
      refId: String(merchantId),
      idempotencyKey: `test:fund:${merchantId}:${amountMinor}`,
    }),
  );
}

/** A Chinese payee as a payout body carries it (bank account of an individual). */
export const CN_PAYEE = {
  account_type: 'individual',
  bank_code: 'ICBC',
  bank_name: '中国工商银行',
  branch_name: '上海分行',
  payee_name: '张三',
  account_no: '6222020200112233445',
};

let nonceSequence = 0;
export const freshNonce = () =>
  `n${Date.now().toString(36)}${(nonceSequence++).toString(36)}${randomBytes(6).toString('hex')}`;

/**
 * A signed gateway call, as a merchant's server makes it; any header can be overridden or removed.
 * `payload` sends those bytes instead of the JSON of `body` (set its content-type in `headers`), and
 * `signedBody` signs other bytes than the ones sent.
 */
export async function gatewayCall(
  app: FastifyInstance,
  m: Pick<GatewayMerchant, 'merchant' | 'accessKey' | 'secret'>,
  method: 'GET' | 'POST',
  url: string,
  options: {
    body?: unknown;
    payload?: string;
    signedBody?: string;
    timestamp?: number;
    nonce?: string;
    ip?: string;
    headers?: Record<string, string | undefined>;
    now?: () => Date;
  } = {},
): Promise<LightMyRequestResponse> {
  const raw = options.payload ?? (options.body === undefined ? '' : JSON.stringify(options.body));
  const timestamp = options.timestamp ?? Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const nonce = options.nonce ?? freshNonce();
  const signature = signRequest(m.secret, {
    method,
    pathWithQuery: url,
    timestamp,
    nonce,
    body: options.signedBody ?? raw,
  });
  const headers: Record<string, string> = {
    'x-merchant-no': m.merchant.no,
    'x-access-key': m.accessKey,
    'x-timestamp': String(timestamp),
    'x-nonce': nonce,
    'x-signature': signature,
    ...(raw ? { 'content-type': 'application/json' } : {}),
  };
  for (const [key, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[key];
    else headers[key] = value;
  }
  return app.inject({
    method,
    url,
    headers,
    remoteAddress: options.ip ?? '127.0.0.1',
    ...(raw ? { payload: raw } : {}),
  });
}

/** The payer's button on the sandbox pay page, as its form posts it; `payUrl` is the order's pay_url or its path. */
export const payOnSandboxPage = (app: FastifyInstance, payUrl: string, result: 'paid' | 'failed' = 'paid') =>
  app.inject({
    method: 'POST',
    url: payUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `result=${result}`,
  });
