import pg from 'pg';

/**
 * The text of every statement node-postgres sends while `act` runs, pg-boss's own polling left out: what a
 * request costs the database, in round trips (PostgreSQL only; PGlite has no client to watch).
 */
export async function statementsSentBy(act: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string };
    sent.push(typeof config === 'string' ? config : (config?.text ?? ''));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await act();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent.filter((text) => !/pgboss\./.test(text));
}
