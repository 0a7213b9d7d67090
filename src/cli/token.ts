import { resolveActions } from '../auth/actions';
import type { TokenType } from '../auth/tokens';
import { CLI_ACTOR, subcommand, withInstance, UsageError, type Command } from './command';

export const tokenCommand: Command = {
  name: 'token',
  summary: 'create, list and revoke API tokens',
  usage: `Usage:
  folio token create --name NAME --type read-only|full-access|custom [--actions A,B] [--lifespan-days N] [--description TEXT]
  folio token list
  folio token regenerate NAME
  folio token revoke NAME

custom tokens may call exactly the actions listed with --actions: TYPE.ACTION (articles.find,
article.findOne, api::article.article.create; * expands: articles.*) or a plugin action
(plugin::upload.content-api.find).

create prints the access key alone on the last line; it is shown only once (only a
keyed hash is stored). Send it as "Authorization: Bearer <key>".`,
  options: {
    name: { type: 'string' },
    type: { type: 'string' },
    'lifespan-days': { type: 'string' },
    actions: { type: 'string' },
    description: { type: 'string' },
  },
  async run({ values, positionals }) {
    const [action, args] = subcommand(positionals, ['create', 'list', 'regenerate', 'revoke']);
    if (action === 'create') {
      if (args.length) throw new UsageError(`Unexpected argument "${args[0]}"`);
      if (!values.name) throw new UsageError('Missing --name');
      if (!['read-only', 'full-access', 'custom'].includes(values.type as string)) throw new UsageError('--type must be read-only, full-access or custom');
      if ((values.type === 'custom') !== (values.actions !== undefined)) throw new UsageError('--actions goes with --type custom, and only with it');
      const days = values['lifespan-days'] === undefined ? undefined : Number(values['lifespan-days']);
      if (days !== undefined && !(days > 0)) throw new UsageError('--lifespan-days must be a positive number');
      await withInstance(values, async ({ tokens, registry }) => {
        const actions =
          values.actions === undefined
            ? []
            : resolveActions(
                registry,
                (values.actions as string)
                  .split(',')
                  .map((a) => a.trim())
                  .filter(Boolean),
              );
        const token = await tokens.create(values.name as string, values.type as TokenType, days, values.description as string | undefined, actions, CLI_ACTOR);
        console.log(`created ${token.type} token "${token.name}"${token.expiresAt ? `, expires ${token.expiresAt}` : ', never expires'}`);
        console.log('the access key below is shown once:');
        console.log(token.accessKey);
      });
      return;
    }
    await withInstance(values, async ({ tokens }) => {
      if (action === 'list') {
        if (args.length) throw new UsageError(`Unexpected argument "${args[0]}"`);
        const list = await tokens.list();
        for (const t of list) {
          const actions = t.actions ? `\t${t.actions.join(',')}` : '';
          console.log(`${t.name}\t${t.type}\texpires ${t.expiresAt ?? 'never'}\tlast used ${t.lastUsedAt ?? 'never'}${actions}`);
        }
        if (list.length === 0) console.log('no tokens');
      } else if (action === 'regenerate') {
        if (args.length !== 1) throw new UsageError('Expected the token name');
        const key = await tokens.regenerate(args[0]!, CLI_ACTOR);
        if (!key) throw new Error(`No token named "${args[0]}"`);
        console.log(`new access key for "${args[0]}" (the old one no longer works), shown once:`);
        console.log(key);
      } else {
        if (args.length !== 1) throw new UsageError('Expected the token name');
        if (!(await tokens.revoke(args[0]!, CLI_ACTOR))) throw new Error(`No token named "${args[0]}"`);
        console.log(`revoked token "${args[0]}"`);
      }
    });
  },
};
