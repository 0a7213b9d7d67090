import { subcommand, withInstance, UsageError, type Command } from './command';

export const tokenCommand: Command = {
  name: 'token',
  summary: 'create, list and revoke API tokens',
  usage: `Usage:
  folio token create --name NAME --type read-only|full-access [--lifespan-days N] [--description TEXT]
  folio token list
  folio token revoke NAME

create prints the access key alone on the last line; it is shown only once (only a
keyed hash is stored). Send it as "Authorization: Bearer <key>".`,
  options: {
    name: { type: 'string' },
    type: { type: 'string' },
    'lifespan-days': { type: 'string' },
    description: { type: 'string' },
  },
  async run({ values, positionals }) {
    const [action, args] = subcommand(positionals, ['create', 'list', 'revoke']);
    if (action === 'create') {
      if (args.length) throw new UsageError(`Unexpected argument "${args[0]}"`);
      if (!values.name) throw new UsageError('Missing --name');
      if (values.type !== 'read-only' && values.type !== 'full-access') throw new UsageError('--type must be read-only or full-access');
      const days = values['lifespan-days'] === undefined ? undefined : Number(values['lifespan-days']);
      if (days !== undefined && !(days > 0)) throw new UsageError('--lifespan-days must be a positive number');
      await withInstance(values, async ({ tokens }) => {
        const token = await tokens.create(values.name as string, values.type as 'read-only' | 'full-access', days, values.description as string | undefined);
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
        for (const t of list) console.log(`${t.name}\t${t.type}\texpires ${t.expiresAt ?? 'never'}\tlast used ${t.lastUsedAt ?? 'never'}`);
        if (list.length === 0) console.log('no tokens');
      } else {
        if (args.length !== 1) throw new UsageError('Expected the token name');
        if (!(await tokens.revoke(args[0]!))) throw new Error(`No token named "${args[0]}"`);
        console.log(`revoked token "${args[0]}"`);
      }
    });
  },
};
