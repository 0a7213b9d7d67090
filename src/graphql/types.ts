/**
 * What the GraphQL room needs from the rest of Folio (the services the composition root
 * hands it) and what a request brings: the caller, as the HTTP guard identified it.
 */
import type { FieldNode } from 'graphql';
import type { Principal } from '../auth/access';
import type { AccountFlows } from '../auth/account-flows';
import type { Roles } from '../auth/roles';
import type { Users } from '../auth/users';
import type { UploadService } from '../upload/service';
import type { Locales } from '../documents/locales';
import type { DocumentService } from '../documents/service';
import type { Logger } from '../log';
import type { Registry } from '../registry/types';
import type { ReadQuery } from '../query/types';
import type { RateLimiter } from '../db/store/rate-limits';

export interface GraphqlDeps {
  registry: Registry;
  documents: DocumentService;
  locales: Locales;
  users: Users;
  /** The upload plugin's files (`updateUploadFile`, `deleteUploadFile`); made on first use, as the instance makes it. */
  uploads: () => UploadService;
  /** Roles' permissions and users (`UsersPermissionsRole.permissions` / `.users`). */
  roles: Roles;
  /** The account flows /api/auth/* runs (auth/account-flows.ts): the users-permissions mutations call the same. */
  accounts: AccountFlows;
  log?: Logger;
  /** The /api/auth/* budget: the users-permissions mutations count against it too. */
  authLimiter?: RateLimiter;
  /** The read plans kept for REST (query/caches.ts): root fields' plans are kept there too, by grants, type and key. */
  plans?: (grants: string, uid: string, key: string, build: () => Promise<ReadQuery>) => Promise<ReadQuery>;
}

/** The caller of one request: who it is and what it may do (from the grants the guard read once). */
export interface GraphqlCaller {
  principal: Principal;
  /** Whether the caller holds an action (Strapi's name: `api::article.article.find`). */
  can(action: string): boolean;
  /** Whether the caller may read a type through a relation (its `find`, or the upload plugin's for files). */
  readable(uid: string): boolean;
  /** The client's address, whose budget the users-permissions mutations count against. */
  client?: string;
  /** What the caller's grants come from (auth/access.ts grantsKey): plans and kept answers are shared by callers with the same. */
  grants?: string;
}

/** The plugin's settings (Strapi's `graphql.config`), resolved (./settings.ts). */
export interface GraphqlSettings {
  endpoint: string;
  shadowCRUD: boolean;
  /** Nesting allowed below the operation (counted from 0); undefined: no limit. */
  depthLimit?: number;
  defaultLimit: number;
  /** -1: no maximum. */
  maxLimit: number;
  landingPage: boolean;
  introspection: boolean;
}

export interface GraphqlContext {
  caller: GraphqlCaller;
  /** Each nested field's key in its parent rows (./selection.ts fieldKey), worked out once per request. */
  keys: Map<FieldNode, string>;
  /** Anything an extension's resolvers want to keep for the request. */
  state: Record<string, unknown>;
  /** Reads waiting to be made together (./batch.ts). */
  batches?: Map<string, unknown>;
  /** The operation's text and name, hashed: what kept plans of its root fields are filed under. */
  operationKey?: string;
}
