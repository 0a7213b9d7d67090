/** The harness's command line (bench/run.ts documents it) and its log line. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

export const ROOT = resolve(import.meta.dir, '..');
export const MiB = 1024 * 1024;

export const log = (message: string) => console.error(`[bench] ${message}`);

export interface Options {
  short: boolean;
  /** Seconds of load per scenario, after `warmup` seconds of untimed load. */
  seconds: number;
  warmup: number;
  connections: number;
  /** Articles in the scale run; 0 skips it. */
  scale: number;
  /** Idle subscribers of the realtime scenario (bench/realtime.ts); 0 skips it. */
  realtime: number;
  /** Reads: best of this many rounds. */
  rounds: number;
  coldStarts: number;
  load?: string;
  out: string;
  build: boolean;
  readme: boolean;
  keep: boolean;
  /** `--peer strapi`: the Strapi 5 peer in the same run, from `peerDir` (its setup.sh, start.sh…). */
  peer: 'strapi' | null;
  peerDir: string;
}

/** The Strapi peer's scripts (shared/peers/strapi beside this work tree); FOLIO_BENCH_STRAPI_DIR or --peer-dir to use a copy. */
export const DEFAULT_PEER_DIR = resolve(ROOT, '../shared/peers/strapi');

/** Parses argv; prints the help (run.ts's header) and exits on --help, exits 2 on a bad value. */
export function parseOptions(argv: string[], helpFrom: string): Options {
  const { values: flags } = parseArgs({
    args: argv,
    options: {
      short: { type: 'boolean', default: false },
      scale: { type: 'string' },
      realtime: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string', default: '64' },
      rounds: { type: 'string' },
      load: { type: 'string' },
      out: { type: 'string' },
      peer: { type: 'string' },
      'peer-dir': { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      readme: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (flags.help) {
    console.log(
      readFileSync(helpFrom, 'utf8')
        .match(/\/\*\*([\s\S]*?)\*\//)![1]!
        .replace(/^ \* ?/gm, ''),
    );
    process.exit(0);
  }
  const short = flags.short!;
  const options: Options = {
    short,
    seconds: Number(flags.seconds ?? (short ? 1 : 5)),
    warmup: 1,
    connections: Number(flags.connections),
    scale: short ? Number(flags.scale ?? 0) : Number(flags.scale ?? 1_000_000),
    realtime: Number(flags.realtime ?? (short ? 500 : 10_000)),
    rounds: Number(flags.rounds ?? (short ? 1 : 2)),
    coldStarts: 10,
    load: flags.load,
    out: resolve(flags.out ?? join(ROOT, 'bench', 'results', short ? 'short.json' : 'latest.json')),
    build: !flags['no-build'],
    readme: flags.readme!,
    keep: flags.keep!,
    peer: null,
    peerDir: resolve(flags['peer-dir'] ?? process.env.FOLIO_BENCH_STRAPI_DIR ?? DEFAULT_PEER_DIR),
  };
  for (const [name, n] of [
    ['--seconds', options.seconds],
    ['--connections', options.connections],
    ['--scale', options.scale],
    ['--realtime', options.realtime],
    ['--rounds', options.rounds],
  ] as const) {
    const zeroSkips = name === '--scale' || name === '--realtime';
    if (!Number.isInteger(n) || n < 0 || (!zeroSkips && n < 1)) {
      console.error(`${name} must be a ${zeroSkips ? 'non-negative' : 'positive'} integer`);
      process.exit(2);
    }
  }
  if (flags.peer !== undefined) {
    if (flags.peer !== 'strapi') {
      console.error(`--peer: only "strapi" is known (got "${flags.peer}")`);
      process.exit(2);
    }
    options.peer = 'strapi';
  }
  return options;
}
