/**
 * `folio webhook create|list|enable|disable|delete|test|deliveries`: webhooks are managed here
 * (and in the admin's settings). Secrets are stored as given and never printed; of the extra
 * headers only the names are listed, as their values are often credentials. An installation
 * made by `folio import ARCHIVE` or `folio restore` has its webhooks disabled until `enable`.
 */
import { EVENT_NAMES } from '../events/names';
import { CLI_ACTOR, subcommand, withInstance, UsageError, type Command } from './command';

const usage = `Usage:
  folio webhook create --name NAME --url URL --events entry.create,entry.update,… [--secret SECRET] [--header 'K: V']…
  folio webhook list
  folio webhook enable NAME
  folio webhook disable NAME
  folio webhook delete NAME
  folio webhook test NAME
  folio webhook deliveries NAME

Events: ${EVENT_NAMES.join(', ')}.
Each event is POSTed as JSON ({ event, createdAt, model, uid, entry }; media events carry
{ event, createdAt, media }) with X-Folio-Event: <event> and, with --secret,
X-Folio-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">. A failed
delivery is retried with exponential backoff (6 attempts, about an hour; env
FOLIO_WEBHOOK_RETRY_BASE_MS sets the first wait); a 3xx is a failed attempt too (redirects
are not followed). FOLIO_WEBHOOK_DENY_PRIVATE=true refuses URLs at loopback, private and
link-local addresses, and sends to no host name that resolves to one. "folio serve" delivers them.
list prints one line per webhook: name, URL, events, signed or unsigned, enabled or disabled.
A disabled webhook gets nothing queued and sends nothing; enabled again, what was queued
before goes out. An installation made by "folio import ARCHIVE" or "folio restore" starts
with every webhook disabled, so a copy never calls the source's receivers.
deliveries prints one line per attempt: time, event, HTTP status or error, attempt number;
then what is still queued and when the next try is due. A running server logs each failed
attempt (a warning naming the webhook, the event, the answer and the next try).`;

function oneName(args: string[]): string {
  if (args.length !== 1) throw new UsageError('Expected the webhook name');
  return args[0]!;
}

export const webhookCommand: Command = {
  name: 'webhook',
  summary: 'create, list, enable, disable, test and delete webhooks; show their deliveries',
  usage,
  options: {
    name: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'string' },
    secret: { type: 'string' },
    header: { type: 'string', multiple: true },
  },
  async run({ values, positionals }) {
    const [action, args] = subcommand(positionals, ['create', 'list', 'enable', 'disable', 'delete', 'test', 'deliveries']);
    if (action === 'create') {
      if (args.length) throw new UsageError(`Unexpected argument "${args[0]}"`);
      if (!values.name) throw new UsageError('Missing --name');
      if (!values.url) throw new UsageError('Missing --url');
      if (!values.events) throw new UsageError('Missing --events');
    } else if (['name', 'url', 'events', 'secret', 'header'].some((flag) => values[flag] !== undefined)) {
      throw new UsageError(`--name, --url, --events, --secret and --header go with "create" only`);
    }
    return withInstance(values, async ({ webhooks }) => {
      if (action === 'create') {
        const hook = await webhooks.create(
          {
            name: values.name as string,
            url: values.url as string,
            events: (values.events as string).split(','),
            secret: values.secret as string | undefined,
            headers: (values.header as string[] | undefined) ?? [],
          },
          CLI_ACTOR,
        );
        console.log(`created webhook "${hook.name}" → ${hook.url} (${hook.events.join(', ')})${hook.signed ? ', signed' : ''}`);
        return 0;
      }
      if (action === 'list') {
        if (args.length) throw new UsageError(`Unexpected argument "${args[0]}"`);
        const list = await webhooks.list();
        for (const w of list) {
          const headers = w.headerNames.length ? `\theaders ${w.headerNames.join(',')}` : '';
          console.log(`${w.name}\t${w.url}\t${w.events.join(',')}\t${w.signed ? 'signed' : 'unsigned'}\t${w.enabled ? 'enabled' : 'disabled'}${headers}`);
        }
        if (list.length === 0) console.log('no webhooks');
        return 0;
      }
      const name = oneName(args);
      if (action === 'enable' || action === 'disable') {
        const hook = await webhooks.setEnabled(name, action === 'enable', CLI_ACTOR);
        if (!hook) throw new Error(`No webhook named "${name}"`);
        const queue = (await webhooks.queue(name))!;
        const waiting = queue.pending
          ? ` (${queue.pending} queued deliver${queue.pending === 1 ? 'y' : 'ies'} ${action === 'enable' ? 'will be sent' : 'wait'})`
          : '';
        console.log(`${action}d webhook "${name}" → ${hook.url}${waiting}`);
        return 0;
      }
      if (action === 'delete') {
        if (!(await webhooks.delete(name, CLI_ACTOR))) throw new Error(`No webhook named "${name}"`);
        console.log(`deleted webhook "${name}"`);
        return 0;
      }
      if (action === 'test') {
        const result = await webhooks.test(name);
        if (!result) throw new Error(`No webhook named "${name}"`);
        console.log(result.status !== null ? `HTTP ${result.status} in ${result.durationMs} ms` : `error: ${result.error}`);
        return result.ok ? 0 : 1;
      }
      const attempts = await webhooks.deliveries(name);
      if (!attempts) throw new Error(`No webhook named "${name}"`);
      for (const a of attempts) console.log(`${a.at}\t${a.event}\t${a.status !== null ? `HTTP ${a.status}` : `error: ${a.error}`}\tattempt ${a.attempt}`);
      if (attempts.length === 0) console.log('no deliveries yet');
      const queue = (await webhooks.queue(name))!;
      const hook = (await webhooks.get(name))!;
      if (queue.pending === 0) console.log('nothing queued');
      else if (!hook.enabled) console.log(`queued: ${queue.pending}, held while the webhook is disabled (folio webhook enable ${name})`);
      else console.log(`queued: ${queue.pending}, next try at ${queue.nextDueAt} (sent by a running folio serve)`);
      return 0;
    });
  },
};
