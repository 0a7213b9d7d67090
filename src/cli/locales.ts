import { CLI_ACTOR, subcommand, withInstance, UsageError, type Command } from './command';

export const localesCommand: Command = {
  name: 'locales',
  summary: 'list, add locales and choose the default',
  usage: `Usage:
  folio locales list
  folio locales add CODE [--name NAME]
  folio locales default CODE`,
  options: { name: { type: 'string' } },
  async run({ values, positionals }) {
    const [action, args] = subcommand(positionals, ['list', 'add', 'default']);
    const expect = (n: number) => {
      if (args.length !== n) throw new UsageError(n ? `Expected a locale code` : `Unexpected argument "${args[0]}"`);
    };
    await withInstance(values, async ({ locales }) => {
      if (action === 'list') {
        expect(0);
        for (const l of await locales.list()) console.log(`${l.code}\t${l.name}${l.isDefault ? '\t(default)' : ''}`);
      } else if (action === 'add') {
        expect(1);
        const added = await locales.add(args[0]!, values.name as string | undefined, CLI_ACTOR);
        console.log(`added locale ${added.code} (${added.name})`);
      } else {
        expect(1);
        await locales.setDefault(args[0]!, CLI_ACTOR);
        console.log(`default locale is now ${args[0]}`);
      }
    });
  },
};
