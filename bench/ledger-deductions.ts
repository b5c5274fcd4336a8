import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { merchants } from '../apps/server/src/db/schema/index.ts';
import { createLedger, transactionWithRetry, verifyLedger } from '../apps/server/src/modules/ledger/index.ts';
import { createBenchDatabase, fixed, measurePgbench, run, throughput } from './lib.ts';

// Ledger deductions (transfer-outs through the ledger service, each its own transaction) with 16 concurrent
// clients, against `pgbench -N` (simple update) with 16 clients on the same server, in the same run.
// Target: ledger TPS >= 0.25 x pgbench TPS, and no broken invariant afterwards.

const CLIENTS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const MERCHANTS = 1000;

export async function runLedgerDeductions(): Promise<void> {
  const bench = await createBenchDatabase('ledger', CLIENTS + 4);
  try {
    const { db } = bench.database;
    console.log(`ledger deductions: database ${bench.name}, ${CLIENTS} clients, ${SECONDS} s per run`);

    // pgbench's own tables in the same database: scale 10 (1,000,000 accounts).
    await run('pgbench', ['-i', '-q', '-s', '10', bench.url]);
    const pgbenchTps = await measurePgbench(bench.url, { clients: CLIENTS, seconds: SECONDS });

    // 1,000 merchants with money, as pgbench's accounts: each deduction picks one at random.
    const ids = (
      await db
        .insert(merchants)
        .values(
          Array.from({ length: MERCHANTS }, (_, i) => ({
            no: `MB${i}`,
            name: `Bench ${i}`,
            currency: 'CNY',
          })),
        )
        .returning({ id: merchants.id })
    ).map((m) => m.id);
    const ledger = createLedger();
    await transactionWithRetry(db, async (tx) => {
      for (const merchantId of ids) {
        await ledger.post(tx, {
          merchantId,
          type: 'transfer_in',
          amountMinor: 1_000_000_000n,
          refType: 'bench',
          refId: 'seed',
          idempotencyKey: `bench:seed:${merchantId}`,
        });
      }
    });
    await db.execute(sql`vacuum analyze`);

    const deduct = (merchantId: number, key: string) =>
      transactionWithRetry(db, (tx) =>
        ledger.post(tx, {
          merchantId,
          type: 'transfer_out',
          amountMinor: -1n,
          refType: 'bench',
          refId: key,
          idempotencyKey: key,
        }),
      );
    const spread = await throughput(CLIENTS, SECONDS, (client, i) =>
      deduct(ids[randomInt(ids.length)], `bench:spread:${client}:${i}`),
    );
    // The worst case: every client deducting from the same merchant, serialised on its balance row.
    const hot = await throughput(CLIENTS, Math.min(SECONDS, 5), (client, i) =>
      deduct(ids[0], `bench:hot:${client}:${i}`),
    );

    const report = await verifyLedger(db);
    console.log('');
    console.log(`pgbench -N -c ${CLIENTS}:                         ${fixed(pgbenchTps, 0)} TPS`);
    console.log(
      `ledger deductions, ${CLIENTS} clients, random merchant:  ${fixed(spread.tps, 0)} TPS (${spread.done} done, ${spread.failed} failed)`,
    );
    console.log(
      `ratio ledger / pgbench:                      ${fixed(spread.tps / pgbenchTps)} (target >= 0.25)`,
    );
    console.log(
      `one hot merchant, ${CLIENTS} clients:              ${fixed(hot.tps, 0)} TPS (${fixed(hot.tps / pgbenchTps)} of pgbench; serialised on one balance row)`,
    );
    console.log(
      `ledger:verify after the run:                 ${report.ok ? 'OK' : `${report.problems.length} problem(s)`} (${report.entries_checked} entries)`,
    );
    if (!report.ok) process.exitCode = 1;
  } finally {
    await bench.drop();
  }
}
