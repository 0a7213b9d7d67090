/**
 * Refreshes the query planner's table statistics. Bulk loads call it as tables grow: without
 * statistics, looking up a document's versions picked the (locale, publishedAt) index and
 * scanned every published row, so a large import slowed down quadratically.
 */
import type { Database } from './database';

export function refreshStatistics(db: Database): Promise<void> {
  // SQLite samples (analysis_limit) so each refresh stays cheap on a large table.
  return db.exec(db.dialect.name === 'sqlite' ? 'PRAGMA analysis_limit = 1000; ANALYZE' : 'ANALYZE');
}
