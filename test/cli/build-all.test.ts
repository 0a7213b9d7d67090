/**
 * `npm run build:all` (issue 18): one executable per Linux target, cross-compiled here.
 * Each file is checked for what a loader on its target needs (the ELF machine and the
 * program interpreter: glibc or musl), and the one for this machine runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { arch } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, removeTempDirs, ROOT, tempDir } from '../helpers/spawn';

let outdir: string;
let log = '';

beforeAll(() => {
  outdir = tempDir('folio-build-all-');
  const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts['build:all'].replace(/^.*&&\s*/, '');
  const [bun, ...args] = script.trim().split(/\s+/);
  expect(bun).toBe('bun');
  const build = Bun.spawnSync([process.execPath, ...args, '--outdir', outdir], {
    cwd: ROOT,
    env: cleanEnv({}, { binary: true }),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  log = `${build.stdout}\n${build.stderr}`;
  if (build.exitCode !== 0) throw new Error(`build:all failed (exit ${build.exitCode}):\n${log}`);
}, 300_000);
afterAll(removeTempDirs);

/** The ELF header's machine and the PT_INTERP program header's path. */
function elf(path: string): { machine: number; interpreter: string } {
  const bytes = readFileSync(path);
  expect([...bytes.subarray(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
  expect(bytes[4]).toBe(2); // 64-bit
  const machine = bytes.readUInt16LE(0x12);
  const phoff = Number(bytes.readBigUInt64LE(0x20));
  const phentsize = bytes.readUInt16LE(0x36);
  const phnum = bytes.readUInt16LE(0x38);
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (bytes.readUInt32LE(at) !== 3) continue; // PT_INTERP
    const offset = Number(bytes.readBigUInt64LE(at + 8));
    const size = Number(bytes.readBigUInt64LE(at + 32));
    return {
      machine,
      interpreter: bytes
        .subarray(offset, offset + size)
        .toString('latin1')
        .replace(/\0+$/, ''),
    };
  }
  return { machine, interpreter: '' };
}

const X86_64 = 62;
const AARCH64 = 183;

describe('npm run build:all', () => {
  it('writes a glibc x86-64, a glibc ARM64 and a musl x86-64 (Alpine) executable', () => {
    expect(elf(join(outdir, 'folio-linux-x64'))).toEqual({ machine: X86_64, interpreter: '/lib64/ld-linux-x86-64.so.2' });
    expect(elf(join(outdir, 'folio-linux-arm64'))).toEqual({ machine: AARCH64, interpreter: '/lib/ld-linux-aarch64.so.1' });
    expect(elf(join(outdir, 'folio-linux-x64-musl'))).toEqual({ machine: X86_64, interpreter: '/lib/ld-musl-x86_64.so.1' });
  });

  it.skipIf(arch() !== 'x64' || !existsSync('/lib64/ld-linux-x86-64.so.2'))('runs the one for this machine: --version and the usage', () => {
    const exe = join(outdir, 'folio-linux-x64');
    const version = Bun.spawnSync([exe, '--version'], { cwd: outdir, env: cleanEnv({}, { binary: true }) });
    expect(version.exitCode).toBe(0);
    expect(version.stdout.toString()).toBe(`${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
    const help = Bun.spawnSync([exe, '--help'], { cwd: outdir, env: cleanEnv({}, { binary: true }) });
    expect(help.stdout.toString()).toContain('Usage: folio <command>');
  });
});
