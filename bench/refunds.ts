import { performance } from 'node:perf_hooks';
import type { GatewayMerchant } from '../apps/server/test/factories/gateway.ts';
import {
  APP_ENV,
  type ClientsResult as CollectionsResult,
  runClients as runCollectionClients,
} from './collections.ts';
import {
  CLIENTS,
  type ClientsResult,
  measureInSlices,
  merged,
  printLine,
  problemsOf,
  reportRun,
  SECONDS,
  SLICES,
  startGatewayBench,
  sum,
} from './payouts.ts';

// Issue 37's measure on PostgreSQL (DESIGN section 8), each figure beside its baseline in the same run:
// 1. Refund creation through the signed gateway (POST /gateway/v1/collections/{trade_no}/refunds) over
//    real HTTP, the app listening on 127.0.0.1 with JOBS=off (the sandbox's refund job never runs: refunds
//    stay processing, their amount held), 16 clients across 16 merchants (one each), in slices interleaved
//    with `pgbench -N -c 16 -j 2` (payouts.ts's clients thread and slicing). Each refund is a different
//    order, refunded whole (100.00 of 100.00): the paid orders are seeded with one bulk INSERT, not
//    through the API, and each merchant's available balance is funded through the ledger. Target: >= 0.25
//    of pgbench's TPS, and ledger:verify clean after the run.
// 2. Collection creation (collections.ts's clients, POST /gateway/v1/collections) for 16 merchants with one
//    collection channel and 16 with three (same kind and mode, priority 0, weights 1/1/1: routing.ts shares
//    the orders among them), in alternating slices. Target: the time per collection with three within 1.1x
//    of the time with one.

const REFUND_TARGET = 0.25;
const ROUTING_TARGET = 1.1;
/** Every seeded order: 100.00 paid (fee 1.50), refunded whole. */
const ORDER_MINOR = 10_000n;
const REFUND_AMOUNT = '100.00';
/** Paid orders of each merchant for each slice (and the warm-up): far more than a client refunds in one. */
const ORDERS_PER_SLICE = 3_000;
/** Each merchant's money: more than all its orders' refunds. */
const FUNDS_MINOR = 10_000_000_000n;
const ROUTED_CODES = ['sandbox', 'sandbox-2', 'sandbox-3'];

export async function runRefunds(): Promise<void> {
  // Loaded here, not above: payouts.ts's and collections.ts's worker threads need none of it.
  const [
    { sql },
    { queryRows },
    { channels },
    { verifyLedger },
    { setChannelRoute },
    { createGatewayMerchant, fundMerchant },
  ] = await Promise.all([
    import('drizzle-orm'),
    import('../apps/server/src/db/client.ts'),
    import('../apps/server/src/db/schema/index.ts'),
    import('../apps/server/src/modules/ledger/index.ts'),
    import('../apps/server/src/modules/channels/index.ts'),
    import('../apps/server/test/factories/gateway.ts'),
  ]);
  // The server as collections.ts runs it: JOBS=off, NODE_ENV=test (only the per-IP ceiling, which every
  // client here shares from 127.0.0.1, is lifted).
  const started = await startGatewayBench('refunds', APP_ENV);
  const { lib, bench, db, config, url, clients } = started;
  const { fixed } = lib;
  try {
    // 1. Refunds: 16 merchants (one per client), each with an access key, 127.0.0.1 whitelisted, the open
    // sandbox collection channel (1.5%), its available balance funded, and its paid orders
    // C<merchant id, 8 digits><n, 8 digits> for n from 0: ORDERS_PER_SLICE for each slice, then the warm-up's.
    const refunding = [];
    for (let i = 0; i < CLIENTS; i++) {
      const m = await createGatewayMerchant(db, config.appKey);
      await fundMerchant(db, m.merchant.id, FUNDS_MINOR);
      refunding.push(m);
    }
    const ordersEach = (SLICES + 1) * ORDERS_PER_SLICE;
    const seedStarted = performance.now();
    // Our own constants, written into the statement: a parameter in INSERT ... SELECT's list reads as text.
    const constant = (value: bigint | number) => sql.raw(String(value));
    await db.execute(sql`
      insert into collections (merchant_id, channel_id, channel_code, trade_no, out_trade_no, amount_minor,
                               fee_minor, currency, status, settlement_status, expires_at, paid_at, created_at)
      select c.merchant_id, c.id, c.code, 'C' || lpad(c.merchant_id::text, 8, '0') || lpad(n::text, 8, '0'),
             'seed-' || n, ${constant(ORDER_MINOR)}, ${constant((ORDER_MINOR * 15n) / 1000n)}, c.currency, 'paid', 'unsettled',
             now() - interval '1 hour' + interval '30 minutes', now() - interval '50 minutes',
             now() - interval '1 hour'
        from channels c cross join generate_series(0, ${constant(ordersEach - 1)}) as n
       where c.kind = 'collection'
         and c.merchant_id in (${sql.join(
           refunding.map((m) => sql`${m.merchant.id}`),
           sql`, `,
         )})`);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const refundMerchants = refunding.map((m) => ({
      no: m.merchant.no,
      accessKey: m.accessKey,
      secret: m.secret,
      orderPrefix: `C${String(m.merchant.id).padStart(8, '0')}`,
    }));
    await db.execute(sql`vacuum analyze`);

    const refundsJob = { url, clients: CLIENTS, maxRequests: Number.MAX_SAFE_INTEGER };
    const refundCalls = (first: number) => ({ amount: REFUND_AMOUNT, first, perClient: ORDERS_PER_SLICE });
    const warmup = await clients.run({
      ...refundsJob,
      merchants: refundMerchants,
      seconds: 1,
      tag: 'w',
      refund: refundCalls(SLICES * ORDERS_PER_SLICE),
    });
    const slice = SECONDS / SLICES;
    const refunds = await measureInSlices(
      { lib, db, benchUrl: bench.url, run: clients.run, job: refundsJob, slices: SLICES },
      's',
      (k) => ({ merchants: refundMerchants, seconds: slice, refund: refundCalls(k * ORDERS_PER_SLICE) }),
    );

    // After the run: ledger:verify, and for every answer 201 (warm-up included) one refund in processing,
    // one open refund hold, and its order's whole amount taken back.
    const all: ClientsResult = merged([warmup, refunds.result]);
    const report = await verifyLedger(db);
    const [stored] = await queryRows<{ refunds: string; holds: string; held: string; orders: string }>(
      db,
      sql`select (select count(*) from refunds where status = 'processing')::text as refunds,
                 (select count(*) from holds where type = 'refund' and status = 'open')::text as holds,
                 (select coalesce(sum(amount_minor), 0) from holds
                   where type = 'refund' and status = 'open')::text as held,
                 (select count(*) from collections where refunded_minor = amount_minor)::text as orders`,
    );
    // How many of the orders' changes (refunded_minor) stayed on their page: collections keep 10% free.
    const [updates] = await queryRows<{ updated: string; hot: string }>(
      db,
      sql`select n_tup_upd::text as updated, n_tup_hot_upd::text as hot
            from pg_stat_user_tables where relname = 'collections'`,
    );
    const refundProblems = problemsOf(report, [
      Number(stored.refunds) !== all.created &&
        `${stored.refunds} refunds stored for ${all.created} answers 201`,
      Number(stored.holds) !== all.created && `${stored.holds} open holds for ${all.created} answers 201`,
      BigInt(stored.held) !== BigInt(all.created) * ORDER_MINOR &&
        `${stored.held} held for ${all.created} refunds of ${ORDER_MINOR}`,
      Number(stored.orders) !== all.created &&
        `${stored.orders} orders refunded for ${all.created} answers 201`,
    ]);

    // 2. Routing: 16 merchants with the one sandbox channel, 16 with three of equal priority and weight.
    const single: GatewayMerchant[] = [];
    const routed: GatewayMerchant[] = [];
    for (let i = 0; i < 2 * CLIENTS; i++) {
      const m = await createGatewayMerchant(db, config.appKey);
      if (i % 2 === 0) {
        single.push(m);
        continue;
      }
      const { id: _id, createdAt: _c, updatedAt: _u, code: _code, ...terms } = m.channel!;
      await db.insert(channels).values(ROUTED_CODES.slice(1).map((code) => ({ ...terms, code, weight: 1 })));
      // The first channel's weight as channel:route sets it.
      await db.transaction((tx) =>
        setChannelRoute(tx, m.merchant.id, 'collection', ROUTED_CODES[0], { weight: 1 }),
      );
      routed.push(m);
    }
    const credentials = (made: typeof single) =>
      made.map((m) => ({ no: m.merchant.no, accessKey: m.accessKey, secret: m.secret }));
    const collectionsJob = { urls: [url], clients: CLIENTS, maxRequests: Number.MAX_SAFE_INTEGER };
    const setups = [
      { label: 'one channel', merchants: credentials(single), results: [] as CollectionsResult[] },
      { label: 'three channels', merchants: credentials(routed), results: [] as CollectionsResult[] },
    ];
    for (const setup of setups)
      await runCollectionClients({ ...collectionsJob, merchants: setup.merchants, seconds: 1, tag: 'w' });
    // Slice by slice, the two setups one after the other, the first of them alternating: both see the
    // same minutes of the machine.
    for (let k = 0; k < SLICES; k++) {
      for (const setup of k % 2 === 0 ? setups : [...setups].reverse()) {
        setup.results.push(
          await runCollectionClients({
            ...collectionsJob,
            merchants: setup.merchants,
            seconds: slice,
            tag: `s${k}`,
          }),
        );
      }
    }
    const shares = await queryRows<{ code: string; orders: string }>(
      db,
      sql`select c.code, count(*)::text as orders from collections o join channels c on c.id = o.channel_id
           where o.merchant_id in (${sql.join(
             routed.map((m) => sql`${m.merchant.id}`),
             sql`, `,
           )})
           group by c.code order by c.code`,
    );

    console.log('');
    console.log(
      `1. refund creation (POST /gateway/v1/collections/{trade_no}/refunds over HTTP, sandbox channel, JOBS=off, logs at info):`,
    );
    console.log(
      `${CLIENTS * ordersEach} paid orders seeded by one INSERT in ${fixed(seedSeconds, 1)} s; each refund a different order, refunded whole (${REFUND_AMOUNT})`,
    );
    reportRun(lib, {
      title: `${CLIENTS} clients across ${CLIENTS} merchants (one each); ${SLICES} slices of pgbench -N -c ${CLIENTS} -j 2 -T ${fixed(slice, 1)}, each followed by ${fixed(slice, 1)} s of refunds:`,
      run: refunds,
      what: 'refund',
      target: REFUND_TARGET,
      verified:
        refundProblems.length === 0
          ? `OK (${report.entries_checked} entries checked; ${all.created} refunds = answers 201 = open holds = orders refunded)`
          : `${refundProblems.length} problem(s):\n    ${refundProblems.join('\n    ')}`,
    });
    printLine(
      '    orders changed on their page (HOT)',
      `${updates.hot} of ${updates.updated} updates of collections (the statistics as they stood after the run)`,
    );
    if (all.firstRefusal) console.log(`first refusal: ${all.firstRefusal}`);

    console.log('');
    console.log(
      `2. collection creation (POST /gateway/v1/collections over HTTP, ${CLIENTS} clients across ${CLIENTS} merchants), ${SLICES} slices of ${fixed(slice, 1)} s per setup, alternating:`,
    );
    const tps = (results: CollectionsResult[]) =>
      sum(results.map((r) => r.created)) / sum(results.map((r) => r.seconds));
    for (const setup of setups) {
      const p50s = setup.results.map((r) => r.p50);
      const answers: Record<string, number> = {};
      for (const r of setup.results)
        for (const [status, count] of Object.entries(r.statuses))
          answers[status] = (answers[status] ?? 0) + count;
      printLine(
        `    ${setup.label}`,
        `${fixed(tps(setup.results), 0)} TPS; p50 ${fixed(Math.min(...p50s), 1)}-${fixed(Math.max(...p50s), 1)} ms by slice`,
      );
      printLine(
        `    answers (${setup.label})`,
        Object.entries(answers)
          .map(([status, count]) => `${count} x ${status}`)
          .join(', '),
      );
    }
    const [one, three] = setups.map((s) => tps(s.results));
    // The time per collection is 1 / TPS: three channels' over one's.
    const ratio = one / three;
    const sliceRatios = setups[0].results.map((r, k) => r.tps / setups[1].results[k].tps);
    printLine(
      `    time per collection, three / one   [target <= ${ROUTING_TARGET}]`,
      `${fixed(ratio, 3)} (${ratio <= ROUTING_TARGET ? 'met' : 'MISSED'}); slices ${fixed(Math.min(...sliceRatios))}-${fixed(Math.max(...sliceRatios))}`,
    );
    printLine(
      '    orders by channel (three channels, weights 1/1/1)',
      shares.map((s) => `${s.code} ${s.orders}`).join(', '),
    );
    const firstRefusal = setups.flatMap((s) => s.results).find((r) => r.firstRefusal)?.firstRefusal;
    if (firstRefusal) console.log(`first refusal: ${firstRefusal}`);

    started.footer();
    if (refundProblems.length > 0 || refunds.result.created !== refunds.result.requests) process.exitCode = 1;
  } finally {
    await started.close();
  }
}
