import { ERROR_CODES } from '@paydesk/shared';
import type { Mode } from '@paydesk/shared/modes/modes.schemas.ts';
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
import type { NotificationsService } from '../notifications/index.ts';
import { type AccessKeyRow, accessKeysRepository as repo } from './access-keys.repository.ts';

// The merchant's gateway credentials and IP whitelist (DESIGN sections 5 and 6). Revealing or replacing a
// secret and changing the whitelist need the payment password and an authenticator code (step-up); every
// one of them, and every notify URL change, goes to the security log in the same transaction.

type Deps = {
  db: Db;
  appKey: Buffer;
  notifications: Pick<NotificationsService, 'notifyRoots'>;
  now: () => Date;
};
/**
 * Who acts, on which key: `merchant` is the live row (the security log's), `mode` the key's (DESIGN 12:
 * one key per mode, owned by that mode's merchant row).
 */
type Actor = {
  user: { id: number; name: string; email: string };
  merchant: MerchantRow;
  mode: Mode;
  client: ClientInfo;
};
type StepUp = { paymentPassword: string | undefined; code: string | undefined };

/**
 * "live_" or "test_" + 24 hex characters: public, sent on every gateway call; the prefix says the mode.
 * Keys issued before modes ("ak_...") stay valid as live keys until regenerated.
 */
const newAccessKey = (mode: Mode) => `${mode}_${randomBytes(12).toString('hex')}`;

export type AccessKeyService = ReturnType<typeof createAccessKeyService>;

export function createAccessKeyService({ db, appKey, notifications, now }: Deps) {
  const present = (
    row: Pick<AccessKeyRow, 'accessKey' | 'notifyUrl' | 'createdAt' | 'rotatedAt'>,
    merchant: MerchantRow,
    mode: Mode,
  ): AccessKey => ({
    mode,
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

  /** Who changed what, when: the parameters every notification of a change carries. */
  const changeBy = (actor: Pick<Actor, 'merchant' | 'user'>) => ({
    merchant: `${actor.merchant.name} (${actor.merchant.no})`,
    actor: `${actor.user.name} <${actor.user.email}>`,
    at: now().toISOString(),
  });

  /** The merchant row whose key the actor's mode names. */
  const keyOwner = (tx: DbOrTx, actor: Pick<Actor, 'merchant' | 'mode'>) =>
    repo.merchantIdOfMode(tx, actor.merchant.id, actor.mode);

  async function get(actor: Pick<Actor, 'merchant' | 'mode'>): Promise<AccessKey | null> {
    const row = await repo.findPublic(db, await keyOwner(db, actor));
    return row ? present(row, actor.merchant, actor.mode) : null;
  }

  async function reveal(actor: Actor, stepUp: StepUp): Promise<AccessKeySecret> {
    await verifyStepUp(db, actor.user, stepUp, { appKey, client: actor.client });
    return db.transaction(async (tx) => {
      const owner = await keyOwner(tx, actor);
      const row = await repo.find(tx, owner);
      if (!row) throw notFound('No access key was issued yet: generate one first.');
      let webhookSecret = row.webhookSecretEncrypted ? decrypt(appKey, row.webhookSecretEncrypted) : '';
      if (!webhookSecret) {
        // A key issued before callbacks existed gets its webhook secret on first reveal.
        webhookSecret = newWebhookSecret();
        await repo.setWebhookSecret(tx, owner, encrypt(appKey, webhookSecret));
      }
      await recordSecurityEvent(tx, actor.client, event(actor, 'access_key_revealed', { mode: actor.mode }));
      return {
        mode: actor.mode,
        secret: decrypt(appKey, row.secretEncrypted),
        webhook_secret: webhookSecret,
      };
    });
  }

  async function regenerate(actor: Actor, stepUp: StepUp): Promise<AccessKey & AccessKeySecret> {
    await verifyStepUp(db, actor.user, stepUp, { appKey, client: actor.client });
    const secret = randomToken(32);
    const webhookSecret = newWebhookSecret();
    return db.transaction(async (tx) => {
      const owner = await keyOwner(tx, actor);
      const before = await repo.find(tx, owner);
      const row = await repo.upsert(tx, owner, {
        accessKey: newAccessKey(actor.mode),
        secretEncrypted: encrypt(appKey, secret),
        webhookSecretEncrypted: encrypt(appKey, webhookSecret),
      });
      const saved = before ? row : { ...row, rotatedAt: null };
      await recordSecurityEvent(
        tx,
        actor.client,
        event(actor, 'access_key_regenerated', {
          access_key: row.accessKey,
          first: !before,
          mode: actor.mode,
        }),
      );
      // The ROOT users hear of it (DESIGN 16), the one who did it included: a stolen session is told too.
      await notifications.notifyRoots(tx, {
        merchantId: actor.merchant.id,
        type: 'access_key_regenerated',
        params: { ...changeBy(actor), mode: actor.mode },
      });
      return { ...present(saved, actor.merchant, actor.mode), secret, webhook_secret: webhookSecret };
    });
  }

  async function updateNotifyUrl(actor: Actor, notifyUrl: string | null): Promise<AccessKey> {
    return db.transaction(async (tx) => {
      const owner = await keyOwner(tx, actor);
      const before = await repo.find(tx, owner);
      if (!before) {
        throw conflict(
          'Generate the access key first: the notify URL is saved with it.',
          ERROR_CODES.accessKeyNotIssued,
        );
      }
      const row = await repo.setNotifyUrl(tx, owner, notifyUrl);
      await recordSecurityEvent(
        tx,
        actor.client,
        event(actor, 'notify_url_changed', { from: before.notifyUrl, to: notifyUrl, mode: actor.mode }),
      );
      // The ROOT users hear of a change (DESIGN 16); saving the same URL again changes nothing.
      if (before.notifyUrl !== notifyUrl) {
        await notifications.notifyRoots(tx, {
          merchantId: actor.merchant.id,
          type: 'notify_url_changed',
          params: { ...changeBy(actor), mode: actor.mode, url: notifyUrl ?? '' },
        });
      }
      return present(row, actor.merchant, actor.mode);
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
      if (before.join(',') !== parsed.entries.join(',')) {
        await notifications.notifyRoots(tx, {
          merchantId: actor.merchant.id,
          type: 'ip_whitelist_changed',
          params: { ...changeBy(actor), ips: parsed.entries.join(', ') },
        });
      }
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
