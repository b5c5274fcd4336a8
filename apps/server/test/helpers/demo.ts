import path from 'node:path';
import { expect } from 'vitest';
import { createLocalStorage } from '../../src/lib/storage/index.ts';
import { seedDemo } from '../../src/modules/demo/index.ts';
import { createTestApp, type TestContext } from './test-app.ts';

/**
 * A test app of its own seeded with the demo data (which needs an empty database), its top-ups'
 * screenshots stored in the app's DATA_DIR. The caller closes it.
 */
export async function createDemoTestApp(): Promise<TestContext> {
  const demo = await createTestApp();
  try {
    expect(
      await seedDemo(demo.database.db, {
        appKey: demo.config.appKey,
        files: {
          storage: createLocalStorage(path.join(demo.config.dataDir, 'files')),
          topUp: demo.config.topUp,
        },
      }),
    ).toBe(true);
  } catch (error) {
    await demo.close();
    throw error;
  }
  return demo;
}
