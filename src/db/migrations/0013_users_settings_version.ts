/**
 * A user's role, blocked flag and token version decide what her requests may do, as grants
 * do: her writes now move the settings version too (db/migrations/0005), so whatever watches
 * it (the realtime feed's access checks, src/events/realtime.ts) sees a user blocked, moved
 * to another role, deleted, or logged out everywhere by a password change, whoever wrote it.
 */
import type { Dialect } from '../dialect';
import { settingsVersionTriggers } from './0005_settings_version';

export default (d: Dialect): string => settingsVersionTriggers(d, ['folio_users']);
