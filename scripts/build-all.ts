/**
 * `npm run build:all`: the executable of `npm run build` for each Linux target a server
 * runs, cross-compiled from this machine (Bun fetches each target's runtime from the npm
 * registry the first time):
 *
 *   dist/folio-linux-x64        glibc (Debian, Ubuntu, RHEL…), x86-64
 *   dist/folio-linux-arm64      glibc, ARM64 (Graviton, Ampere, Raspberry Pi 4/5 64-bit)
 *   dist/folio-linux-x64-musl   musl, x86-64 (Alpine)
 *
 * The flags are package.json's "build" script's, so every binary is built the same way.
 * `--outdir DIR` writes them elsewhere (tests); `--target NAME` builds only that one.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dir, '..');

/** Output name suffix → Bun's compile target. */
export const TARGETS: Record<string, string> = {
  'linux-x64': 'bun-linux-x64',
  'linux-arm64': 'bun-linux-arm64',
  'linux-x64-musl': 'bun-linux-x64-musl',
};

const { values } = parseArgs({ options: { outdir: { type: 'string' }, target: { type: 'string', multiple: true } }, strict: true });
const outdir = resolve(values.outdir ?? join(ROOT, 'dist'));
const wanted = values.target ?? Object.keys(TARGETS);
for (const name of wanted) {
  if (!TARGETS[name]) {
    console.error(`Unknown target "${name}" (one of: ${Object.keys(TARGETS).join(', ')})`);
    process.exit(2);
  }
}

const words: string[] = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  .scripts.build.replace(/^.*&&\s*/, '')
  .trim()
  .split(/\s+/);
const out = words.indexOf('--outfile');
if (words[0] !== 'bun' || words[1] !== 'build' || out < 0) throw new Error('package.json "build" is not a "bun build … --outfile FILE" command');
mkdirSync(outdir, { recursive: true });
for (const name of wanted) {
  const command = [...words];
  command[0] = process.execPath;
  command[out + 1] = join(outdir, `folio-${name}`);
  command.splice(2, 0, `--target=${TARGETS[name]}`);
  console.log(`building ${command[out + 2]} (${TARGETS[name]})`);
  const result = spawnSync(command[0]!, command.slice(1), { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
