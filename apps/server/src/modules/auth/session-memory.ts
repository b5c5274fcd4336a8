import { randomBytes } from 'node:crypto';
import type { LoadedSession } from './sessions.repository.ts';

// What a server process remembers of the signed-in sessions it has served, so that a read (GET) starts its
// queries at once while the session is confirmed beside them, instead of after it: one round trip less on
// every console page. Nothing is answered from memory alone: the answer waits for the confirmation, and a
// session that no longer reads exactly as remembered (logged out, password changed, role or merchant
// changed, in any process) has its request served again from scratch (registerSessionLoading).

const MAX_REMEMBERED = 10_000;

/** The parts of a loaded session that decide what a request may do; the activity times are left out. */
export function sessionFingerprint({ session, user, merchant }: LoadedSession): string {
  return JSON.stringify(
    [session.id, session.userId, session.pendingUserId, session.passwordConfirmedAt, user, merchant],
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  );
}

export type RememberedSession = { loaded: LoadedSession; fingerprint: string };

export function createSessionMemory() {
  const remembered = new Map<string, RememberedSession>();
  /** Marks a request this process serves again: it must read its session fresh. */
  const replayToken = randomBytes(16).toString('hex');
  return {
    replayToken,
    /** A signed-in session as remembered, if it is and has not expired by its own clock. */
    recall(id: string, now = Date.now()): RememberedSession | undefined {
      const entry = remembered.get(id);
      if (!entry) return undefined;
      if (entry.loaded.session.expiresAt.getTime() <= now) {
        remembered.delete(id);
        return undefined;
      }
      return entry;
    },
    /** Remembers a session just read from the database; only signed-in ones (user and merchant). */
    remember(loaded: LoadedSession): void {
      if (!loaded.session.userId || !loaded.user || !loaded.merchant) return;
      remembered.delete(loaded.session.id);
      remembered.set(loaded.session.id, { loaded, fingerprint: sessionFingerprint(loaded) });
      if (remembered.size > MAX_REMEMBERED) {
        const oldest = remembered.keys().next();
        if (!oldest.done) remembered.delete(oldest.value);
      }
    },
    forget(id: string): void {
      remembered.delete(id);
    },
  };
}

export type SessionMemory = ReturnType<typeof createSessionMemory>;
