import type { DbOrTx } from '../../db/client.ts';
import { sessionsRepository } from './sessions.repository.ts';

// What other modules do with sessions: modules/security lists a user's live sessions, ends the others
// (a password change, "sign out other sessions") and records a password confirmation; housekeeping
// deletes the expired ones. The SQL stays in sessions.repository.ts.

export const listLiveSessions = sessionsRepository.listLiveForUser;
export const endOtherSessions = sessionsRepository.deleteOthersOfUser;
export const deleteExpiredSessions = sessionsRepository.deleteExpired;

/** The session's password was confirmed at `confirmedAt` (modules/security's password confirmation). */
export const markPasswordConfirmed = (db: DbOrTx, sessionId: string, confirmedAt: Date): Promise<void> =>
  sessionsRepository.update(db, sessionId, { passwordConfirmedAt: confirmedAt });
