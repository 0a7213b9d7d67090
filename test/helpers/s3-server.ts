/**
 * A real S3-compatible server for the S3 upload tests: s3rver (a dev dependency, pure
 * JavaScript, no install scripts) on 127.0.0.1 at a random port, keeping its objects in a
 * temp folder, with one bucket made at start. Bun's S3Client signs requests as for AWS and
 * s3rver answers as S3 does (XML errors, ETags, ListObjectsV2), so the provider is tested
 * over real HTTP. s3rver does not check signatures, so the keys only have to be present.
 */
import { rmSync } from 'node:fs';
import { S3Client } from 'bun';
import type { S3Location } from '../../src/upload/storage-s3-location';
import { tempDir } from './server';

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** A location for Config.uploadsS3 under `prefix`. */
  location(prefix: string): S3Location;
  /** A client on the bucket, to look at what Folio stored. */
  client: S3Client;
  /** Every key under a prefix, sorted. */
  keys(prefix: string): Promise<string[]>;
  stop(): Promise<void>;
}

const KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', region: 'us-east-1' };

export async function startS3(bucket = 'folio-test'): Promise<TestS3> {
  const directory = tempDir('folio-s3-');
  // Untyped CommonJS package; the two methods used are typed above.
  const S3rver = require('s3rver') as S3rverClass;
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ ...KEYS, endpoint, bucket });
  let stopped = false;
  return {
    endpoint,
    bucket,
    client,
    location: (prefix) => ({ bucket, prefix, endpoint, ...KEYS }),
    async keys(prefix) {
      const listed = await client.list({ prefix: prefix ? `${prefix}/` : undefined });
      return (listed.contents ?? []).map((o) => o.key).sort();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
