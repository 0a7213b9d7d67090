/**
 * Who does something: every write carries one (the write pipeline, documents/write/context.ts),
 * and so does every row of content history and the audit log. A leaf: everyone may import it.
 */
export type ActorKind = 'admin' | 'user' | 'token' | 'public' | 'cli' | 'system' | 'project';

export interface Actor {
  kind: ActorKind;
  /** The admin's, user's or API token's id. */
  id?: number | string;
  /** The admin's email, the user's username, the API token's name. */
  name?: string;
  /** The client's address, for a write that came over HTTP (the audit log shows it). */
  ip?: string;
}

/** Folio itself (a migration, a release's scheduler when it has no other actor). */
export const SYSTEM_ACTOR: Actor = Object.freeze({ kind: 'system' });
