import { z } from 'zod';
import { ROLES } from '../auth/roles.ts';
import {
  isEmail,
  PASSWORD_MIN,
  requiredString,
  SECURITY_MESSAGES,
  TEXT_MAX,
} from '../security/security.schemas.ts';

// Settings > Team (DESIGN 16): a merchant's users and invitations, managed by its ROOT users, and the
// public page where an invited colleague sets a password.

/** How long an invitation's link works. */
export const INVITATION_HOURS = 24;

export const TEAM_STATUSES = ['active', 'disabled', 'invited'] as const;
export type TeamStatus = (typeof TEAM_STATUSES)[number];

/** One role per user in the console (the users table keeps a list, as the role table allows). */
export const TeamRoleSchema = z.enum(ROLES, {
  error: `The role field must be one of ${ROLES.join(', ')}.`,
});

/** A row of the team: a user (user_id) or an invitation not yet accepted (invitation_id). */
export const TeamMemberSchema = z.object({
  user_id: z.number().nullable(),
  invitation_id: z.number().nullable(),
  email: z.string(),
  /** Null for an invitation: the colleague types their name on accepting. */
  name: z.string().nullable(),
  roles: z.array(z.string()),
  status: z.enum(TEAM_STATUSES),
  two_factor_enabled: z.boolean(),
  last_login_at: z.string().nullable(),
  /** When the user joined, or when the invitation was sent. */
  created_at: z.string(),
  /** An invitation's end; null for a user. */
  expires_at: z.string().nullable(),
  /** The signed-in user's own row: the team page changes nothing of it (Profile and Security do). */
  is_self: z.boolean(),
});
export type TeamMember = z.infer<typeof TeamMemberSchema>;

export const TeamListResponseSchema = z.object({ data: z.array(TeamMemberSchema) });
export const TeamMemberResponseSchema = z.object({ data: TeamMemberSchema });

const email = requiredString('email')
  .max(TEXT_MAX, `The email field must not be greater than ${TEXT_MAX} characters.`)
  .refine((value) => isEmail(value.trim()), 'The email field must be a valid email address.')
  .transform((value) => value.trim().toLowerCase());

/** POST /api/merchant/team/invitations (with the step-up's payment_password and code). */
export const InviteBodySchema = z.object({ email, role: TeamRoleSchema });
export type InviteBody = z.infer<typeof InviteBodySchema>;

/** PUT /api/merchant/team/{id}/role (with the step-up's payment_password and code). */
export const ChangeRoleBodySchema = z.object({ role: TeamRoleSchema });
export type ChangeRoleBody = z.infer<typeof ChangeRoleBodySchema>;

/** GET /api/auth/invitations/{token}: what the invitation page shows before a password is set. */
export const InvitationInfoSchema = z.object({
  merchant: z.object({ no: z.string(), name: z.string() }),
  email: z.string(),
  role: z.string(),
  expires_at: z.string(),
});
export type InvitationInfo = z.infer<typeof InvitationInfoSchema>;
export const InvitationInfoResponseSchema = z.object({ data: InvitationInfoSchema });

/** POST /api/auth/invitations/{token}/accept: the new user's name and password (the password rules). */
export const AcceptInvitationBodySchema = z
  .object({
    name: requiredString('name').max(
      TEXT_MAX,
      `The name field must not be greater than ${TEXT_MAX} characters.`,
    ),
    password: requiredString('password')
      .min(PASSWORD_MIN, `The password field must be at least ${PASSWORD_MIN} characters.`)
      .max(TEXT_MAX, `The password field must not be greater than ${TEXT_MAX} characters.`),
    password_confirmation: z
      .string({ error: 'The password confirmation field must be a string.' })
      .optional(),
  })
  .refine((body) => body.password === body.password_confirmation, {
    path: ['password'],
    message: SECURITY_MESSAGES.confirmMismatch,
    when: (payload) => typeof (payload.value as { password?: unknown })?.password === 'string',
  });
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBodySchema>;

/** The invite's answer: the invitation as the team lists it; the link travels only by mail. */
export const InviteResponseSchema = z.object({ data: TeamMemberSchema });
