import { configFrom, withInstance, UsageError, type Command } from './command';
import { migrateSystem } from '../db/migrate';
import { parseRename, RenameError, renameAttributes, type Rename } from '../db/schema-rename';
import { openDatabase, registryOf, SCHEMA_LOCK, sqlitePath } from '../instance';
import { existsSync } from 'node:fs';

/** Moves the data of renamed attributes before the sync, which would otherwise add an empty column for the new name. */
async function runRenames(values: Record<string, unknown>, renames: Rename[], dryRun: boolean): Promise<void> {
  const config = configFrom(values);
  const registry = registryOf(config);
  // A dry run writes nothing, a data folder included: with no installation there is nothing to move.
  if (dryRun && !/^postgres(ql)?:\/\//.test(config.databaseUrl ?? '') && !existsSync(sqlitePath(config))) {
    console.log(`no installation at ${sqlitePath(config)} yet: nothing to rename`);
    return;
  }
  const db = openDatabase(config);
  try {
    // The same lock a starting instance syncs under: nobody syncs half-renamed tables.
    const done = await db.exclusive(SCHEMA_LOCK, async () => {
      if (!dryRun) await migrateSystem(db);
      return renameAttributes(db, registry, renames, dryRun);
    });
    for (const line of done) console.log(`${dryRun ? 'would ' : ''}${line}`);
    if (dryRun) console.log('(the plan below is the sync without the renames)');
  } finally {
    db.close();
  }
}

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'sync database tables with the content types',
  usage: `Usage: folio migrate [--dry-run] [--rename MODEL.OLD=NEW]…

Creates missing tables, columns and indexes, converts attributes whose type changed cleanly
(integer to biginteger/decimal/float, string to text, enumeration to string, …), writes the
default of a new required attribute into the rows that lack it, and warns about what could
lose or hide data: a removed attribute whose storage still holds values, one that looks
renamed, a type change, a new required or unique attribute that existing rows do not
satisfy. Never drops a table or a column. Any other type change is refused, naming the file
and the attribute. A type whose draftAndPublish was turned off loses its drafts (a document
never published with them); one where it was turned on gets a draft of each published
version. --dry-run prints the plan and the warnings without changing anything.

--rename MODEL.OLD=NEW (repeatable) first moves the data of an attribute the schema files
now call NEW: its column, component rows, relation links or media links. MODEL is a content
type's plural API id, singular API id or uid (articles, article, api::article.article) or a
component uid (shared.seo).
All renames run in one transaction.`,
  options: { 'dry-run': { type: 'boolean' }, rename: { type: 'string', multiple: true } },
  async run({ values, positionals }) {
    if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
    const dryRun = !!values['dry-run'];
    let renames: Rename[];
    try {
      renames = ((values.rename as string[] | undefined) ?? []).map(parseRename);
    } catch (error) {
      throw error instanceof RenameError ? new UsageError(error.message) : error;
    }
    if (renames.length) await runRenames(values, renames, dryRun);
    await withInstance(
      values,
      async (instance) => {
        for (const warning of instance.registry.warnings) console.error(`[folio] warning: ${warning}`);
        const changes = instance.syncPlan.filter((s) => s.sql);
        for (const name of instance.migrationsApplied) console.log(`${dryRun ? 'would apply' : 'applied'} system migration ${name}`);
        for (const step of instance.syncPlan) {
          // Warnings are part of the plan (stdout), each on one line starting "warning:".
          if (step.warning) {
            console.log(step.description);
            continue;
          }
          console.log(`${step.sql ? (dryRun ? 'would ' : '') : ''}${step.description}`);
          if (dryRun && step.sql) console.log(`  ${step.sql.replace(/\n\s*/g, ' ')}`);
        }
        if (changes.length === 0) console.log('content tables are up to date');
        else console.log(dryRun ? `${changes.length} change(s) planned; nothing applied (dry run)` : `${changes.length} change(s) applied`);
      },
      { dryRun },
    );
  },
};
