/**
 * The S3 provider (`FOLIO_UPLOADS=s3://bucket/prefix`), through Bun's built-in S3 client:
 * every instance pointed at the same bucket sees the same files, no shared disk needed.
 * Works with AWS S3 and S3-compatible stores (MinIO, R2, …) via an endpoint (path-style).
 * Objects are written with the Content-Type (and, for anything but media, the
 * `attachment` disposition) that `/uploads/<name>` would send, so a public bucket URL
 * (FOLIO_UPLOADS_PUBLIC_URL) serves them as safely as Folio does.
 */
import type { Logger } from '../log';
import { S3Client } from 'bun';
import { ServiceUnavailableError } from '../errors';
import { attachmentDisposition, showsInline } from './serve-headers';
import type { S3Location } from './storage-s3-location';
import { isStorableName, type Storage, type StoredObject } from './storage';

/** S3 errors that mean "no such object" (HEAD answers carry no body, so a missing bucket looks the same). */
const isMissing = (error: unknown) => ['NoSuchKey', 'NotFound', 'NoSuchBucket'].includes((error as { code?: string })?.code ?? '');

const reason = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e?.code ? `${e.code}: ${e.message}` : String(error);
};

export class S3Storage implements Storage {
  readonly provider = 'aws-s3' as const;
  readonly location: string;
  private client: S3Client;

  /** `log`: where a failure the caller only sees as "retry later" is reported with its cause. */
  constructor(
    private where: S3Location,
    private log?: Pick<Logger, 'warn'>,
  ) {
    this.location = `s3://${where.bucket}${where.prefix ? `/${where.prefix}` : ''}`;
    this.client = new S3Client({
      bucket: where.bucket,
      endpoint: where.endpoint,
      region: where.region,
      accessKeyId: where.accessKeyId,
      secretAccessKey: where.secretAccessKey,
      sessionToken: where.sessionToken,
    });
  }

  /** The object key of a stored name, or undefined for anything that is not a plain name. */
  keyOf(name: string): string | undefined {
    if (!isStorableName(name)) return undefined;
    return this.where.prefix ? `${this.where.prefix}/${name}` : name;
  }

  async write(name: string, bytes: Uint8Array, type: string): Promise<void> {
    const key = this.keyOf(name);
    if (!key) throw new Error(`Refusing to store a file named ${JSON.stringify(name)}`);
    try {
      await this.client.write(key, bytes, { type, contentDisposition: showsInline(type) ? undefined : attachmentDisposition(name) });
    } catch (error) {
      // The bucket's answer names the cause; the caller only needs to know to retry later.
      this.log?.warn(`could not write ${key} to ${this.location}: ${reason(error)}`);
      throw new ServiceUnavailableError('The upload storage is not available, please retry');
    }
  }

  async remove(names: Iterable<string>): Promise<void> {
    for (const name of names) {
      const key = this.keyOf(name);
      if (!key) continue;
      // Deleting a missing key succeeds in S3, so only a real failure is reported.
      await this.client.delete(key).catch((error) => this.log?.warn(`could not remove ${key} from ${this.location}: ${reason(error)}`));
    }
  }

  async open(name: string): Promise<StoredObject | undefined> {
    const key = this.keyOf(name);
    if (!key) return undefined;
    const file = this.client.file(key);
    try {
      const stat = await file.stat();
      // Streamed through Folio rather than redirected: `/uploads/<name>` answers the same on every provider.
      return { size: stat.size, modifiedMs: stat.lastModified.getTime(), body: () => file.stream() };
    } catch (error) {
      if (isMissing(error)) return undefined;
      this.log?.warn(`could not read ${key} from ${this.location}: ${reason(error)}`);
      throw new ServiceUnavailableError('The upload storage is not available, please retry');
    }
  }

  /** The names directly under the prefix (keys in deeper "folders" are not Folio's), page by page. */
  async list(): Promise<string[]> {
    const start = this.where.prefix ? `${this.where.prefix}/` : '';
    const names: string[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.client.list({ prefix: start || undefined, continuationToken });
      for (const object of page.contents ?? []) {
        const name = object.key.slice(start.length);
        if (isStorableName(name)) names.push(name);
      }
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (continuationToken);
    return names.sort();
  }
}
