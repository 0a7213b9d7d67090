'use strict';
/**
 * Bun for this package, whether or not npm ran install scripts. The `bun` npm package puts
 * its real executable in place in a postinstall script; with scripts skipped
 * (`npm install --ignore-scripts`, some CI set-ups, pnpm) `node_modules/bun/bin/bun.exe` is a
 * placeholder that only prints an error, while the executable itself is already there, in the
 * platform package npm installed as an optional dependency (`@oven/bun-linux-x64`, …). This
 * puts that executable where the postinstall would have (so `bun` in the npm scripts and
 * `npx bun` work from then on), and falls back to the package's own install.js (which may
 * download it) when the platform package is missing.
 *
 *   node node/bun.cjs        ensures it (npm start, npm test and the other scripts run it first)
 *   require('./bun.cjs').bunExecutable()   the executable's path (node/index.cjs)
 *
 * Plain CommonJS with Node's built-ins, so it runs before anything else is installed right.
 */
const { spawnSync } = require('node:child_process');
const { copyFileSync, existsSync, linkSync, renameSync, rmSync, statSync } = require('node:fs');
const { dirname, join } = require('node:path');

const PACKAGE = dirname(__dirname);
/** The placeholder is a shell script of a few hundred bytes; Bun itself is tens of MB. */
const REAL_SIZE = 1024 * 1024;

const isReal = (file) => {
  try {
    return statSync(file).size > REAL_SIZE;
  } catch {
    return false;
  }
};

/** `@oven/bun-<os>-<arch>[-musl]` names for this machine, the baseline builds after the others. */
function platformPackages() {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
  const report = typeof process.report?.getReport === 'function' ? process.report.getReport() : undefined;
  const musl = os === 'linux' && !!report && !report.header?.glibcVersionRuntime;
  const base = `@oven/bun-${os}-${arch}${musl ? '-musl' : ''}`;
  return [base, `${base}-baseline`];
}

/** The executable of an installed platform package, or undefined. */
function platformExecutable(paths) {
  for (const name of platformPackages()) {
    let dir;
    try {
      dir = dirname(require.resolve(`${name}/package.json`, { paths }));
    } catch {
      continue;
    }
    const file = join(dir, 'bin', process.platform === 'win32' ? 'bun.exe' : 'bun');
    if (isReal(file)) return file;
  }
  return undefined;
}

/** Puts `from` at `to` (a hard link, else a copy), replacing the placeholder in one rename. */
function place(from, to) {
  const temporary = `${to}.folio-${process.pid}`;
  rmSync(temporary, { force: true });
  try {
    linkSync(from, temporary);
  } catch {
    copyFileSync(from, temporary);
  }
  renameSync(temporary, to);
}

/** The path of a working Bun executable for this package; puts it in place first when needed. */
function bunExecutable() {
  let bunDir;
  try {
    bunDir = dirname(require.resolve('bun/package.json', { paths: [PACKAGE] }));
  } catch {
    throw new Error('Bun is not installed: run npm install in the folio-cms package');
  }
  const target = join(bunDir, 'bin', 'bun.exe');
  if (isReal(target)) return target;
  const found = platformExecutable([bunDir, PACKAGE]);
  if (found) {
    place(found, target);
    const bunx = join(bunDir, 'bin', 'bunx.exe');
    if (existsSync(bunx) && !isReal(bunx)) place(found, bunx);
    return target;
  }
  // No platform package: Bun's own postinstall finds or downloads one.
  spawnSync(process.execPath, [join(bunDir, 'install.js')], { cwd: bunDir, stdio: 'inherit' });
  if (isReal(target)) return target;
  throw new Error(`Bun's executable is missing: run "node install.js" in ${bunDir}, or reinstall without --ignore-scripts`);
}

module.exports = { bunExecutable, platformPackages };

if (require.main === module) {
  try {
    bunExecutable();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
