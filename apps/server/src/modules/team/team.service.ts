import { ERROR_CODES, type Role } from '@paydesk/shared';
import type { Locale } from '@paydesk/shared/notifications/notifications.schemas.ts';
import {
  type AcceptInvitationBody,
  INVITATION_HOURS,
  type InvitationInfo,
  type InviteBody,
  type TeamMember,
} from '@paydesk/shared/team/team.schemas.ts';
import type { Db, Tx } from '../../db/client.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/password.ts';
import type { ClientInfo, MerchantRow, UserRow } from '../../plugins/auth-context.ts';
import { endAllSessionsOf } from '../auth/index.ts';
import type { MailService } from '../mail/index.ts';
import type { NotificationsService } from '../notifications/index.ts';
import { lastSignInsOf, recordSecurityEvent, type SecurityEventType } from '../security-log/index.ts';
import { verifyStepUp } from '../security/index.ts';
import {
  findUserByEmail,
  findUserInMerchant,
  insertUser,
  listUsersOfMerchant,
  lockUsersOfMerchant,
  updateUser,
} from '../users/index.ts';
import { type InvitationRow, invitationsRepository as invitations } from './invitations.repository.ts';

// Settings > Team (DESIGN 16). A merchant's ROOT users invite colleagues by email, change their roles,
// disable and enable them and reset their two-factor. Every change takes the step-up (payment password and
// a Google code, as the access key and the IP whitelist do: who holds the team holds the money) and is
// written with its security event in one transaction. The team is the company's: the live merchant row's.

type Deps = {
  db: Db;
  appKey: Buffer;
  now: () => Date;
  mail: Pick<MailService, 'queue'>;
  notifications: Pick<NotificationsService, 'notifyRoots'>;
  /** PUBLIC_URL, no trailing slash; empty: the address the inviter's console was reached at. */
  publicUrl: string;
};

/** Who acts: a user with team:manage, on their live merchant row. */
export type TeamActor = { user: UserRow; merchant: MerchantRow; client: ClientInfo };
export type StepUp = { paymentPassword: string | undefined; code: string | undefined };

const HOUR_MS = 3_600_000;

const isActiveRoot = (user: UserRow) => user.disabledAt === null && user.roles.includes('ROOT');

const lastRoot = () =>
  conflict(
    'The last active ROOT user cannot be disabled or given another role: make another user ROOT first.',
    ERROR_CODES.lastRoot,
  );

const selfChange = () =>
  conflict(
    'You cannot change your own account here: use Profile and Security, or ask another ROOT user.',
    ERROR_CODES.teamSelfChange,
  );

export const teamUserNotFound = () => notFound('No such user in your team.');

export const invitationNotFound = () =>
  new AppError(404, 'This invitation link is not valid. Ask your administrator for a new invitation.', {
    code: ERROR_CODES.invitationNotFound,
  });
const invitationExpired = () =>
  new AppError(410, 'This invitation has expired. Ask your administrator for a new invitation.', {
    code: ERROR_CODES.invitationExpired,
  });
const invitationUsed = () =>
  new AppError(
    410,
    'This invitation has already been used or was replaced by a newer one. Sign in, or ask your administrator for a new invitation.',
    {
      code: ERROR_CODES.invitationUsed,
    },
  );

function presentUser(user: UserRow, selfId: number, lastLogin: Date | undefined): TeamMember {
  return {
    user_id: user.id,
    invitation_id: null,
    email: user.email,
    name: user.name,
    roles: user.roles,
    status: user.disabledAt ? 'disabled' : 'active',
    two_factor_enabled: user.twoFactorConfirmedAt !== null,
    last_login_at: lastLogin?.toISOString() ?? null,
    created_at: user.createdAt.toISOString(),
    expires_at: null,
    is_self: user.id === selfId,
  };
}

function presentInvitation(invitation: InvitationRow): TeamMember {
  return {
    user_id: null,
    invitation_id: invitation.id,
    email: invitation.email,
    name: null,
    roles: [invitation.role],
    status: 'invited',
    two_factor_enabled: false,
    last_login_at: null,
    created_at: invitation.createdAt.toISOString(),
    expires_at: invitation.expiresAt.toISOString(),
    is_self: false,
  };
}

export type TeamService = ReturnType<typeof createTeamService>;

export function createTeamService({ db, appKey, now, mail, notifications, publicUrl }: Deps) {
  const stepUp = (actor: TeamActor, input: StepUp) =>
    verifyStepUp(db, actor.user, input, { appKey, client: actor.client });

  /** What a notification says of the merchant, the actor and the moment (the mail templates' Change). */
  const changeParams = (actor: TeamActor) => ({
    merchant: `${actor.merchant.name} (${actor.merchant.no})`,
    actor: `${actor.user.name} <${actor.user.email}>`,
    at: now().toISOString(),
  });

  const record = (tx: Tx, actor: TeamActor, type: SecurityEventType, detail: Record<string, unknown>) =>
    recordSecurityEvent(tx, actor.client, {
      type,
      merchantId: actor.merchant.id,
      userId: actor.user.id,
      detail,
    });

  /**
   * A change to a colleague: the step-up, then in one transaction every user of the merchant locked (so two
   * ROOT users disabling each other at once cannot leave none), the target found in this merchant (another
   * merchant's user is 404), the change and its event.
   */
  async function change(
    actor: TeamActor,
    userId: number,
    input: StepUp,
    apply: (tx: Tx, target: UserRow, team: UserRow[]) => Promise<UserRow>,
  ): Promise<TeamMember> {
    // Before the step-up: a wrong id or one's own row costs no code.
    const found = await findUserInMerchant(db, actor.merchant.id, userId);
    if (!found) throw teamUserNotFound();
    if (found.id === actor.user.id) throw selfChange();
    await stepUp(actor, input);
    const changed = await db.transaction(async (tx) => {
      const team = await lockUsersOfMerchant(tx, actor.merchant.id);
      const target = team.find((user) => user.id === userId);
      if (!target) throw teamUserNotFound();
      return apply(tx, target, team);
    });
    const lastLogin = (await lastSignInsOf(db, [changed.id])).get(changed.id);
    return presentUser(changed, actor.user.id, lastLogin);
  }

  /** Whether the merchant keeps an active ROOT user if `target` stops being one. */
  const keepsARoot = (team: UserRow[], target: UserRow) =>
    team.some((user) => user.id !== target.id && isActiveRoot(user));

  return {
    async list(actor: Pick<TeamActor, 'user' | 'merchant'>): Promise<TeamMember[]> {
      const [users, open] = await Promise.all([
        listUsersOfMerchant(db, actor.merchant.id),
        invitations.listOpen(db, actor.merchant.id, now()),
      ]);
      const lastLogins = await lastSignInsOf(
        db,
        users.map((user) => user.id),
      );
      return [
        ...users.map((user) => presentUser(user, actor.user.id, lastLogins.get(user.id))),
        ...open.map(presentInvitation),
      ];
    },

    /**
     * Sends a one-time link, valid 24 hours, to an address no account uses yet. A newer invitation of the
     * same address replaces an open one (its link stops working). Only the token's hash is stored.
     */
    async invite(actor: TeamActor, body: InviteBody, input: StepUp, origin: string): Promise<TeamMember> {
      if (await findUserByEmail(db, body.email)) throw emailTaken();
      await stepUp(actor, input);
      const token = randomToken(32);
      const at = now();
      return db.transaction(async (tx) => {
        if (await findUserByEmail(tx, body.email)) throw emailTaken();
        await invitations.revokeOpenOf(tx, actor.merchant.id, body.email, at);
        const invitation = await invitations.insert(tx, {
          merchantId: actor.merchant.id,
          email: body.email,
          role: body.role,
          tokenHash: sha256Hex(token),
          invitedBy: actor.user.id,
          expiresAt: new Date(at.getTime() + INVITATION_HOURS * HOUR_MS),
          createdAt: at,
        });
        await record(tx, actor, 'user_invited', {
          invitation_id: invitation.id,
          email: body.email,
          role: body.role,
        });
        // The colleague has no account, so no language of their own yet: the mail is in the inviter's
        // (the console's language they last used, users.locale).
        await mail.queue(tx, {
          to: body.email,
          locale: actor.user.locale as Locale,
          template: 'invitation',
          params: {
            link: `${publicUrl || origin}/invite/${token}`,
            merchant: `${actor.merchant.name} (${actor.merchant.no})`,
            inviter: `${actor.user.name} <${actor.user.email}>`,
            role: body.role,
            expires_at: invitation.expiresAt.toISOString(),
          },
        });
        await notifications.notifyRoots(tx, {
          merchantId: actor.merchant.id,
          type: 'user_invited',
          params: { ...changeParams(actor), email: body.email, role: body.role },
        });
        return presentInvitation(invitation);
      });
    },

    changeRole(actor: TeamActor, userId: number, role: Role, input: StepUp): Promise<TeamMember> {
      return change(actor, userId, input, async (tx, target, team) => {
        if (target.roles.length === 1 && target.roles[0] === role) return target;
        if (role !== 'ROOT' && isActiveRoot(target) && !keepsARoot(team, target)) throw lastRoot();
        const updated = await updateUser(tx, target.id, { roles: [role] });
        await record(tx, actor, 'user_role_changed', {
          target_user_id: target.id,
          email: target.email,
          from: target.roles,
          to: [role],
        });
        return updated;
      });
    },

    /** The user can no longer sign in, and every session of theirs ends now. */
    disable(actor: TeamActor, userId: number, input: StepUp): Promise<TeamMember> {
      return change(actor, userId, input, async (tx, target, team) => {
        if (target.disabledAt) return target;
        if (isActiveRoot(target) && !keepsARoot(team, target)) throw lastRoot();
        const updated = await updateUser(tx, target.id, { disabledAt: now() });
        const sessions = await endAllSessionsOf(tx, target.id);
        await record(tx, actor, 'user_disabled', {
          target_user_id: target.id,
          email: target.email,
          sessions,
        });
        await notifications.notifyRoots(tx, {
          merchantId: actor.merchant.id,
          type: 'user_disabled',
          params: { ...changeParams(actor), user: `${target.name} <${target.email}>` },
        });
        return updated;
      });
    },

    enable(actor: TeamActor, userId: number, input: StepUp): Promise<TeamMember> {
      return change(actor, userId, input, async (tx, target) => {
        if (!target.disabledAt) return target;
        const updated = await updateUser(tx, target.id, { disabledAt: null });
        await record(tx, actor, 'user_enabled', { target_user_id: target.id, email: target.email });
        return updated;
      });
    },

    /**
     * The user's authenticator is forgotten and their sessions end: they sign in with the password alone
     * next time, as a new user does, and bind an authenticator again under Security before any step-up.
     */
    resetTwoFactor(actor: TeamActor, userId: number, input: StepUp): Promise<TeamMember> {
      return change(actor, userId, input, async (tx, target) => {
        const updated = await updateUser(tx, target.id, {
          twoFactorSecret: null,
          twoFactorRecoveryCodes: null,
          twoFactorConfirmedAt: null,
          twoFactorLastStep: null,
        });
        const sessions = await endAllSessionsOf(tx, target.id);
        await record(tx, actor, 'user_two_factor_reset', {
          target_user_id: target.id,
          email: target.email,
          sessions,
        });
        await notifications.notifyRoots(tx, {
          merchantId: actor.merchant.id,
          type: 'two_factor_disabled',
          params: { ...changeParams(actor), user: `${target.name} <${target.email}>` },
        });
        return updated;
      });
    },

    /** What the invitation page shows; 404 for an unknown link, 410 for a used or expired one. */
    async invitation(token: string): Promise<InvitationInfo> {
      const found = await invitations.findByTokenHash(db, sha256Hex(token));
      if (!found) throw invitationNotFound();
      refuseClosed(found.invitation, now());
      return {
        merchant: { no: found.merchant.no, name: found.merchant.name },
        email: found.invitation.email,
        role: found.invitation.role,
        expires_at: found.invitation.expiresAt.toISOString(),
      };
    },

    /**
     * The colleague's name and password: the invitation is taken (once: of two racing accepts one wins),
     * the user created with its role, in one transaction. The route then signs them in; they have no
     * authenticator yet, as every new user.
     */
    async accept(token: string, body: AcceptInvitationBody, client: ClientInfo): Promise<UserRow> {
      const tokenHash = sha256Hex(token);
      const passwordHash = await hashPassword(body.password);
      const at = now();
      return db.transaction(async (tx) => {
        const invitation = await invitations.claim(tx, tokenHash, at);
        if (!invitation) {
          const found = await invitations.findByTokenHash(tx, tokenHash);
          if (!found) throw invitationNotFound();
          refuseClosed(found.invitation, at);
          throw invitationUsed();
        }
        if (await findUserByEmail(tx, invitation.email)) throw emailTaken();
        const user = await insertUser(tx, {
          merchantId: invitation.merchantId,
          name: body.name.trim(),
          email: invitation.email,
          passwordHash,
          roles: [invitation.role],
        });
        await invitations.setAcceptedUser(tx, invitation.id, user.id);
        await recordSecurityEvent(tx, client, {
          type: 'invitation_accepted',
          merchantId: user.merchantId,
          userId: user.id,
          detail: { invitation_id: invitation.id, role: invitation.role, invited_by: invitation.invitedBy },
        });
        await recordSecurityEvent(tx, client, {
          type: 'login',
          merchantId: user.merchantId,
          userId: user.id,
          detail: { via: 'invitation' },
        });
        return user;
      });
    },
  };
}

function refuseClosed(invitation: InvitationRow, at: Date): void {
  if (invitation.acceptedAt || invitation.revokedAt) throw invitationUsed();
  if (invitation.expiresAt.getTime() <= at.getTime()) throw invitationExpired();
}

const emailTaken = () => conflict('The email has already been taken.', ERROR_CODES.emailTaken);
