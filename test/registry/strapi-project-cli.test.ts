/**
 * What `folio migrate` and `folio serve` say at start about a schema folder, run as a user
 * runs them (child processes): warnings that do not stop start-up, and errors that do,
 * each naming the file. On PostgreSQL too when FOLIO_TEST_DATABASE_URL is set.
 */
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { killSpawned, removeTempDirs, runCli, serve, tempDir } from '../helpers/spawn';

const PROJECT = resolve(import.meta.dir, '../fixtures/strapi-project');
const PG = process.env.FOLIO_TEST_DATABASE_URL;
const databases: string[] = [];
const database = async () => {
  if (!PG) return undefined;
  const url = await createDatabase(PG, 'folio_cli');
  databases.push(url);
  return url;
};

afterEach(killSpawned);
afterAll(async () => {
  removeTempDirs();
  if (PG && databases.length) await dropDatabases(PG, databases);
});

/** A private copy of the fixture project that a test may break. */
function projectCopy(): string {
  const dir = join(tempDir('folio-strapi-'), 'my-shop');
  cpSync(PROJECT, dir, { recursive: true });
  return dir;
}

describe('start-up messages for a Strapi project', () => {
  it('migrate prints a warning naming the file and an unknown key, and still migrates', async () => {
    const run = runCli(['migrate'], { contentTypes: PROJECT, database: await database() });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      '[folio] warning: strapi-project/src/api/shop/content-types/category/schema.json (attribute "name"): unknown key "requierd" (ignored); did you mean "required"?',
    );
    expect(run.stderr).toContain('(attribute "folder"): relation to plugin::upload.folder is ignored');
    expect(run.stdout).toContain('change(s) applied');
  });

  it('serve starts on a Strapi project root and prints the same warnings', async () => {
    const server = await serve({ contentTypes: PROJECT, database: await database() });
    const categories = await server.call('GET', '/api/categories');
    expect(categories.status).toBeLessThan(500);
    expect(server.stderr()).toContain('unknown key "requierd"');
    await server.stop();
  });

  it('starts on an unknown custom field, warning with the file, the attribute and custom-fields.json', () => {
    const dir = projectCopy();
    writeFileSync(join(dir, 'src/custom-fields.json'), '{}');
    const run = runCli(['migrate', '--dry-run'], { contentTypes: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'my-shop/src/api/product/content-types/product/schema.json (attribute "badge"): ' +
        'custom field "plugin::badge-maker.badge" is registered by a plugin Folio does not know; its values are kept as JSON, as sent',
    );
    expect(run.stderr).toContain('name its type in my-shop/src/custom-fields.json');
    expect(run.stderr).not.toContain('    at ');
  });

  it('refuses a folder that holds neither layout, and a Strapi project without content types', () => {
    const empty = join(tempDir(), 'schemas');
    mkdirSync(join(empty, 'components'), { recursive: true });
    const none = runCli(['migrate', '--dry-run'], { contentTypes: empty });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('Invalid content type: schemas: holds no content type');

    const project = join(tempDir(), 'blank-project');
    mkdirSync(join(project, 'src/api'), { recursive: true });
    const blank = runCli(['migrate', '--dry-run'], { contentTypes: project });
    expect(blank.code).not.toBe(0);
    expect(blank.stderr).toContain('Invalid content type: blank-project: holds a Strapi project but no content type');
  });
});
