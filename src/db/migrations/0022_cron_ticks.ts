/**
 * Cron ticks (src/project/cron.ts): one row per task and tick that ran. Instances sharing
 * PostgreSQL each schedule a project's cron tasks; at a tick each tries to insert the row
 * (ON CONFLICT DO NOTHING) and only the one that inserted it runs the task, so each tick runs
 * once across them. Rows older than a day are pruned; the index finds them.
 */
import type { Dialect } from '../dialect';

export default (d: Dialect): string => `CREATE TABLE folio_cron_ticks (
  "task" ${d.textType} NOT NULL,
  -- The tick's scheduled time, milliseconds since the epoch (the same on every instance).
  "tick" BIGINT NOT NULL,
  -- Which instance ran it (process id and host), for the curious.
  "runner" ${d.textType} NOT NULL,
  PRIMARY KEY ("task", "tick")
);
CREATE INDEX folio_cron_ticks_tick ON folio_cron_ticks ("tick");
`;
