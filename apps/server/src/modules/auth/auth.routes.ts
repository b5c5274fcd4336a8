import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LoginBodySchema, LoginResponseSchema } from '@paydesk/shared';
import { clientOf } from '../../plugins/auth-context.ts';
import { issueXsrfCookie } from '../../plugins/csrf.ts';
import type { AuthService } from './auth.service.ts';
import type { SessionStarter } from './session.ts';

type Deps = { auth: AuthService; sessions: SessionStarter; appKey: Buffer };

export function authRoutes(app: FastifyInstance, { auth, sessions, appKey }: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/csrf-cookie', async (request, reply) => {
    issueXsrfCookie(appKey, request, reply);
    return reply.status(204).send();
  });

  r.post(
    '/api/login',
    { schema: { body: LoginBodySchema, response: { 200: LoginResponseSchema } } },
    async (request, reply) => {
      const client = clientOf(request);
      const { user, twoFactor } = await auth.login(client, request.body);
      if (twoFactor) {
        // Not logged in yet: the session only remembers who owes the challenge.
        await sessions.start(request, reply, { pendingUserId: user.id });
        return { two_factor: true };
      }
      await sessions.start(request, reply, { userId: user.id });
      await auth.recordLogin(client, user);
      return { two_factor: false };
    },
  );

  r.post('/api/logout', async (request, reply) => {
    await auth.recordLogout(clientOf(request), request.session?.userId);
    await sessions.end(request, reply);
    return reply.status(204).send();
  });
}
