import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client.ts';
import type { Guards } from '../../plugins/auth-context.ts';
import { usersRoutes } from './users.routes.ts';

// Merchants' users: their rows (every module reads and writes users through users.service.ts) and the
// current user's endpoint.
export type { MerchantRow, UserRow } from './users.repository.ts';
export {
  advanceTotpStep,
  findUserByEmail,
  findUserById,
  findUserInMerchant,
  insertUser,
  listUsersOfMerchant,
  lockUserForUpdate,
  lockUsersOfMerchant,
  updateUser,
} from './users.service.ts';

export function registerUsersModule(app: FastifyInstance, deps: { db: DbOrTx; guards: Guards }): void {
  usersRoutes(app, deps);
}
