import { accountAction, CLI_ACTOR, subcommand, withInstance, UsageError, type Command } from './command';

export const userCommand: Command = {
  name: 'user',
  summary: 'create and list end users (users & permissions)',
  usage: `Usage:
  folio user create --email E --password P [--username U] [--role authenticated]
  folio user list

Users log in with POST /api/auth/local and call the API with the JWT they get; their
role's grants apply (folio permissions grant ROLE ...).`,
  options: { email: { type: 'string' }, password: { type: 'string' }, username: { type: 'string' }, role: { type: 'string' } },
  async run({ values, positionals }) {
    const action = accountAction(values, positionals);
    await withInstance(values, async ({ users }) => {
      if (action === 'create') {
        const email = values.email as string;
        const user = await users.create(
          {
            email,
            password: values.password as string,
            username: (values.username as string | undefined) ?? email,
            role: (values.role as string | undefined) ?? 'authenticated',
          },
          CLI_ACTOR,
        );
        console.log(`created user ${user.username} <${user.email}> (id ${user.id}, role ${(values.role as string) ?? 'authenticated'})`);
        return;
      }
      const list = await users.list();
      for (const u of list) console.log(`${u.id}\t${u.username}\t${u.email}${u.blocked ? '\tblocked' : ''}`);
      if (list.length === 0) console.log('no users');
    });
  },
};

export const roleCommand: Command = {
  name: 'role',
  summary: 'create and list roles',
  usage: `Usage:
  folio role create NAME [--description TEXT]
  folio role list

A role's type is its name in kebab-case ("Content Editors" → content-editors); grant
actions to it with folio permissions grant <type> ACTION...`,
  options: { description: { type: 'string' } },
  async run({ values, positionals }) {
    const [action, args] = subcommand(positionals, ['create', 'list']);
    await withInstance(values, async ({ roles }) => {
      if (action === 'create') {
        if (args.length !== 1) throw new UsageError('Expected the role name (quote it if it has spaces)');
        const role = await roles.create(args[0]!, (values.description as string | undefined) ?? null, undefined, CLI_ACTOR);
        console.log(`created role ${role.type} (${role.name})`);
        return;
      }
      if (args.length) throw new UsageError(`Unexpected argument "${args[0]}"`);
      for (const r of await roles.list()) console.log(`${r.type}\t${r.name}`);
    });
  },
};
