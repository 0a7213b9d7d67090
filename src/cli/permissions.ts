import { resolveActions } from '../auth/actions';
import { CLI_ACTOR, subcommand, withInstance, UsageError, type Command } from './command';

export const permissionsCommand: Command = {
  name: 'permissions',
  summary: 'grant, revoke and list role permissions',
  usage: `Usage:
  folio permissions grant ROLE ACTION...
  folio permissions revoke ROLE ACTION...
  folio permissions list [ROLE]

Roles: public (anonymous callers), authenticated (logged-in users).
An action of a content type is TYPE.ACTION, TYPE being its plural API id, singular API id
or uid: articles.find, article.findOne, api::article.article.create (.update, .delete, and
.publish, .unpublish, .discardDraft with draft & publish). Plugin actions keep Strapi's
names: plugin::i18n.locales.listLocales, plugin::upload.content-api.find… A trailing *
expands: articles.* grants every action of the article type.`,
  options: {},
  async run({ values, positionals }) {
    const [action, args] = subcommand(positionals, ['grant', 'revoke', 'list']);
    await withInstance(values, async ({ roles, registry }) => {
      if (action === 'list') {
        if (args.length > 1) throw new UsageError(`Unexpected argument "${args[1]}"`);
        const rows = await roles.permissions(args[0]);
        if (args[0] && !(await roles.find(args[0]))) throw new Error(`Unknown role "${args[0]}"`);
        for (const r of rows) console.log(`${r.role}\t${r.action}`);
        if (rows.length === 0) console.log(args[0] ? `role ${args[0]} has no permissions` : 'no permissions granted');
        return;
      }
      const [role, ...names] = args;
      if (!role || names.length === 0) throw new UsageError('Expected a role and at least one action');
      const actions = resolveActions(registry, names);
      if (action === 'grant') {
        const added = await roles.grant(role, actions, CLI_ACTOR);
        for (const a of actions) console.log(`${added.includes(a) ? 'granted' : 'already granted'} ${role} ${a}`);
      } else {
        const removed = await roles.revoke(role, actions, CLI_ACTOR);
        for (const a of actions) console.log(`${removed.includes(a) ? 'revoked' : 'was not granted'} ${role} ${a}`);
      }
    });
  },
};
