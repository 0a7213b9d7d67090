/**
 * `folio history list TYPE DOCUMENT_ID [--locale L] [--json]` and
 * `folio history restore VERSION_ID`: content history (src/history/) from the command line.
 * The CLI, like the admin, shows a version's content whole, private attributes included.
 */
import type { HistoryVersion } from '../history/service';
import { CLI_ACTOR, subcommand, withInstance, UsageError, type Command } from './command';
import { contentTypeArg } from './content-type';

const usage = `Usage:
  folio history list TYPE DOCUMENT_ID [--locale CODE] [--json]
  folio history restore VERSION_ID

TYPE is the content type's plural API id (articles), singular API id or uid (api::article.article).

list prints one line per version kept, newest first: id, time, locale, status (draft,
published, or modified since publishing), actor, and the attributes that changed. Without
--locale, every locale's. --json prints [{ id, createdAt, status, locale, actor: { kind, name },
changed, data }], data being the document's whole content after that write.

restore makes that version's content the document's current draft (the document itself on a
type without draft & publish), as a new write: it is itself in the history and the audit log.
Relations to documents (and files) that no longer exist are left out, and said.

Versions are kept FOLIO_HISTORY_DAYS days (90; 0 keeps none).`;

/** `admin ann@example.com`, `token deploy`, `cli`. */
export const actorText = (actor: { kind: string; name: string | null }) => (actor.name ? `${actor.kind} ${actor.name}` : actor.kind);

function line(v: HistoryVersion): string {
  return [v.id, v.createdAt, v.locale || '-', v.status, actorText(v.actor), v.changed.length ? v.changed.join(',') : '-'].join('\t');
}

export const historyCommand: Command = {
  name: 'history',
  summary: "list a document's versions; restore one",
  usage,
  options: {
    locale: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals }) {
    const [action, args] = subcommand(positionals, ['list', 'restore']);
    if (action === 'list') {
      if (args.length < 2) throw new UsageError('Expected TYPE and DOCUMENT_ID');
      if (args.length > 2) throw new UsageError(`Unexpected argument "${args[2]}"`);
      return withInstance(values, async ({ registry, history }) => {
        const ct = contentTypeArg(registry, args[0]!);
        const versions = await history.all(ct, args[1]!, values.locale as string | undefined);
        if (values.json) {
          console.log(
            JSON.stringify(
              versions.map(({ id, createdAt, status, locale, actor, changed, data }) => ({ id, createdAt, status, locale, actor, changed, data })),
              null,
              2,
            ),
          );
        } else if (versions.length === 0) {
          console.log(`no versions of ${ct.uid} "${args[1]}"${values.locale ? ` in ${values.locale}` : ''}`);
        } else {
          for (const v of versions) console.log(line(v));
        }
        return 0;
      });
    }
    if (values.locale !== undefined || values.json) throw new UsageError('--locale and --json go with "list" only');
    if (args.length !== 1) throw new UsageError('Expected the VERSION_ID (from "folio history list")');
    const id = Number(args[0]);
    if (!/^\d{1,15}$/.test(args[0]!) || !Number.isSafeInteger(id)) throw new UsageError(`VERSION_ID must be a number, got "${args[0]}"`);
    return withInstance(values, async ({ history }) => {
      const { version, written, leftOut } = await history.restore(id, CLI_ACTOR);
      const where = written.locale ? ` (${written.locale})` : '';
      console.log(
        `restored version ${version.id} of ${version.type} "${version.documentId}"${where} from ${version.createdAt} as its ${written.status === 'draft' ? 'draft' : 'content'}`,
      );
      for (const left of leftOut) console.log(`left out ${left.path}: ${left.reason}`);
      return 0;
    });
  },
};
