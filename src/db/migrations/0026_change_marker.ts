/**
 * PostgreSQL's change marker (db/postgres.ts): a sequence that every commit, by any instance or
 * the CLI, advances right after it (in the same message as its COMMIT, so the write is not
 * acknowledged before it moved), then notifies on the `folio_changes` channel. Caches of data
 * (answers, totals) key on its value, read with the settings version in one statement per
 * turn of the event loop, as SQLite's caches key on `PRAGMA data_version`; the notification
 * wakes the realtime feed of every instance. Advanced once here, so its first use moves it.
 * SQLite needs none: data_version moves on every commit of any connection.
 */
import type { Dialect } from '../dialect';
import { SYSTEM } from '../layout';

export default (d: Dialect): string => (d.name === 'sqlite' ? '' : `CREATE SEQUENCE IF NOT EXISTS ${SYSTEM.changes};\nSELECT nextval('${SYSTEM.changes}');\n`);
