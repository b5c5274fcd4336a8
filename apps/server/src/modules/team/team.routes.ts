import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcceptInvitationBodySchema,
  ChangeRoleBodySchema,
  InvitationInfoResponseSchema,
  InviteBodySchema,
  InviteResponseSchema,
  TeamListResponseSchema,
  TeamMemberResponseSchema,
} from '@paydesk/shared/team/team.schemas.ts';
import { LoginResponseSchema } from '@paydesk/shared';
import type { Guards } from '../../plugins/auth-context.ts';
import { authOf, clientOf, PURE_READ } from '../../plugins/auth-context.ts';
import type { SessionStarter } from '../auth/index.ts';
import { parseInput } from '../security/index.ts';
import {
  invitationNotFound,
  teamUserNotFound,
  type StepUp,
  type TeamActor,
  type TeamService,
} from './team.service.ts';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
/** Step-up fields are checked by the step-up itself (its own messages, counts and lock). */
const StepUpInputSchema = z.object({ payment_password: z.unknown(), code: z.unknown() }).partial();
const stepUpOf = (body: unknown): StepUp => {
  const input = parseInput(StepUpInputSchema, body ?? {});
  return { paymentPassword: text(input.payment_password), code: text(input.code) };
};
const UserParams = z.object({ id: z.string() });
const TokenParams = z.object({ token: z.string() });

/** A user id from the path; anything else names no user of the team (404, as another merchant's id). */
const userIdOf = (raw: string): number => {
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw teamUserNotFound();
  return Number(raw);
};

const actorOf = (request: FastifyRequest): TeamActor => {
  const { user, liveMerchant } = authOf(request);
  return { user, merchant: liveMerchant, client: clientOf(request) };
};

/**
 * Settings > Team (ROOT: team:manage) and the public invitation page's two calls. Every change takes the
 * payment password and a Google code in its body.
 */
export function teamRoutes(
  app: FastifyInstance,
  { guards, team, sessions }: { guards: Guards; team: TeamService; sessions: SessionStarter },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manage = guards.requirePerm('team:manage');

  r.get(
    '/api/merchant/team',
    { config: PURE_READ, onRequest: manage, schema: { response: { 200: TeamListResponseSchema } } },
    // The team is the company's, not a mode's: test mode lists the live row's users and invitations.
    async (request) => ({ data: await team.list(actorOf(request)) }),
  );

  r.post(
    '/api/merchant/team/invitations',
    { onRequest: manage, schema: { response: { 201: InviteResponseSchema } } },
    async (request, reply) => {
      // Parsed after the guard: a caller who may not use the form learns nothing from its validation.
      const body = parseInput(InviteBodySchema, request.body);
      // The link's address: PUBLIC_URL, else the one this console was reached at.
      const origin = `${request.protocol}://${request.host}`;
      const data = await team.invite(actorOf(request), body, stepUpOf(request.body), origin);
      return reply.status(201).send({ data });
    },
  );

  const userChange = (
    path: string,
    method: 'post' | 'put',
    run: (
      request: FastifyRequest,
      actor: TeamActor,
      id: number,
      stepUp: StepUp,
    ) => ReturnType<TeamService['enable']>,
  ) =>
    r[method](
      path,
      { onRequest: manage, schema: { params: UserParams, response: { 200: TeamMemberResponseSchema } } },
      async (request) => ({
        data: await run(request, actorOf(request), userIdOf(request.params.id), stepUpOf(request.body)),
      }),
    );

  userChange('/api/merchant/team/:id/role', 'put', (request, actor, id, stepUp) =>
    team.changeRole(actor, id, parseInput(ChangeRoleBodySchema, request.body).role, stepUp),
  );
  userChange('/api/merchant/team/:id/disable', 'post', (_request, actor, id, stepUp) =>
    team.disable(actor, id, stepUp),
  );
  userChange('/api/merchant/team/:id/enable', 'post', (_request, actor, id, stepUp) =>
    team.enable(actor, id, stepUp),
  );
  userChange('/api/merchant/team/:id/reset-two-factor', 'post', (_request, actor, id, stepUp) =>
    team.resetTwoFactor(actor, id, stepUp),
  );

  // The invitation page (public: the link's token is the credential).
  r.get(
    '/api/auth/invitations/:token',
    { schema: { params: TokenParams, response: { 200: InvitationInfoResponseSchema } } },
    async (request) => ({ data: await team.invitation(request.params.token) }),
  );

  r.post(
    '/api/auth/invitations/:token/accept',
    { schema: { params: TokenParams, response: { 200: LoginResponseSchema } } },
    async (request, reply) => {
      if (request.params.token.length > 200) throw invitationNotFound();
      const body = parseInput(AcceptInvitationBodySchema, request.body);
      const user = await team.accept(request.params.token, body, clientOf(request));
      // Signed in at once, as after a login; the new user has no authenticator to challenge yet.
      await sessions.start(request, reply, { userId: user.id });
      return { two_factor: false };
    },
  );
}
