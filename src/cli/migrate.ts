import { withInstance, UsageError, type Command } from './command';

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'sync database tables with the content types',
  usage: `Usage: folio migrate [--dry-run]

Creates missing tables, columns and indexes. Never drops or rewrites anything: a removed
attribute keeps its column and data. --dry-run prints the plan without changing anything.`,
  options: { 'dry-run': { type: 'boolean' } },
  async run({ values, positionals }) {
    if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
    const dryRun = !!values['dry-run'];
    await withInstance(
      values,
      async (instance) => {
        for (const warning of instance.registry.warnings) console.error(`[folio] warning: ${warning}`);
        const changes = instance.syncPlan.filter((s) => s.sql);
        for (const name of instance.migrationsApplied) console.log(`${dryRun ? 'would apply' : 'applied'} system migration ${name}`);
        for (const step of instance.syncPlan) {
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
