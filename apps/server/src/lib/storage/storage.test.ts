import { S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import S3rver from '@20minutes/s3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createLocalStorage,
  createS3Storage,
  createStorage,
  FileNotFoundError,
  parseS3Url,
} from './index.ts';
import type { FileStorage } from './storage.ts';

/** What every backend promises; run against the local disk and against a real S3-compatible server. */
function contract(name: string, storage: () => FileStorage) {
  describe(`${name}: the storage contract`, () => {
    it('gives back exactly the bytes it was given, from a buffer or a stream of unknown length', async () => {
      const s = storage();
      const bytes = Buffer.from('跨境 thanh toán 🙂\n'.repeat(1000));
      expect(await s.put('contract/a.txt', bytes)).toEqual({ size: bytes.length });
      expect(Buffer.from(await (await s.get('contract/a.txt')).toArray().then(Buffer.concat))).toEqual(bytes);

      const chunks = Array.from({ length: 200 }, (_, i) => `row ${i},${'x'.repeat(40_000)}\n`);
      const { size } = await s.put('contract/stream.csv', Readable.from(chunks), { contentType: 'text/csv' });
      expect(size).toBe(chunks.join('').length);
      expect(await text(await s.get('contract/stream.csv'))).toBe(chunks.join(''));
      expect(await s.stat('contract/stream.csv')).toEqual({ size });
    });

    it('replaces a file written twice under one key', async () => {
      const s = storage();
      await s.put('contract/twice.txt', Buffer.from('first, longer text'));
      await s.put('contract/twice.txt', Buffer.from('second'));
      expect(await text(await s.get('contract/twice.txt'))).toBe('second');
    });

    it('answers a missing file with FileNotFoundError and a null stat, and deletes idempotently', async () => {
      const s = storage();
      await expect(s.get('contract/none.bin')).rejects.toBeInstanceOf(FileNotFoundError);
      expect(await s.stat('contract/none.bin')).toBeNull();
      await s.put('contract/gone.bin', Buffer.from([1, 2, 3]));
      await s.delete('contract/gone.bin');
      await s.delete('contract/gone.bin');
      expect(await s.stat('contract/gone.bin')).toBeNull();
    });

    it('refuses keys that could leave its folder or carry a client file name', async () => {
      const s = storage();
      for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'Upper.png', 'a//b', 'sp ace', '']) {
        await expect(s.put(key, Buffer.from('x'))).rejects.toThrow(/Invalid storage key/);
      }
    });
  });
}

const root = mkdtempSync(path.join(os.tmpdir(), 'paydesk-files-'));
contract('local disk', () => createLocalStorage(root));

describe('local disk', () => {
  it('leaves no partial file behind when the source stream fails', async () => {
    const s = createLocalStorage(root);
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(s.put('broken/upload.png', failing)).rejects.toThrow('client went away');
    expect(readdirSync(path.join(root, 'broken'))).toEqual([]);
    expect(await s.stat('broken/upload.png')).toBeNull();
  });

  it('lives under DATA_DIR/files unless STORAGE_URL names a bucket', () => {
    expect(createStorage({ dataDir: '/srv/paydesk' }).description).toBe('local disk (/srv/paydesk/files)');
    expect(createStorage({ dataDir: '/srv', storageUrl: 's3://bucket-1/exports/' }).description).toBe(
      's3://bucket-1/exports/',
    );
  });
});

describe('STORAGE_URL', () => {
  it('names a bucket and an optional prefix', () => {
    expect(parseS3Url('s3://paydesk-files')).toEqual({ bucket: 'paydesk-files', prefix: '' });
    expect(parseS3Url('s3://paydesk-files/prod/eu/')).toEqual({
      bucket: 'paydesk-files',
      prefix: 'prod/eu/',
    });
    expect(() => parseS3Url('https://paydesk-files')).toThrow(/s3:\/\/bucket/);
  });
});

// A real S3-compatible server (s3rver, maintained fork, in this process, on a free port): the same contract
// over HTTP.
let s3server: S3rver | undefined;
let endpoint = '';
beforeAll(async () => {
  s3server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: mkdtempSync(path.join(os.tmpdir(), 'paydesk-s3-')),
    configureBuckets: [{ name: 'paydesk-test', configs: [] }],
  });
  const { port } = await s3server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await s3server?.close();
});

contract('S3 (s3rver)', () =>
  createS3Storage(parseS3Url('s3://paydesk-test/files'), {
    client: new S3Client({
      endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    }),
  }),
);
