import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const integration = (database: 'pglite' | 'postgres') => ({
  test: {
    name: `integration:${database}`,
    include: ['apps/server/test/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DATABASE: database },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default on 2 cores is one worker (cores - 1), so the files ran one after another while
    // each spent much of its time waiting on PostgreSQL or a child process: 1,254 s of vitest on this
    // machine, 830 s with two. Files share nothing: each has its own database (PGlite in memory, or a
    // fresh PostgreSQL database) and listens on port 0.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/shared/src/**/*.test.ts',
            'packages/node-client/test/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
          ],
          environment: 'node',
          // Some unit tests run ESLint or compile the Java and Python signing examples: on a busy machine
          // that takes far longer than the default 5 s, and a test must not depend on the machine's speed.
          testTimeout: 60_000,
        },
      },
      integration('pglite'),
      // With DATABASE_URL set (CI sets it) the same suite runs on PostgreSQL too.
      ...(process.env.DATABASE_URL ? [integration('postgres')] : []),
      ...(existsSync('apps/web/vitest.config.ts') ? ['apps/web/vitest.config.ts'] : []),
    ],
  },
});
