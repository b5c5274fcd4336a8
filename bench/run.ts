// `npm run bench -- <name>`: benchmarks against PostgreSQL (DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test). Each creates and drops a database of its own and prints its
// figures beside a baseline measured in the same run. They are never timed assertions in tests.
// `console` needs no database: it builds the console and prints its sizes beside DESIGN's targets.

const BENCHMARKS: Record<string, { about: string; run: () => Promise<void>; inAll?: false }> = {
  'ledger-deductions': {
    about: 'ledger deductions, 16 clients, vs pgbench -N on the same server (target ratio >= 0.25)',
    run: async () => (await import('./ledger-deductions.ts')).runLedgerDeductions(),
  },
  'fund-flow-list': {
    about:
      'fund flow first page by type at 1,000,000 entries vs the bare index query (target <= 3x); page 500 vs 1',
    run: async () => (await import('./fund-flow-list.ts')).runFundFlowList(),
  },
  'seed-10m': {
    about:
      'seeds and keeps a database for `lists --reuse`: 10,000,000 collections, payouts and fund flow entries (--rows N), 100,000 top-ups and withdrawals (--small N), one merchant',
    run: async () => (await import('./lists.ts')).runSeed10m(),
    // It keeps its database; `lists` seeds (and drops) its own.
    inAll: false,
  },
  lists: {
    about:
      'every list, first page with each filter over HTTP vs the bare index query (target <= 3x), page 500 by cursor vs page 1 (<= 1.2x), sums from rollups; seeds its own (--rows N, default 10,000,000) or --reuse <db> [--drop]; --runs N',
    run: async () => (await import('./lists.ts')).runLists(),
  },
  collections: {
    about:
      'collection creation via the signed gateway over HTTP, 16 clients, vs pgbench -N (target >= 0.4); callback delivery vs a bare POST loop (target >= 0.3)',
    run: async () => (await import('./collections.ts')).runCollections(),
  },
  exports: {
    about:
      'fund flow export (--rows N, default 1,000,000) to CSV vs COPY TO STDOUT (target >= 0.3), XLSX (>= 0.1), worker peak RSS < 200 MB at N and 3 N rows',
    run: async () => (await import('./exports.ts')).runExports(),
  },
  soak: {
    about:
      'mixed demo traffic (--minutes N, default 10) against a real server process (JOBS=inline): unexpected answers, callbacks received vs expected, RSS trend, ledger:verify',
    run: async () => (await import('./soak.ts')).runSoak(),
  },
  console: {
    about:
      "console build: the login route's JavaScript + CSS (target < 170 KB gzip), each page's own chunks beyond the shared layout (target < 80 KB gzip)",
    run: async () => (await import('./console.ts')).runConsole(),
  },
  statement: {
    about:
      'statement import: N CSV lines (--rows N, default 20,000) matched against N open collections through statement:import vs COPY FROM of the same file (target >= 0.2), peak memory < 200 MB',
    run: async () => (await import('./statement.ts')).runStatement(),
  },
  payouts: {
    about:
      'payout creation via the signed gateway over HTTP, 16 clients, across 16 merchants and on one hot merchant, in slices interleaved with pgbench -N (target >= 0.25 both); CPU per payout; ledger:verify after each run',
    run: async () => (await import('./payouts.ts')).runPayouts(),
  },
  refunds: {
    about:
      'refund creation via the signed gateway over HTTP, 16 clients across 16 merchants, each refund a different seeded paid order, in slices interleaved with pgbench -N (target >= 0.25), ledger:verify after; collection creation with three routed channels vs one (time ratio <= 1.1)',
    run: async () => (await import('./refunds.ts')).runRefunds(),
  },
};

const name = process.argv[2];
const names = name === 'all' ? Object.keys(BENCHMARKS).filter((n) => BENCHMARKS[n].inAll !== false) : [name];
// Options after the name (--rows) are the benchmark's own.
if (!name || names.some((n) => !BENCHMARKS[n])) {
  console.error('Usage: npm run bench -- <name>|all\n');
  for (const [key, bench] of Object.entries(BENCHMARKS)) console.error(`  ${key.padEnd(20)}${bench.about}`);
  process.exit(2);
}
for (const n of names) {
  console.log(`\n== ${n}`);
  await BENCHMARKS[n].run();
}
