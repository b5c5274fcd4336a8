import { randomBytes } from 'node:crypto';
import { setNewest } from '../../lib/bounded-map.ts';
import type { LoadedSession } from './sessions.repository.ts';

// What a server process remembers of the signed-in sessions it has served, so that a read (GET) starts its
// queries at once while the session is confirmed beside them, instead of after it: one round trip less on
// every console page. Nothing is answered from memory alone: the answer waits for the confirmation, and a
// session that no longer reads exactly as remembered (its fingerprint: logged out, password changed, role or
// merchant changed, in any process) has its request served again from scratch (registerSessionLoading).

const MAX_REMEMBERED = 10_000;

export function createSessionMemory() {
  const remembered = new Map<string, LoadedSession>();
  /** Marks a request this process serves again: it must read its session fresh. */
  const replayToken = randomBytes(16).toString('hex');
  return {
    replayToken,
    /** A signed-in session as remembered, if it is and has not expired by its own clock. */
    recall(id: string, now = Date.now()): LoadedSession | undefined {
      const entry = remembered.get(id);
      if (!entry) return undefined;
      if (entry.session.expiresAt.getTime() <= now) {
        remembered.delete(id);
        return undefined;
      }
      return entry;
    },
    /** Remembers a session just read from the database; only signed-in ones (user and merchant). */
    remember(loaded: LoadedSession): void {
      if (!loaded.session.userId || !loaded.user || !loaded.merchant) return;
      setNewest(remembered, loaded.session.id, loaded, MAX_REMEMBERED);
    },
    forget(id: string): void {
      remembered.delete(id);
    },
  };
}

export type SessionMemory = ReturnType<typeof createSessionMemory>;
