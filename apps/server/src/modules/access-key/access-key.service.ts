import { ERROR_CODES } from '@paydesk/shared';
import type { AccessKey, AccessKeySecret } from '@paydesk/shared/access-key/access-key.schemas.ts';
import { randomBytes } from 'node:crypto';
import type { Db, DbOrTx } from '../../db/client.ts';
import { decrypt, encrypt, randomToken } from '../../lib/crypto.ts';
import { conflict, notFound, ValidationError } from '../../lib/errors.ts';
import { parseIpWhitelist } from '../../lib/ip-whitelist.ts';
import { newWebhookSecret } from '../../lib/webhooks.ts';
import type { ClientInfo, MerchantRow } from '../../plugins/auth-context.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import { verifyStepUp } from '../security/index.ts';
import { type AccessKeyRow, accessKeysRepository as repo } from './access-keys.repository.ts';

// The merchant's gateway credentials and IP whitelist (DESIGN sections 5 and 6). Revealing or replacing a
// secret and changing the whitelist need the payment password and an authenticator code (step-up); every
// one of them, and every notify URL change, goes to the security log in the same transaction.

type Deps = { db: Db; appKey: Buffer };
type Actor = { user: { id: number }; merchant: MerchantRow; client: ClientInfo };
type StepUp = { paymentPassword: string | undefined; code: string | undefined };

/** "ak_" + 24 hex characters: public, sent on every gateway call. */
const newAccessKey = () => `ak_${randomBytes(12).toString('hex')}`;

export type AccessKeyService = ReturnType<typeof createAccessKeyService>;

export function createAccessKeyService({ db, appKey }: Deps) {
  const present = (
    row: Pick<AccessKeyRow, 'accessKey' | 'notifyUrl' | 'createdAt' | 'rotatedAt'>,
    merchant: MerchantRow,
  ): AccessKey => ({
    merchant_no: merchant.no,
    access_key: row.accessKey,
    notify_url: row.notifyUrl,
    created_at: row.createdAt.toISOString(),
    rotated_at: row.rotatedAt?.toISOString() ?? null,
  });

  const event = (
    actor: Actor,
    type: Parameters<typeof recordSecurityEvent>[2]['type'],
    detail?: Record<string, unknown>,
  ) => ({ type, merchantId: actor.merchant.id, userId: actor.user.id, detail });

  async function get(merchant: MerchantRow): Promise<AccessKey | null> {
    const row = await repo.findPublic(db, merchant.id);
    return row ? present(row, merchant) : null;
  }

  async function reveal(actor: Actor, stepUp: StepUp): Promise<AccessKeySecret> {
    await verifyStepUp(db, actor.user, stepUp, { appKey, client: actor.client });
    return db.transaction(async (tx) => {
      const row = await repo.find(tx, actor.merchant.id);
      if (!row) throw notFound('No access key was issued yet: generate one first.');
      let webhookSecret = row.webhookSecretEncrypted ? decrypt(appKey, row.webhookSecretEncrypted) : '';
      if (!webhookSecret) {
        // A key issued before callbacks existed gets its webhook secret on first reveal.
        webhookSecret = newWebhookSecret();
        await repo.setWebhookSecret(tx, actor.merchant.id, encrypt(appKey, webhookSecret));
      }
      await recordSecurityEvent(tx, actor.client, event(actor, 'access_key_revealed'));
      return { secret: decrypt(appKey, row.secretEncrypted), webhook_secret: webhookSecret };
    });
  }

  async function regenerate(actor: Actor, stepUp: StepUp): Promise<AccessKey & AccessKeySecret> {
    await verifyStepUp(db, actor.user, stepUp, { appKey, client: actor.client });
    const secret = randomToken(32);
    const webhookSecret = newWebhookSecret();
    return db.transaction(async (tx) => {
      const before = await repo.find(tx, actor.merchant.id);
      const row = await repo.upsert(tx, actor.merchant.id, {
        accessKey: newAccessKey(),
        secretEncrypted: encrypt(appKey, secret),
        webhookSecretEncrypted: encrypt(appKey, webhookSecret),
      });
      const saved = before ? row : { ...row, rotatedAt: null };
      await recordSecurityEvent(
        tx,
        actor.client,
        event(actor, 'access_key_regenerated', { access_key: row.accessKey, first: !before }),
      );
      return { ...present(saved, actor.merchant), secret, webhook_secret: webhookSecret };
    });
  }

  async function updateNotifyUrl(actor: Actor, notifyUrl: string | null): Promise<AccessKey> {
    return db.transaction(async (tx) => {
      const before = await repo.find(tx, actor.merchant.id);
      if (!before) {
        throw conflict(
          'Generate the access key first: the notify URL is saved with it.',
          ERROR_CODES.accessKeyNotIssued,
        );
      }
      const row = await repo.setNotifyUrl(tx, actor.merchant.id, notifyUrl);
      await recordSecurityEvent(
        tx,
        actor.client,
        event(actor, 'notify_url_changed', { from: before.notifyUrl, to: notifyUrl }),
      );
      return present(row, actor.merchant);
    });
  }

  const whitelist = (merchantId: number) => repo.ipWhitelistOf(db, merchantId);

  async function updateWhitelist(actor: Actor, text: string, stepUp: StepUp): Promise<string[]> {
    // The list is checked before the step-up: a typo costs no code.
    const parsed = parseIpWhitelist(text);
    if (!parsed.ok) throw ValidationError.field('ip_address', parsed.message, ERROR_CODES.invalidIpWhitelist);
    await verifyStepUp(db, actor.user, stepUp, { appKey, client: actor.client });
    return db.transaction(async (tx) => {
      const before = await repo.ipWhitelistOf(tx, actor.merchant.id);
      await repo.setIpWhitelist(tx, actor.merchant.id, parsed.entries);
      await recordSecurityEvent(
        tx,
        actor.client,
        event(actor, 'ip_whitelist_changed', { from: before, to: parsed.entries }),
      );
      return parsed.entries;
    });
  }

  /** The secrets a signed call and a callback are checked and signed with (gateway and callbacks). */
  async function credentialsOf(dbOrTx: DbOrTx, merchantId: number) {
    const row = await repo.find(dbOrTx, merchantId);
    if (!row) return undefined;
    return {
      accessKey: row.accessKey,
      notifyUrl: row.notifyUrl,
      secret: decrypt(appKey, row.secretEncrypted),
      webhookSecret: row.webhookSecretEncrypted ? decrypt(appKey, row.webhookSecretEncrypted) : null,
    };
  }

  return { get, reveal, regenerate, updateNotifyUrl, whitelist, updateWhitelist, credentialsOf };
}

/** The key a signed gateway call names, with its merchant, in one round trip (modules/gateway). */
export const findAccessKeyWithMerchant = repo.findByAccessKey;

/** The demo seed's key and whitelist, written without a step-up (nobody signs in while it seeds). */
export const seedAccessKey = repo.upsert;
export const seedIpWhitelist = repo.setIpWhitelist;
