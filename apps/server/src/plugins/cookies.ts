import type { FastifyRequest } from 'fastify';

/** Secure under HTTPS (request.protocol honours X-Forwarded-Proto when TRUST_PROXY is set). */
export const cookieOptions = (request: FastifyRequest, httpOnly: boolean) =>
  ({ path: '/', httpOnly, sameSite: 'lax', secure: request.protocol === 'https' }) as const;
