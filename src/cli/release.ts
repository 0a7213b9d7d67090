/**
 * `folio release create|add|remove|publish|list|show|delete`: releases (src/releases/) from
 * the command line. A scheduled release is published by a running server (`folio serve`) at
 * its time; `publish` applies one now, all or nothing.
 */
import { ReleaseFailedError, type ReleaseView } from '../releases/service';
import { CLI_ACTOR, subcommand, withInstance, UsageError, type Command } from './command';
import { contentTypeArg } from './content-type';

const usage = `Usage:
  folio release create NAME [--at ISO-8601] [--timezone TZ]
  folio release add NAME --type TYPE --document ID [--locale L] --action publish|unpublish
  folio release remove NAME --type TYPE --document ID [--locale L]
  folio release publish NAME
  folio release list
  folio release show NAME [--json]
  folio release delete NAME

A release is a named set of actions (publish or unpublish one document in one locale),
published together in one transaction: every action or none. TYPE is the content type's
plural API id (articles), singular API id or uid (api::article.article); it must have draft
& publish. Without --locale, the default locale (every locale for remove).

--at schedules the release: a running server ("folio serve") publishes it within a second
or two of that time, exactly once even with several instances on one PostgreSQL database;
one that was down then publishes it when it starts. A time without an offset
(2025-06-01T09:00) is read in --timezone (an IANA zone such as Europe/Paris; UTC by default).

publish exits 1 if an entry cannot be published (a required value missing from its draft),
naming the entry and the field: the release is then marked failed and nothing changes.
show --json prints { name, status: pending|done|failed, scheduledAt, entries: [{ type,
documentId, locale, action }], error? }.`;

function printRelease(view: ReleaseView): void {
  console.log(
    `${view.name}\t${view.status}\t${view.scheduledAt ? `scheduled ${view.scheduledAt}${view.timezone && view.timezone !== 'UTC' ? ` (${view.timezone})` : ''}` : 'not scheduled'}${view.releasedAt ? `\treleased ${view.releasedAt}` : ''}`,
  );
  for (const e of view.entries) console.log(`  ${e.action}\t${e.type}\t${e.documentId}\t${e.locale || '-'}`);
  if (view.entries.length === 0) console.log('  (no entries)');
  if (view.error) console.log(`  error: ${view.error.message}`);
}

const ENTRY_FLAGS = ['type', 'document', 'locale', 'action'] as const;
const SCHEDULE_FLAGS = ['at', 'timezone'] as const;

export const releaseCommand: Command = {
  name: 'release',
  summary: 'create, fill, schedule and publish releases (documents published together)',
  usage,
  options: {
    at: { type: 'string' },
    timezone: { type: 'string' },
    type: { type: 'string' },
    document: { type: 'string' },
    locale: { type: 'string' },
    action: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals }) {
    const [action, args] = subcommand(positionals, ['create', 'add', 'remove', 'publish', 'list', 'show', 'delete']);
    const allowed: Record<string, readonly string[]> = { create: SCHEDULE_FLAGS, add: ENTRY_FLAGS, remove: ['type', 'document', 'locale'], show: ['json'] };
    for (const flag of ['at', 'timezone', 'type', 'document', 'locale', 'action', 'json']) {
      if (values[flag] !== undefined && !(allowed[action] ?? []).includes(flag)) throw new UsageError(`--${flag} does not go with "${action}"`);
    }
    if (action === 'list') {
      if (args.length) throw new UsageError(`Unexpected argument "${args[0]}"`);
    } else {
      if (args.length === 0) throw new UsageError('Expected the release NAME');
      if (args.length > 1) throw new UsageError(`Unexpected argument "${args[1]}"`);
    }
    if (action === 'add' || action === 'remove') {
      if (!values.type) throw new UsageError('Missing --type');
      if (!values.document) throw new UsageError('Missing --document');
      if (action === 'add' && values.action !== 'publish' && values.action !== 'unpublish') throw new UsageError('--action must be publish or unpublish');
    }
    const name = args[0]!;
    return withInstance(values, async ({ releases, registry }) => {
      switch (action) {
        case 'create': {
          const view = await releases.create({ name, at: values.at as string | undefined, timezone: values.timezone as string | undefined }, CLI_ACTOR);
          console.log(`created release "${view.name}"${view.scheduledAt ? `, scheduled ${view.scheduledAt}` : ''}`);
          return 0;
        }
        case 'add':
        case 'remove': {
          const entry = {
            type: contentTypeArg(registry, values.type as string),
            documentId: values.document as string,
            locale: values.locale as string | undefined,
          };
          if (action === 'add') {
            await releases.add(name, { ...entry, action: values.action as string }, CLI_ACTOR);
            console.log(`release "${name}": ${values.action} ${entry.type.uid} "${entry.documentId}"${entry.locale ? ` (${entry.locale})` : ''}`);
          } else {
            await releases.remove(name, entry, CLI_ACTOR);
            console.log(`release "${name}": removed ${entry.type.uid} "${entry.documentId}"${entry.locale ? ` (${entry.locale})` : ''}`);
          }
          return 0;
        }
        case 'publish':
          try {
            const view = await releases.publish(name, CLI_ACTOR);
            console.log(`published release "${view.name}": ${view.entries.length} action(s) applied`);
            return 0;
          } catch (error) {
            if (!(error instanceof ReleaseFailedError)) throw error;
            console.error(
              `Error: release "${error.release}" failed: ${error.failure.message}${error.failure.field ? ` (field ${error.failure.field})` : ''}. Nothing was changed.`,
            );
            return 1;
          }
        case 'list': {
          const list = await releases.list();
          for (const r of list) console.log(`${r.name}\t${r.status}\t${r.scheduledAt ?? '-'}\t${r.entries} entr${r.entries === 1 ? 'y' : 'ies'}`);
          if (list.length === 0) console.log('no releases');
          return 0;
        }
        case 'show': {
          const view = await releases.show(name);
          if (values.json) {
            const { name: n, status, scheduledAt, entries, error } = view;
            console.log(JSON.stringify({ name: n, status, scheduledAt, entries, ...(error ? { error } : {}) }, null, 2));
          } else printRelease(view);
          return 0;
        }
        case 'delete':
          await releases.delete(name, CLI_ACTOR);
          console.log(`deleted release "${name}"`);
          return 0;
      }
    });
  },
};
