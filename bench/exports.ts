import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { merchants, users } from '../apps/server/src/db/schema/index.ts';
import { createBenchDatabase, fixed } from './lib.ts';

// Exports of one merchant's fund flows (DESIGN section 8): CSV at least 0.3 of the speed of
// `COPY (...) TO STDOUT` of the same rows in the same run, XLSX at least 0.1, and the worker's peak memory
// under 200 MB at N and 3 N rows (default N = 1,000,000; `--rows N`). Each export runs in a child
// process, as a worker would, sampling its own RSS.

const argRows = () => {
  const at = process.argv.indexOf('--rows');
  const value = at > 0 ? Number(process.argv[at + 1]) : Number(process.env.BENCH_ROWS ?? 1_000_000);
  if (!Number.isInteger(value) || value < 1000)
    throw new Error('--rows must be a whole number of at least 1000.');
  return value;
};

type ExportRun = {
  status: string;
  error: string | null;
  rows: number;
  size: number;
  ms: number;
  startRssMb: number;
  peakRssMb: number;
};

function exportInChild(url: string, merchantId: number, userId: number, format: 'csv' | 'xlsx') {
  return new Promise<ExportRun>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(import.meta.dirname, 'exports-worker.ts'), url, String(merchantId), String(userId), format],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        if (code !== 0) throw new Error(out);
        resolve(JSON.parse(line) as ExportRun);
      } catch {
        reject(new Error(`export child exited ${code}:\n${out}`));
      }
    });
  });
}

/** COPY of the same rows, in the same order, to a client that only counts the bytes (psql to a pipe). */
function copyBaseline(url: string, merchantId: number): Promise<{ ms: number; bytes: number }> {
  const query = `copy (select id, created_at, type, amount_minor, available_after_minor, ref_no, note
    from fund_flows where merchant_id = ${merchantId}
    order by created_at desc nulls last, id desc nulls last) to stdout with (format csv, header)`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('psql', [url, '-X', '-q', '-c', query], { stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let err = '';
    child.stdout.on('data', (d: Buffer) => (bytes += d.length));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) =>
      code === 0 ? resolve({ ms: performance.now() - started, bytes }) : reject(new Error(`psql: ${err}`)),
    );
  });
}

export async function runExports(): Promise<void> {
  const rows = argRows();
  const bench = await createBenchDatabase('exports');
  try {
    const { db } = bench.database;
    const [merchant] = await db
      .insert(merchants)
      .values({ no: 'MBX1', name: 'Bench exports', currency: 'CNY' })
      .returning();
    const [user] = await db
      .insert(users)
      .values({
        merchantId: merchant!.id,
        name: 'Bench',
        email: 'bench@exports.test',
        passwordHash: 'x',
        roles: ['ROOT'],
      })
      .returning();

    // Fund flow rows as the ledger writes them (amounts signed, a running balance, some notes in Chinese
    // and some that look like formulas), loaded in one statement; the journal entries they point at are not
    // needed here (foreign keys are skipped for the load).
    const load = async (from: number, to: number) => {
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`
          insert into fund_flows (merchant_id, type, amount_minor, available_after_minor, ref_type, ref_id, ref_no,
                                  entry_id, note, created_at)
          select ${merchant!.id},
                 (array['collection_settlement','recharge','transfer_in','transfer_out','payout_refund'])[1 + g % 5],
                 case when g % 5 = 3 then -(1 + g % 500) else 1000 + g % 9000 end,
                 1000000000 + g, 'bench', g::text, 'R' || g, g,
                 case g % 10 when 0 then '代收结算 thanh toán ' || g when 1 then '=cmd|' || g else null end,
                 timestamptz '2025-06-01 00:00:00+00' + g * interval '2 seconds'
          from generate_series(${from}::int, ${to}::int) g`);
      });
      await db.execute(sql`vacuum analyze fund_flows`);
    };

    const measure = async (count: number, withBaseline: boolean) => {
      console.log(`\n${count.toLocaleString('en')} fund flow rows for one merchant`);
      let copy: { ms: number; bytes: number } | undefined;
      if (withBaseline) {
        await copyBaseline(bench.url, merchant!.id); // warm the cache
        copy = await copyBaseline(bench.url, merchant!.id);
        console.log(
          `  COPY ... TO STDOUT (baseline)  ${fixed(copy.ms / 1000, 2)} s  ${fixed(copy.bytes / 1e6, 1)} MB`,
        );
      }
      for (const [format, target] of [
        ['csv', 0.3],
        ['xlsx', 0.1],
      ] as const) {
        const result = await exportInChild(bench.url, merchant!.id, user!.id, format);
        if (result.status !== 'success' || result.rows !== count) {
          throw new Error(`${format} export: ${result.status} ${result.error ?? ''} (${result.rows} rows)`);
        }
        const ratio = copy ? copy.ms / result.ms : undefined;
        console.log(
          `  ${format.toUpperCase().padEnd(4)} export                   ${fixed(result.ms / 1000, 2)} s  ${fixed(result.size / 1e6, 1)} MB` +
            (ratio !== undefined ? `  speed vs COPY ${fixed(ratio)} (target >= ${target})` : '') +
            `  peak RSS ${fixed(result.peakRssMb, 0)} MB (target < 200; ${fixed(result.startRssMb, 0)} MB before the export began)`,
        );
      }
    };

    let started = performance.now();
    await load(1, rows);
    console.log(
      `exports: database ${bench.name}; loaded ${rows.toLocaleString('en')} rows in ${fixed((performance.now() - started) / 1000, 1)} s`,
    );
    await measure(rows, true);

    started = performance.now();
    await load(rows + 1, rows * 3);
    console.log(
      `\nloaded up to ${(rows * 3).toLocaleString('en')} rows in ${fixed((performance.now() - started) / 1000, 1)} s`,
    );
    await measure(rows * 3, true);
  } finally {
    await bench.drop();
  }
}
