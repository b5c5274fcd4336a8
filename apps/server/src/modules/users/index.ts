import type { FastifyInstance } from 'fastify';
import type { Guards } from '../../plugins/auth-context.ts';
import { usersRoutes } from './users.routes.ts';

// Merchants' users: their rows (every module reads and writes users through this repository) and the
// current user's endpoint.
export { usersRepository, type MerchantRow, type UserRow } from './users.repository.ts';

export function registerUsersModule(app: FastifyInstance, { guards }: { guards: Guards }): void {
  usersRoutes(app, { guards });
}
