import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { queryRows } from '../apps/server/src/db/client.ts';
import { openChannel } from '../apps/server/src/modules/channels/index.ts';
import { ensureLocalOperatorToken, insertMerchant } from '../apps/server/src/modules/ops/index.ts';
import { createBenchDatabase, fixed, run } from './lib.ts';

// Statement import (DESIGN 8 and 13): N bank statement lines (CSV) parsed, matched against N open
// collections of a bank transfer channel and applied, through the operator API's statement:import, beside
// `COPY ... FROM` of the same file into a bare table (psql \copy), in the same run. Target: at least 0.2 of
// COPY's speed, peak memory under 200 MB. `--rows N` (default 20,000: the import applies each line as
// its own step today, so a million lines is a long wait, see the printed ratio).

const argRows = () => {
  const at = process.argv.indexOf('--rows');
  const value = at > 0 ? Number(process.argv[at + 1]) : Number(process.env.BENCH_ROWS ?? 20_000);
  if (!Number.isInteger(value) || value < 100)
    throw new Error('--rows must be a whole number of at least 100.');
  return value;
};

export async function runStatement(): Promise<void> {
  const rows = argRows();
  const bench = await createBenchDatabase('statement');
  const folder = mkdtempSync(path.join(os.tmpdir(), 'paydesk-statement-'));
  try {
    const db = bench.database.db;
    const day = new Date().toISOString().slice(0, 10);
    const merchant = await db.transaction(async (tx) => {
      const pair = (await insertMerchant(tx, {
        no: 'M900001',
        name: 'Statement bench',
        currency: 'VND',
        timezone: 'UTC',
      }))!;
      const channel = await openChannel(tx, {
        merchantId: pair.live.id,
        code: 'bank',
        kind: 'collection',
        provider: 'bank_transfer',
        country: 'VN',
        currency: 'VND',
        feeRatePpm: 0,
        minAmountMinor: 1n,
        maxAmountMinor: 1_000_000_000n,
        settlementCycle: 'T1',
        expiryMinutes: 1440,
        settings: {
          bank: 'Vietcombank',
          account_name: 'PAYDESK',
          account_no: '0071000888999',
          bank_bin: '970436',
        },
        openedBy: 'bench',
      });
      return { id: pair.live.id, channel };
    });
    await db.execute(
      sql.raw(`
      insert into collections (merchant_id, channel_id, channel_code, trade_no, out_trade_no, amount_minor,
                               fee_minor, currency, status, pay_url, expires_at, created_at)
      select ${merchant.id}, ${merchant.channel.id}, 'bank', 'C' || lpad(i::text, 23, '0'), 'ORD' || i,
             100000, 0, 'VND', 'to_be_paid', '/pay/C' || lpad(i::text, 23, '0'),
             now() + interval '1 day', now() - interval '1 hour'
      from generate_series(1, ${rows}) i`),
    );
    const file = path.join(folder, 'statement.csv');
    const lines = ['Transaction ID,Date,Amount,Reference,Payer'];
    for (let i = 1; i <= rows; i += 1)
      lines.push(`T${i},${day},100000,Payment C${String(i).padStart(23, '0')},Payer ${i}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const size = statSync(file).size;

    // The baseline: the same file into a bare table by COPY.
    await db.execute(
      sql`create table bare_statement (txn text, day text, amount text, reference text, payer text)`,
    );
    const url = new URL(bench.url);
    const copyStart = performance.now();
    await run('psql', [
      url.toString(),
      '-q',
      '-c',
      `\\copy bare_statement from '${file}' with (format csv, header true)`,
    ]);
    const copyMs = performance.now() - copyStart;

    // The floor of any import that applies the lines: one UPDATE paying the orders the copied lines name
    // and the count of their rollups (rolled back), with no payment, attempt or callback recorded. Its
    // ratio to COPY bounds what statement:import could ever reach.
    const floorMs = await floorOf(bench.url);

    const app = await buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        APP_KEY: `base64:${Buffer.alloc(32, 5).toString('base64')}`,
        DATA_DIR: folder,
        JOBS: 'off',
      }),
      database: bench.database,
      logger: false,
    });
    await app.ready();
    const token = await ensureLocalOperatorToken(db, folder);
    const startRss = process.memoryUsage().rss;
    let peakRss = startRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const importStart = performance.now();
    const answer = await app.inject({
      method: 'POST',
      url: '/ops/v1/statements/import',
      headers: {
        authorization: `Bearer ${token}`,
        'x-operator': 'bench',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        merchant: 'M900001',
        channel: 'bank',
        date: day,
        format: 'csv',
        file_name: 'statement.csv',
        content: (await import('node:fs')).readFileSync(file).toString('base64'),
        reason: 'statement bench',
      }),
    });
    const importMs = performance.now() - importStart;
    clearInterval(sampler);
    if (answer.statusCode !== 201)
      throw new Error(`The import answered ${answer.statusCode}: ${answer.body}`);
    const [{ paid }] = await queryRows<{ paid: string }>(
      db,
      sql`select count(*)::text as paid from collections where status = 'paid'`,
    );
    await app.close();
    const ratio = copyMs / importMs;
    console.log(
      `  ${rows.toLocaleString('en')} lines (${fixed(size / 1e6, 1)} MB) against ${rows.toLocaleString('en')} open collections; ${paid} paid`,
    );
    console.log(
      `  COPY FROM (psql \\copy)   ${fixed(copyMs, 0)} ms  ${fixed(rows / (copyMs / 1000), 0)} lines/s`,
    );
    console.log(
      `  statement:import          ${fixed(importMs, 0)} ms  ${fixed(rows / (importMs / 1000), 0)} lines/s`,
    );
    console.log(
      `  floor: one UPDATE paying the lines' orders ${fixed(floorMs, 0)} ms  ${fixed(rows / (floorMs / 1000), 0)} lines/s  ratio ${fixed(copyMs / floorMs, 3)}`,
    );
    console.log(`  ratio ${fixed(ratio, 3)} (target >= 0.2)  ${ratio >= 0.2 ? 'ok' : 'MISS'}`);
    // The bench process holds the app, its pool and the file: the import's own share is peak - start.
    console.log(
      `  RSS of this process ${fixed(startRss / 1024 / 1024, 0)} MB before, ${fixed(peakRss / 1024 / 1024, 0)} MB at peak; ` +
        `the import's ${fixed((peakRss - startRss) / 1024 / 1024, 0)} MB (target < 200 MB)  ${peakRss - startRss < 200 * 1024 * 1024 ? 'ok' : 'MISS'}`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await bench.drop();
  }
}

/** One UPDATE of the orders named by the copied lines, then rolled back (psql: the same client as COPY). */
async function floorOf(url: string): Promise<number> {
  const start = performance.now();
  await run('psql', [
    url,
    '-q',
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    `begin; select set_config('paydesk.order_rollups', 'by_caller', true);
     update collections c set status = 'paid', paid_at = now(), channel_ref = b.txn
       from bare_statement b where c.trade_no = substr(b.reference, 9) and c.status = 'to_be_paid';
     select order_rollups_moved('collection', 'to_be_paid', array(select id from collections where status = 'paid'));
     rollback;`,
  ]);
  return performance.now() - start;
}
