import type { Readable } from 'node:stream';

/**
 * Where files live (top-up screenshots, export files): the local disk by default, or an S3-compatible
 * bucket (`STORAGE_URL=s3://bucket/prefix`). Keys are ours (generated names), never a client's file name.
 */
export interface FileStorage {
  /** Where the files go, for logs and the README (never a secret). */
  readonly description: string;
  /** Streams `body` to `key` (replacing any file there); resolves with the bytes written. */
  put(key: string, body: Readable | Buffer, options?: { contentType?: string }): Promise<{ size: number }>;
  /** The file's bytes as a stream; `FileNotFoundError` when there is none. */
  get(key: string): Promise<Readable>;
  /** The file's size, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the file; removing a missing file is not an error (jobs may run twice). */
  delete(key: string): Promise<void>;
}

export class FileNotFoundError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`No stored file at ${key}.`);
    this.key = key;
    this.name = 'FileNotFoundError';
  }
}

/** Keys are relative paths of lower-case letters, digits, '-', '_' and '.', in '/'-separated parts. */
const KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.') || key.length > 512) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}
