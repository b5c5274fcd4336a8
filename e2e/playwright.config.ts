import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8181);
export const baseURL = `http://127.0.0.1:${port}`;
// Set once in the runner and inherited by the workers, so a test can reach the server's DATA_DIR (the ops
// command line finds the server there).
const dataDir = (process.env.PAYDESK_E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'paydesk-e2e-')));

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results',
  // Generous: the suite must pass on a busy machine too; a passing step returns as soon as it holds.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // scripts/test-all.mjs sets PLAYWRIGHT_JSON_OUTPUT_NAME to sum the results.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    locale: 'en-US',
    timezoneId: 'Asia/Shanghai',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  // The real server, production mode, on a fresh embedded database with the demo merchant.
  webServer: {
    command: 'node ../apps/server/src/main.ts --demo',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      // Two browsers on one address walking every page at machine speed: far above what one office
      // sends. The ceiling itself is tested in apps/server/test/integration/serving.test.ts.
      API_RATE_PER_MINUTE: '6000',
    },
  },
});
