import { AdminAccounts, ADMIN_ROLES } from '../admin/accounts';
import { CLI_ACTOR, subcommand, UsageError, withInstance, type Command } from './command';

export const adminCommand: Command = {
  name: 'admin',
  summary: 'create and list admin users, reset a password (Folio Admin at /admin)',
  usage: `Usage:
  folio admin create --email E --password P [--role super-admin|editor]
  folio admin list
  folio admin reset-password --email E --password P

reset-password sets a new password for the admin with that e-mail and ends their sessions
(a lost password when the server sends no mail; with FOLIO_SMTP_URL set, the login page
also offers "Forgot password?").

Admin users log in to /admin. They are not API users: an admin session opens nothing
on /api, and API tokens and user JWTs open nothing under /admin. A Super Admin may do
everything; an Editor manages content and media only.`,
  options: { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' } },
  async run({ values, positionals }) {
    const [action, args] = subcommand(positionals, ['create', 'list', 'reset-password']);
    if (args.length) throw new UsageError(`Unexpected argument "${args[0]}"`);
    if (action !== 'list' && !values.email) throw new UsageError('Missing --email');
    if (action !== 'list' && !values.password) throw new UsageError('Missing --password');
    await withInstance(values, async ({ db, audit }) => {
      const accounts = new AdminAccounts(db);
      accounts.audit = audit;
      if (action === 'reset-password') {
        const user = await accounts.setPassword(values.email, values.password);
        console.log(`new password set for admin ${user.email}; their sessions ended`);
        return;
      }
      if (action === 'create') {
        const user = await accounts.create({ email: values.email, password: values.password, role: values.role ?? 'super-admin' }, {}, CLI_ACTOR);
        console.log(`created admin ${user.email} (${ADMIN_ROLES[user.role]})`);
        return;
      }
      const list = await accounts.list();
      for (const u of list) console.log(`${u.id}\t${u.email}\t${ADMIN_ROLES[u.role] ?? u.role}`);
      if (list.length === 0) console.log('no admin users');
    });
  },
};
