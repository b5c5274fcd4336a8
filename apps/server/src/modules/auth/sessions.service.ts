import type { DbOrTx } from '../../db/client.ts';
import { sessionsRepository } from './sessions.repository.ts';

// What other modules do with sessions: modules/security lists a user's live sessions, ends the others
// (a password change, "sign out other sessions") and records a password confirmation; housekeeping
// deletes the expired ones. The SQL stays in sessions.repository.ts.

export const listLiveSessions = sessionsRepository.listLiveForUser;
export const endOtherSessions = sessionsRepository.deleteOthersOfUser;
/** Every session of the user ends (Settings > Team: disabled, or their two-factor reset). */
export const endAllSessionsOf = sessionsRepository.deleteAllOfUser;
export const deleteExpiredSessions = sessionsRepository.deleteExpired;

/** The session's password was confirmed at `confirmedAt` (modules/security's password confirmation). */
export const markPasswordConfirmed = (db: DbOrTx, sessionId: string, confirmedAt: Date): Promise<void> =>
  sessionsRepository.update(db, sessionId, { passwordConfirmedAt: confirmedAt });
