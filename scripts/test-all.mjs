// npm test: every runner in turn (lint, typecheck, Vitest, Playwright), then one line summing them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const out = mkdtempSync(path.join(os.tmpdir(), 'paydesk-test-'));
const totals = { passed: 0, failed: 0 };
const lines = [];

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function check(label, command, args) {
  const ok = run(label, command, args);
  totals[ok ? 'passed' : 'failed'] += 1;
  lines.push(`${label}: ${ok ? 'passed' : 'FAILED'}`);
}

check('lint', 'npm', ['run', '-s', 'lint']);
check('typecheck', 'npm', ['run', '-s', 'typecheck']);

const vitestJson = path.join(out, 'vitest.json');
const vitestOk = run(
  'vitest (unit, integration on PGlite' + (process.env.DATABASE_URL ? ' and PostgreSQL' : '') + ', web)',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
);
if (existsSync(vitestJson)) {
  const report = JSON.parse(readFileSync(vitestJson, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests + (vitestOk || report.numFailedTests > 0 ? 0 : 1);
  lines.push(`vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
} else {
  totals.failed += 1;
  lines.push('vitest: did not report');
}

const playwrightJson = path.join(out, 'playwright.json');
const e2eOk = run('playwright (browser suite against the real server)', 'node', ['scripts/e2e.mjs'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
});
if (existsSync(playwrightJson)) {
  const { stats } = JSON.parse(readFileSync(playwrightJson, 'utf8'));
  const failed = stats.unexpected + (e2eOk || stats.unexpected > 0 ? 0 : 1);
  totals.passed += stats.expected + stats.flaky;
  totals.failed += failed;
  lines.push(
    `playwright: ${stats.expected + stats.flaky} passed, ${failed} failed${stats.flaky ? ` (${stats.flaky} flaky)` : ''}`,
  );
} else {
  totals.failed += 1;
  lines.push('playwright: did not report');
}

console.log('\n' + lines.join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
