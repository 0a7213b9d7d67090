/**
 * The package works when npm skipped install scripts (`npm install --ignore-scripts`): Bun's
 * npm package then holds a placeholder that only prints an error, while its executable sits in
 * the platform package npm installed beside it. `node node/bun.cjs` (the first step of
 * `npm start`, `npm test`, `npm run build`) puts it in place, as Bun's postinstall would; without
 * a platform package it falls back to Bun's own install.js and says what to run when that fails.
 * Played on a package laid out as npm lays it out, in a temp folder.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, ROOT, tempDir } from '../helpers/spawn';

afterAll(removeTempDirs);

const PLACEHOLDER = '#!/bin/sh\necho "Error: Bun\'s postinstall script was not run." >&2\nexit 1\n';
const { platformPackages } = require(join(ROOT, 'node/bun.cjs')) as { platformPackages: () => string[] };

/** A package with node/bun.cjs and node_modules as npm leaves them with scripts skipped. */
function packageWithoutScripts(options: { platform: boolean; installJs: string }): string {
  const root = tempDir('folio-no-scripts-');
  mkdirSync(join(root, 'node'));
  copyFileSync(join(ROOT, 'node/bun.cjs'), join(root, 'node/bun.cjs'));
  const bun = join(root, 'node_modules/bun');
  mkdirSync(join(bun, 'bin'), { recursive: true });
  writeFileSync(join(bun, 'package.json'), JSON.stringify({ name: 'bun', version: Bun.version }));
  for (const name of ['bun.exe', 'bunx.exe']) {
    writeFileSync(join(bun, 'bin', name), PLACEHOLDER);
    chmodSync(join(bun, 'bin', name), 0o755);
  }
  writeFileSync(join(bun, 'install.js'), options.installJs);
  if (options.platform) {
    const platform = join(root, 'node_modules', platformPackages()[0]!);
    mkdirSync(join(platform, 'bin'), { recursive: true });
    writeFileSync(join(platform, 'package.json'), JSON.stringify({ name: platformPackages()[0], version: Bun.version }));
    symlinkSync(process.execPath, join(platform, 'bin', process.platform === 'win32' ? 'bun.exe' : 'bun'));
  }
  return root;
}

const node = (cwd: string, args: string[]) => Bun.spawnSync(['node', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });

describe('Bun for the package when npm skipped install scripts', () => {
  test("node node/bun.cjs puts the platform package's executable in place of the placeholder: bun and bunx run, and a second run changes nothing", () => {
    const root = packageWithoutScripts({ platform: true, installJs: 'throw new Error("install.js must not run");' });
    const bunExe = join(root, 'node_modules/bun/bin/bun.exe');
    expect(Bun.spawnSync([bunExe, '--version'], { stderr: 'pipe' }).exitCode).toBe(1);
    const first = node(root, ['node/bun.cjs']);
    expect(first.stderr.toString()).toBe('');
    expect(first.exitCode).toBe(0);
    for (const name of ['bun.exe', 'bunx.exe']) {
      const run = Bun.spawnSync([join(root, 'node_modules/bun/bin', name), '--version'], { stdout: 'pipe' });
      expect(run.stdout.toString().trim()).toBe(Bun.version);
    }
    const placed = statSync(bunExe).mtimeMs;
    expect(node(root, ['node/bun.cjs']).exitCode).toBe(0);
    expect(statSync(bunExe).mtimeMs).toBe(placed);
  });

  test("without a platform package it runs Bun's install.js, and says what to do when that did not help", () => {
    const root = packageWithoutScripts({ platform: false, installJs: 'require("node:fs").writeFileSync("ran", "yes");' });
    const run = node(root, ['node/bun.cjs']);
    expect(run.exitCode).toBe(1);
    expect(readFileSync(join(root, 'node_modules/bun/ran'), 'utf8')).toBe('yes');
    expect(run.stderr.toString()).toContain(
      `Bun's executable is missing: run "node install.js" in ${join(root, 'node_modules/bun')}, or reinstall without --ignore-scripts`,
    );
    rmSync(root, { recursive: true, force: true });
  });

  test('every npm script that runs Bun puts it in place first', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    for (const [name, command] of Object.entries(scripts)) {
      if (/\bbun\b/.test(command)) expect({ name, command: command.startsWith('node node/bun.cjs && ') }).toEqual({ name, command: true });
    }
  });
});
