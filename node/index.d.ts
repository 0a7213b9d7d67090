/**
 * folio-cms's types as the Node entry (node/index.cjs) answers them. Under Bun the package's
 * "bun" condition loads src/index.ts instead, which adds `instance` and takes the Bun
 * document service's own ContentType and ReadQuery objects.
 */

export type TokenType = 'read-only' | 'full-access' | 'custom';
export type TokenSpec = TokenType | { type: TokenType; actions?: string[]; lifespanDays?: number; description?: string };

export type SeedItem = Record<string, unknown> & {
  $key?: string;
  $status?: 'draft' | 'published';
  $locale?: string;
  $document?: string;
};
export type Seed = Record<string, SeedItem[] | SeedItem>;

/** A schema file's content, keyed by its path in Folio's layout (`article.json`, `components/shared/seo.json`). */
export type SchemaMap = Record<string, Record<string, unknown>>;

export interface FolioOptions {
  contentTypes: string | SchemaMap;
  data?: string;
  database?: string;
  port?: number;
  host?: string;
  seed?: Seed;
  permissions?: Record<string, string[]>;
  tokens?: Record<string, TokenSpec> | TokenType[];
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  config?: Record<string, unknown>;
  /** Node only: the Folio binary to run, or false for Bun (the package's dependency) even when dist/folio is there. */
  binary?: string | false;
}

export interface ContentTypeInfo {
  uid: string;
  kind: 'collectionType' | 'singleType';
  singularName: string;
  pluralName: string;
  draftAndPublish: boolean;
  localized: boolean;
}

export interface WriteOptions {
  status?: 'draft' | 'published';
  locale?: string;
}

export interface Written {
  documentId: string;
  locale: string;
  status: 'draft' | 'published';
  /** The entry as the REST API answered the write. */
  entry: Record<string, any>;
}

/** REST parameters (`filters`, `populate`, `sort`, `fields`, `pagination`, `status`, `locale`), as `qs` would parse them. */
export type ReadQuery = Record<string, unknown>;

export interface Documents {
  findMany(ct: ContentTypeInfo, query?: ReadQuery): Promise<{ data: Record<string, any>[]; pagination?: { page: number; pageSize: number; pageCount: number; total: number } }>;
  findOne(ct: ContentTypeInfo, documentId: string | undefined, query?: ReadQuery): Promise<Record<string, any> | null>;
  create(ct: ContentTypeInfo, data: Record<string, unknown>, options?: WriteOptions): Promise<Written>;
  update(ct: ContentTypeInfo, documentId: string, data: Record<string, unknown>, options?: WriteOptions): Promise<Written | null>;
  upsertSingle(ct: ContentTypeInfo, data: Record<string, unknown>, options?: WriteOptions): Promise<Written>;
  /** 1 when something was deleted, 0 when there was nothing. */
  delete(ct: ContentTypeInfo, documentId: string, options?: { locale?: string }): Promise<number>;
  publish(ct: ContentTypeInfo, documentId: string | undefined, options?: { locale?: string }): Promise<Written | null>;
  unpublish(ct: ContentTypeInfo, documentId: string | undefined, options?: { locale?: string }): Promise<Written | null>;
  discardDraft(ct: ContentTypeInfo, documentId: string | undefined, options?: { locale?: string }): Promise<Written | null>;
}

export interface Folio {
  url: string;
  token(name: string): string;
  seeded: Record<string, string>;
  documents: Documents;
  contentType(id: string): ContentTypeInfo;
  readQuery(id: string | ContentTypeInfo, params?: ReadQuery): Promise<ReadQuery>;
  stop(): Promise<void>;
}

export declare function startFolio(options: FolioOptions): Promise<Folio>;
