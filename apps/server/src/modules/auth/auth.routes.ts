import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LoginBodySchema, LoginResponseSchema } from '@paydesk/shared';
import { issueXsrfCookie } from '../../plugins/csrf.ts';
import type { createAuthService } from './auth.service.ts';

type Deps = { auth: ReturnType<typeof createAuthService>; appKey: Buffer };

export function authRoutes(app: FastifyInstance, { auth, appKey }: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/csrf-cookie', async (request, reply) => {
    issueXsrfCookie(appKey, request, reply);
    return reply.status(204).send();
  });

  r.post(
    '/api/login',
    { schema: { body: LoginBodySchema, response: { 200: LoginResponseSchema } } },
    async (request, reply) => auth.login(request, reply, request.body),
  );

  r.post('/api/logout', async (request, reply) => {
    await auth.logout(request, reply);
    return reply.status(204).send();
  });
}
