import { setTimeout as sleep } from 'node:timers/promises';
import type { Db, Tx } from '../../db/client.ts';
import { sqlStateOf } from './ledger.errors.ts';

// 40001 serialization_failure, 40P01 deadlock_detected: the transaction did nothing and can run again.
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Runs fn in a transaction, again (up to `attempts` times, after a short random pause) when the database
 * aborted it for a serialization failure or a deadlock. fn must only touch the database through tx.
 */
export async function transactionWithRetry<T>(
  db: Db,
  fn: (tx: Tx) => Promise<T>,
  { attempts = 5 }: { attempts?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(fn);
    } catch (error) {
      const code = sqlStateOf(error);
      if (!code || !RETRYABLE.has(code) || attempt >= attempts) throw error;
      await sleep(Math.random() * 20 * 2 ** attempt);
    }
  }
}
