/**
 * `folio --version` / `-v` (issue 18), from source and from the compiled binary alone in a
 * folder (the version is embedded, no package.json beside it), and the binary reading
 * `.env` from its working directory as the source run (`npm start`) does, with real
 * environment variables still winning over it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCommand, cleanEnv, killSpawned, removeTempDirs, ROOT, runCli, spawnServer, tempDir } from '../helpers/spawn';

const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

let folio: string;
beforeAll(() => {
  const buildDir = tempDir('folio-build-');
  const build = Bun.spawnSync(buildCommand(join(buildDir, 'folio')), { cwd: ROOT, env: cleanEnv({}, { binary: true }), stdout: 'pipe', stderr: 'pipe' });
  if (build.exitCode !== 0) throw new Error(`build failed (exit ${build.exitCode}):\n${build.stdout}\n${build.stderr}`);
  folio = join(tempDir('folio-bin-'), 'folio');
  copyFileSync(join(buildDir, 'folio'), folio);
}, 120_000);
afterEach(killSpawned);
afterAll(removeTempDirs);

/** The binary run in `cwd` with no flags, so only the environment and .env choose the installation. */
const runBinary = (args: string[], cwd: string, env: Record<string, string> = {}) => runCli(args, { exe: folio, cwd, data: null, contentTypes: null, env });

describe('--version', () => {
  it('prints the package version for --version and -v from source, exit 0', () => {
    for (const flag of ['--version', '-v']) {
      const run = runCli([flag], { data: null, contentTypes: null });
      expect(run).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });

  it('prints it from the compiled binary alone in its folder', () => {
    const dir = join(folio, '..');
    expect(readdirSync(dir)).toEqual(['folio']);
    for (const flag of ['--version', '-v']) expect(runBinary([flag], dir)).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });
});

describe('.env in the working directory of the compiled binary', () => {
  it('sets the configuration as for npm start: data dir, content types and log format from .env', async () => {
    const dir = tempDir('folio-bin-dotenv-');
    writeFileSync(join(dir, '.env'), 'FOLIO_DATA=./from-dotenv\nFOLIO_CONTENT_TYPES=./schemas\nFOLIO_LOG_FORMAT=json\n');
    expect(runBinary(['init', './schemas'], dir).code).toBe(0);
    const migrate = runBinary(['migrate'], dir);
    expect(migrate.stderr).toBe('');
    expect(migrate.code).toBe(0);
    expect(existsSync(join(dir, 'from-dotenv', 'folio.db'))).toBe(true);
    expect(existsSync(join(dir, 'data'))).toBe(false);
    // serve reads the log format from .env too: its lines are JSON.
    const server = await spawnServer([folio, 'serve', '--port', '0'], {
      cwd: dir,
      env: cleanEnv({}, { binary: true }),
      listening: /"msg":"Folio listening on (http:\/\/[^"\s]+)"/,
    });
    expect((await fetch(`${server.url}/_health`)).status).toBe(204);
    await server.stop();
  });

  it('lets a variable set in the real environment win over the same one in .env', () => {
    const dir = tempDir('folio-bin-dotenv-');
    writeFileSync(join(dir, '.env'), 'FOLIO_DATA=./from-dotenv\n');
    expect(runBinary(['init', './content-types'], dir).code).toBe(0);
    expect(runBinary(['migrate'], dir, { FOLIO_DATA: './from-env' }).code).toBe(0);
    expect(existsSync(join(dir, 'from-env', 'folio.db'))).toBe(true);
    expect(existsSync(join(dir, 'from-dotenv'))).toBe(false);
    // Without it, the same folder's .env decides.
    expect(runBinary(['migrate'], dir).code).toBe(0);
    expect(existsSync(join(dir, 'from-dotenv', 'folio.db'))).toBe(true);
  });
});
