import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { assertStorageKey, FileNotFoundError, type FileStorage } from './storage.ts';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Files under `root` (DATA_DIR/files: never a served folder). A write lands whole or not at all. */
export function createLocalStorage(root: string): FileStorage {
  const fileOf = (key: string) => {
    assertStorageKey(key);
    return path.join(root, ...key.split('/'));
  };
  return {
    description: `local disk (${root})`,
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
      let size = 0;
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      source.on('data', (chunk: Buffer) => (size += chunk.length));
      try {
        await pipeline(source, createWriteStream(partial, { mode: 0o600 }));
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { size };
    },
    async get(key) {
      const file = fileOf(key);
      try {
        await stat(file);
      } catch (error) {
        if (isMissing(error)) throw new FileNotFoundError(key);
        throw error;
      }
      return createReadStream(file);
    },
    async stat(key) {
      try {
        return { size: (await stat(fileOf(key))).size };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
