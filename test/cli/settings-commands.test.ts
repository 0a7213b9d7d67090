/**
 * The commands that change what an installation speaks and allows (locales, permissions,
 * tokens), run from source (`bun src/cli.ts …`) as a user runs them: real processes, real
 * SQLite files in temp data dirs. The other commands: test/cli/commands.test.ts.
 */
import { afterAll, describe, expect, it } from 'bun:test';
import { lines, removeTempDirs, runCli as cli, tempDir, type CliRun as Run } from '../helpers/spawn';
import { withDb } from '../helpers/sqlite-file';

afterAll(removeTempDirs);

// ---------------------------------------------------------------------------------------

describe('locales', () => {
  it('lists en as the only locale and the default on a new database', () => {
    const run = cli(['locales', 'list']);
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(1);
    expect(run.stdout).toMatch(/^en\t.*\(default\)$/m);
  });

  it('adds fr with its name and makes it the default on request, en no longer being the default', () => {
    const data = tempDir();
    const add = cli(['locales', 'add', 'fr', '--name', 'French'], { data });
    expect(add.code).toBe(0);
    const listed = cli(['locales', 'list'], { data }).stdout;
    expect(listed).toMatch(/^fr\tFrench$/m);
    expect(listed).toMatch(/^en\t.*\(default\)$/m);

    const def = cli(['locales', 'default', 'fr'], { data });
    expect(def.code).toBe(0);
    const after = cli(['locales', 'list'], { data }).stdout;
    expect(after).toMatch(/^fr\tFrench\t\(default\)$/m);
    expect(after).toMatch(/^en\t/m);
    expect(after).not.toMatch(/^en\t.*\(default\)/m);
    expect(after.match(/\(default\)/g)).toHaveLength(1);
  });

  it('refuses to add a locale that exists with exit 1 and a message naming it', () => {
    const data = tempDir();
    expect(cli(['locales', 'add', 'fr', '--name', 'French'], { data }).code).toBe(0);
    const again = cli(['locales', 'add', 'fr'], { data });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/"fr".*already exists/);
    expect(again.stderr).not.toContain('    at ');
    expect(lines(cli(['locales', 'list'], { data }).stdout).filter((l) => l.startsWith('fr\t'))).toHaveLength(1);
  });

  it('refuses an unknown locale as default with exit 1 and keeps the current default', () => {
    const data = tempDir();
    const run = cli(['locales', 'default', 'xx'], { data });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('"xx"');
    expect(run.stderr).not.toContain('    at ');
    expect(cli(['locales', 'list'], { data }).stdout).toMatch(/^en\t.*\(default\)$/m);
  });
});

describe('permissions', () => {
  // A new installation grants what Strapi's users & permissions plugin grants: logging in,
  // confirming an address, providers and token refresh for the public, the own account,
  // logout and sessions for users. No content action.
  const DEFAULTS = [
    'authenticated\tplugin::users-permissions.auth.changePassword',
    'authenticated\tplugin::users-permissions.auth.getSessions',
    'authenticated\tplugin::users-permissions.auth.logout',
    'authenticated\tplugin::users-permissions.auth.revokeSession',
    'authenticated\tplugin::users-permissions.user.me',
    'public\tplugin::users-permissions.auth.callback',
    'public\tplugin::users-permissions.auth.connect',
    'public\tplugin::users-permissions.auth.emailConfirmation',
    'public\tplugin::users-permissions.auth.forgotPassword',
    'public\tplugin::users-permissions.auth.refresh',
    'public\tplugin::users-permissions.auth.register',
    'public\tplugin::users-permissions.auth.resetPassword',
    'public\tplugin::users-permissions.auth.sendEmailConfirmation',
  ];
  const contentOnly = (stdout: string) => lines(stdout).filter((l) => !l.includes('plugin::users-permissions.'));

  it('grants no content action on a new database, only the users & permissions defaults', () => {
    const run = cli(['permissions', 'list']);
    expect(run.code).toBe(0);
    expect(lines(run.stdout).sort()).toEqual(DEFAULTS);
    const publicRole = cli(['permissions', 'list', 'public']);
    expect(publicRole.code).toBe(0);
    expect(publicRole.stdout).not.toContain('api::');
  });

  it('lists exactly the granted actions for the role', () => {
    const data = tempDir();
    const grant = cli(['permissions', 'grant', 'public', 'api::article.article.find', 'api::article.article.findOne'], { data });
    expect(grant.code).toBe(0);
    const list = cli(['permissions', 'list', 'public'], { data });
    expect(list.code).toBe(0);
    expect(contentOnly(list.stdout).sort()).toEqual(['public\tapi::article.article.find', 'public\tapi::article.article.findOne']);
    expect(cli(['permissions', 'list', 'authenticated'], { data }).stdout).not.toContain('api::');
  });

  it('expands api::article.article.* to the eight actions of a collection type with draft & publish', () => {
    const data = tempDir();
    expect(cli(['permissions', 'grant', 'public', 'api::article.article.*'], { data }).code).toBe(0);
    const list = cli(['permissions', 'list', 'public'], { data });
    expect(contentOnly(list.stdout).sort()).toEqual(
      ['create', 'delete', 'discardDraft', 'find', 'findOne', 'publish', 'unpublish', 'update'].map((a) => `public\tapi::article.article.${a}`),
    );
  });

  it('revokes only the named action', () => {
    const data = tempDir();
    cli(['permissions', 'grant', 'public', 'api::article.article.find', 'api::article.article.findOne'], { data });
    const revoke = cli(['permissions', 'revoke', 'public', 'api::article.article.find'], { data });
    expect(revoke.code).toBe(0);
    expect(contentOnly(cli(['permissions', 'list', 'public'], { data }).stdout)).toEqual(['public\tapi::article.article.findOne']);
    expect(cli(['permissions', 'revoke', 'public', 'api::article.article.*'], { data }).code).toBe(0);
    expect(cli(['permissions', 'list', 'public'], { data }).stdout).not.toContain('api::');
  });

  it('refuses an unknown action with exit 1 naming it, and grants nothing of the batch', () => {
    const data = tempDir();
    const run = cli(['permissions', 'grant', 'public', 'api::article.article.find', 'api::nope.nope.find'], { data });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('api::nope.nope.find');
    expect(cli(['permissions', 'list', 'public'], { data }).stdout).not.toContain('api::article.article.find');
  });

  it('refuses an unknown role with exit 1 for grant, revoke and list', () => {
    const data = tempDir();
    for (const args of [
      ['permissions', 'grant', 'nobody', 'api::article.article.find'],
      ['permissions', 'revoke', 'nobody', 'api::article.article.find'],
      ['permissions', 'list', 'nobody'],
    ]) {
      const run = cli(args, { data });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('"nobody"');
    }
    expect(lines(cli(['permissions', 'list'], { data }).stdout).sort()).toEqual(DEFAULTS);
  });
});

describe('tokens', () => {
  const keyOf = (run: Run) => lines(run.stdout).at(-1)!;

  it('prints the 256-hex-character key alone on the last line of stdout', () => {
    const run = cli(['token', 'create', '--name', 't1', '--type', 'read-only']);
    expect(run.code).toBe(0);
    expect(keyOf(run)).toMatch(/^[0-9a-f]{256}$/);
    expect(run.stdout.endsWith(`${keyOf(run)}\n`)).toBe(true);
  });

  it('lists the token name and type but never the key, and stores no clear key', () => {
    const data = tempDir();
    const key = keyOf(cli(['token', 'create', '--name', 't1', '--type', 'read-only'], { data }));
    const list = cli(['token', 'list'], { data });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^t1\tread-only\t/m);
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).not.toMatch(/[0-9a-f]{64}/);
    const stored = withDb(data, (db) => JSON.stringify(db.query('SELECT * FROM folio_api_tokens').all()));
    expect(stored).toContain('t1');
    expect(stored).not.toContain(key);
  });

  it('refuses a second token with the same name with exit 1', () => {
    const data = tempDir();
    expect(cli(['token', 'create', '--name', 't1', '--type', 'read-only'], { data }).code).toBe(0);
    const again = cli(['token', 'create', '--name', 't1', '--type', 'full-access'], { data });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('"t1"');
    expect(again.stdout).not.toMatch(/[0-9a-f]{256}/);
    expect(lines(cli(['token', 'list'], { data }).stdout)).toHaveLength(1);
  });

  it('gives a token created with --lifespan-days 7 an expiry seven days ahead, in create and list', () => {
    const data = tempDir();
    const before = Date.now();
    const run = cli(['token', 'create', '--name', 'week', '--type', 'full-access', '--lifespan-days', '7'], { data });
    expect(run.code).toBe(0);
    const shown = run.stdout.match(/expires (\d{4}-\d\d-\d\dT[\d:.]+Z)/);
    expect(shown).not.toBeNull();
    const expires = Date.parse(shown![1]!);
    const week = 7 * 24 * 3600 * 1000;
    expect(expires).toBeGreaterThanOrEqual(before + week - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + week + 1000);
    expect(cli(['token', 'list'], { data }).stdout).toMatch(new RegExp(`^week\\tfull-access\\texpires ${shown![1]!.replace(/\./g, '\\.')}`, 'm'));

    const forever = cli(['token', 'create', '--name', 'forever', '--type', 'read-only'], { data });
    expect(forever.stdout).toContain('never expires');
  });

  it('removes a revoked token from the list and exits 1 when revoking an unknown name', () => {
    const data = tempDir();
    cli(['token', 'create', '--name', 't1', '--type', 'read-only'], { data });
    cli(['token', 'create', '--name', 't2', '--type', 'read-only'], { data });
    const revoke = cli(['token', 'revoke', 't1'], { data });
    expect(revoke.code).toBe(0);
    const list = cli(['token', 'list'], { data }).stdout;
    expect(list).not.toMatch(/^t1\t/m);
    expect(list).toMatch(/^t2\t/m);

    const unknown = cli(['token', 'revoke', 'nope'], { data });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"nope"');
  });
});
