/**
 * Where the S3 provider's files are: `FOLIO_UPLOADS=s3://bucket/prefix` and how to reach the
 * bucket. Apart from storage-s3.ts so that config.ts can read it without loading the client.
 */
/** Where and how to reach the bucket (config.ts reads it from FOLIO_UPLOADS and the S3/AWS variables). */
export interface S3Location {
  bucket: string;
  /** Key prefix without leading or trailing `/`; '' for the bucket's root. */
  prefix: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
}

/**
 * `s3://bucket` or `s3://bucket/some/prefix` (a trailing `/` is dropped). Bucket names as
 * S3 allows them (3–63 of lower-case letters, digits, `.` and `-`); a prefix of plain
 * segments, so no key can escape it.
 */
export function parseS3Url(raw: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(raw);
  const bucket = match?.[1] ?? '';
  const prefix = (match?.[2] ?? '').replace(/\/+$/, '');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`FOLIO_UPLOADS must be s3://bucket/prefix with a valid bucket name, got "${raw}"`);
  if (prefix !== '' && prefix.split('/').some((s) => !s || s === '.' || s === '..' || /[\0\\]/.test(s))) {
    throw new Error(`FOLIO_UPLOADS has an invalid prefix "${prefix}" (plain segments separated by /)`);
  }
  return { bucket, prefix };
}
