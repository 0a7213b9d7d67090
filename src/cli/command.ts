/**
 * What every CLI command shares: its shape, the common flags, and opening the installation.
 */
import type { ParseArgsConfig } from 'node:util';
import { resolveConfig, type ConfigInput } from '../config';
import type { Actor } from '../documents/write/context';
import { openInstance, type Instance, type OpenOptions } from '../instance';
import { readProject } from '../project/config';
import { undoInterrupted } from '../transfer/interrupt';

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(args: { values: Record<string, unknown>; positionals: string[] }): Promise<number | void>;
  /** Sub-commands with flags and help of their own, named `<command> <word>` (`import strapi`). */
  subcommands?: Command[];
}

/** Who a command's writes are by (history and the audit log record it). */
export const CLI_ACTOR: Actor = Object.freeze({ kind: 'cli' });

/** A mistake in how the command was called: the usage is printed and the exit code is 2. */
export class UsageError extends Error {}

/**
 * What is wrong with the flags, in one line naming the flag (node:util parseArgs says it at
 * length, with advice about `--` that fits no command here).
 */
export function flagProblem(error: unknown): string {
  const message = (error as Error).message ?? String(error);
  const flag = message.match(/'(-{1,2}[^' <]+)/)?.[1];
  if (!flag) return message.split('\n')[0]!;
  const code = (error as { code?: string }).code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown flag ${flag}`;
  if (/does not take an argument/.test(message)) return `Flag ${flag} takes no value`;
  if (/argument missing|ambiguous/.test(message)) return `Flag ${flag} needs a value`;
  return message.split('\n')[0]!;
}

export const COMMON_OPTIONS = {
  data: { type: 'string' },
  database: { type: 'string' },
  uploads: { type: 'string' },
  'content-types': { type: 'string' },
  project: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function configFrom(values: Record<string, unknown>, extra: ConfigInput = {}) {
  return resolveConfig(
    {
      data: values.data as string | undefined,
      contentTypes: values['content-types'] as string | undefined,
      database: values.database as string | undefined,
      uploads: values.uploads as string | undefined,
      project: values.project as string | undefined,
      ...extra,
    },
    { readProject },
  );
}

/** Opens the installation for a short command and always closes it. */
export async function withInstance<T>(values: Record<string, unknown>, fn: (instance: Instance) => Promise<T>, options?: OpenOptions): Promise<T> {
  const instance = await openInstance(configFrom(values), options);
  try {
    return await fn(instance);
  } finally {
    instance.close();
  }
}

/**
 * Runs a command's work so that SIGINT (Ctrl-C) or SIGTERM meanwhile first undoes what it has
 * written (the undos registered with transfer/interrupt.ts undoOnInterrupt: work files, staging
 * folders, an old installation put back), then exits 130 or 143 as a shell expects.
 */
export async function interruptible<T>(fn: () => Promise<T>): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    const undone = undoInterrupted();
    console.error(`Interrupted (${signal})${undone ? ': what was written is undone; the target is as it was' : ''}`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await fn();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The sub-command word and its arguments (`locales add fr`). */
/** The sub-command of an account command (`user`, `admin`): `create` needs --email and --password; neither takes arguments. */
export function accountAction(values: Record<string, unknown>, positionals: string[]): 'create' | 'list' {
  const [action, args] = subcommand(positionals, ['create', 'list']);
  if (args.length) throw new UsageError(`Unexpected argument "${args[0]}"`);
  if (action === 'create') {
    if (!values.email) throw new UsageError('Missing --email');
    if (!values.password) throw new UsageError('Missing --password');
  }
  return action as 'create' | 'list';
}

export function subcommand(positionals: string[], known: string[]): [string, string[]] {
  const [word, ...rest] = positionals;
  if (!word) throw new UsageError(`Missing sub-command (one of: ${known.join(', ')})`);
  if (!known.includes(word)) throw new UsageError(`Unknown sub-command "${word}" (one of: ${known.join(', ')})`);
  return [word, rest];
}
