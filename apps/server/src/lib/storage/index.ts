import path from 'node:path';

import { createLocalStorage } from './local-storage.ts';
import { createS3Storage, parseS3Url } from './s3-storage.ts';
import type { FileStorage } from './storage.ts';

export { createLocalStorage } from './local-storage.ts';
export { createS3Storage, parseS3Url } from './s3-storage.ts';
export { assertStorageKey, FileNotFoundError, type FileStorage } from './storage.ts';

/** STORAGE_URL=s3://bucket/prefix selects S3 (S3_ENDPOINT for MinIO and the like); else DATA_DIR/files. */
export function createStorage(options: {
  dataDir: string;
  storageUrl?: string;
  s3Endpoint?: string;
}): FileStorage {
  if (options.storageUrl) {
    return createS3Storage(parseS3Url(options.storageUrl), {
      ...(options.s3Endpoint ? { endpoint: options.s3Endpoint } : {}),
    });
  }
  return createLocalStorage(path.join(options.dataDir, 'files'));
}
