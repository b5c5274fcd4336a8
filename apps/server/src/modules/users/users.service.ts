import type { Locale } from '@paydesk/shared/notifications/notifications.schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { usersRepository } from './users.repository.ts';

// What other modules do with users' rows: sign-in and the operator find them, the operator and the demo
// add them, and modules/security changes their passwords and two-factor settings (locking the row first,
// so checks of one user's secrets queue up). The SQL stays in users.repository.ts.

export const findUserByEmail = usersRepository.findByEmail;
export const findUserById = usersRepository.findById;
export const lockUserForUpdate = usersRepository.lockForUpdate;
export const advanceTotpStep = usersRepository.advanceTotpStep;
export const insertUser = usersRepository.insert;
export const updateUser = usersRepository.update;

// Settings > Team (modules/team): the merchant's users, and all of them locked while a change counts its ROOTs.
export const listUsersOfMerchant = usersRepository.listOfMerchant;
export const lockUsersOfMerchant = usersRepository.lockAllOfMerchant;
export const findUserInMerchant = usersRepository.findInMerchant;

/** The language of the user's mail (DESIGN 16), as the console last recorded it. */
export async function setUserLocale(db: DbOrTx, userId: number, locale: Locale): Promise<Locale> {
  await usersRepository.setLocale(db, userId, locale);
  return locale;
}
