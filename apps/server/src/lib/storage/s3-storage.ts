import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';

import { assertStorageKey, FileNotFoundError, type FileStorage } from './storage.ts';

export type S3Location = { bucket: string; prefix: string };

/** `s3://bucket/some/prefix` -> { bucket, prefix: 'some/prefix/' }. */
export function parseS3Url(url: string): S3Location {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/.*)?$/.exec(url);
  if (!match) throw new Error(`STORAGE_URL must look like s3://bucket/prefix, not ${JSON.stringify(url)}`);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: match[1]!, prefix: prefix ? `${prefix}/` : '' };
}

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * An S3-compatible bucket. Credentials and region come from the AWS SDK's usual sources (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_REGION, profiles, instance roles); `endpoint` points at MinIO, R2 and the like.
 * Uploads stream in parts (lib-storage), so a file of unknown length never sits whole in memory.
 */
export function createS3Storage(
  location: S3Location,
  options: { endpoint?: string; forcePathStyle?: boolean; client?: S3Client } = {},
): FileStorage {
  const client =
    options.client ??
    new S3Client({
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
      region: process.env.AWS_REGION ?? 'us-east-1',
    });
  const { bucket } = location;
  const objectKey = (key: string) => {
    assertStorageKey(key);
    return location.prefix + key;
  };
  return {
    description: `s3://${bucket}/${location.prefix}`,
    async put(key, body, { contentType } = {}) {
      let size = 0;
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      source.on('data', (chunk: Buffer) => (size += chunk.length));
      const upload = new Upload({
        client,
        params: {
          Bucket: bucket,
          Key: objectKey(key),
          Body: source,
          ...(contentType ? { ContentType: contentType } : {}),
        },
      });
      await upload.done();
      return { size };
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return answer.Body as Readable;
      } catch (error) {
        if (isNotFound(error)) throw new FileNotFoundError(key);
        throw error;
      }
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
  };
}
