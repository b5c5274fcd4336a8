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
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/shared/src/**/*.test.ts', 'apps/server/src/**/*.test.ts'],
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
