import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** Account security: two-factor, password confirmation, profile, passwords, sessions, security log. */
export function registerSecurityModule(_app: FastifyInstance, _ctx: AppContext): void {
  // Routes are added here as the account security issue lands.
}
