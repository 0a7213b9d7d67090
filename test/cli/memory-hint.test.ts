/**
 * FOLIO_MEMORY_HINT_MB: `folio serve` replaces itself once (same pid) with its garbage
 * collector sized for that much memory (src/cli/memory-hint.ts). The pure parts first, then
 * servers run from source, their environment read back from /proc (Linux). The compiled
 * binary's re-execution: test/cli/binary.test.ts.
 */
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { hintedEnvironment, memoryHintMB, RUNTIME_OPTION } from '../../src/cli/memory-hint';
import { killSpawned, removeTempDirs, runCli, serve } from '../helpers/spawn';

const SLOW = 30_000;
const MiB = 1024 * 1024;
afterEach(killSpawned);
afterAll(removeTempDirs);

describe('the memory hint, as values', () => {
  it('defaults to 256 MiB, reads a non-negative integer and refuses anything else', () => {
    expect(memoryHintMB(undefined)).toBe(256);
    expect(memoryHintMB('')).toBe(256);
    expect(memoryHintMB('0')).toBe(0);
    expect(memoryHintMB('96')).toBe(96);
    for (const bad of ['-1', '1.5', 'lots', '64MB']) expect(memoryHintMB(bad)).toBeUndefined();
  });

  it('asks for a re-execution with the option in bytes, keeping every other variable', () => {
    const env = hintedEnvironment({ PATH: '/bin', FOLIO_DATA: './d', EMPTY: undefined }, 128);
    expect(env).toEqual({ PATH: '/bin', FOLIO_DATA: './d', [RUNTIME_OPTION]: String(128 * MiB) });
  });

  it('does not re-execute when the hint is 0 or the option is already set (the second start, or the operator’s own)', () => {
    expect(hintedEnvironment({ PATH: '/bin' }, 0)).toBeUndefined();
    expect(hintedEnvironment({ [RUNTIME_OPTION]: '1000000' }, 256)).toBeUndefined();
  });
});

const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
const onLinux = existsSync('/proc/self/environ');

describe.if(onLinux)('folio serve with the memory hint', () => {
  it(
    'serves from the process it started, its collector sized for 256 MiB by default',
    async () => {
      const server = await serve();
      expect(environ(server.proc.pid)).toContain(`${RUNTIME_OPTION}=${256 * MiB}`);
      expect((await fetch(`${server.url}/_health`)).status).toBe(204);
      expect(await server.stop()).toBe(0);
    },
    SLOW,
  );

  it(
    'sizes it for FOLIO_MEMORY_HINT_MB, and leaves the runtime alone with 0',
    async () => {
      const hinted = await serve({ env: { FOLIO_MEMORY_HINT_MB: '64' } });
      expect(environ(hinted.proc.pid)).toContain(`${RUNTIME_OPTION}=${64 * MiB}`);
      expect(await hinted.stop()).toBe(0);
      const off = await serve({ env: { FOLIO_MEMORY_HINT_MB: '0' } });
      expect(environ(off.proc.pid).some((v) => v.startsWith(`${RUNTIME_OPTION}=`))).toBe(false);
      expect((await fetch(`${off.url}/_health`)).status).toBe(204);
      expect(await off.stop()).toBe(0);
    },
    SLOW,
  );

  it(
    'keeps an operator’s own BUN_JSC_forceRAMSize',
    async () => {
      const server = await serve({ env: { [RUNTIME_OPTION]: String(512 * MiB) } });
      expect(environ(server.proc.pid)).toContain(`${RUNTIME_OPTION}=${512 * MiB}`);
      expect(await server.stop()).toBe(0);
    },
    SLOW,
  );

  it('refuses a hint that is not a number of MiB with a usage error, before opening anything', () => {
    const run = runCli(['serve', '--port', '0'], { env: { FOLIO_MEMORY_HINT_MB: 'lots' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('FOLIO_MEMORY_HINT_MB must be a non-negative integer (MiB), got "lots"');
  });
});
