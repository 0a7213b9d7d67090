/**
 * `folio seed FILE.json`: the seed format of startFolio({ seed }) (library/seed.ts) from a
 * file, so a team's fixtures or a template's content go in with one command: documents in
 * order, relations by `$key`, `$status`, `$locale`, other locales by `$document`, files by
 * `$file` (paths relative to the seed file). All or nothing.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeSeed, type Seed } from '../library/seed';
import { seedFiles } from '../library/seed-files';
import { sizeName } from '../transfer/lines';
import { CLI_ACTOR, UsageError, withInstance, type Command } from './command';

/** A seed is read whole: bounded, as every buffer. */
const SEED_LIMIT = 64 * 1024 * 1024;

function readSeed(file: string): Seed {
  let size: number;
  try {
    const info = statSync(file);
    if (!info.isFile()) throw new Error();
    size = info.size;
  } catch {
    throw new Error(`Cannot read "${file}": no such file`);
  }
  if (size > SEED_LIMIT) throw new Error(`"${file}" is larger than the ${sizeName(SEED_LIMIT)} a seed may be`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Seed;
  } catch (error) {
    throw new Error(`"${file}" is not valid JSON (${(error as Error).message})`);
  }
}

export const seedCommand: Command = {
  name: 'seed',
  summary: 'create documents (and their files) from a seed file, as startFolio({ seed }) does',
  usage: `Usage: folio seed FILE.json

Creates the documents of FILE.json in order, through the same checks as the REST API, in
the seed format of startFolio({ seed }):

  {
    "authors":  [{ "$key": "jane", "name": "Jane" }],
    "articles": [{ "$key": "hello", "title": "Hello", "author": "$jane",
                   "cover": { "$file": "images/cover.png", "alternativeText": "A cover" } },
                 { "$document": "$hello", "$locale": "fr", "title": "Bonjour" }],
    "homepage": { "title": "Welcome" }
  }

Keys are content types: plural API ids (a single type's singular one), singular API ids or
uids. In a relation, "$name" is the documentId of the item seeded with "$key": "name";
other values are documentIds as in a REST write. "$status": "draft" creates only the draft
(published by default); "$locale" writes that locale (it must exist: folio locales add);
"$document": "$name" with "$locale" adds that locale to a document seeded before. A media
value { "$file": PATH, "alternativeText", "caption" } uploads PATH (relative to FILE.json).

All or nothing: every item is checked first, the files are uploaded, then every document is
written in one transaction. An item that fails is named (file, type, index, field), and
nothing stays: no document, no file.`,
  options: {},
  async run({ values, positionals }) {
    if (positionals.length === 0) throw new UsageError('Missing FILE (a seed: a JSON object of { [pluralApiId]: items })');
    if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}"`);
    const file = positionals[0]!;
    const seed = readSeed(file);
    return withInstance(values, async (instance) => {
      const { keys, counts } = await writeSeed(instance.registry, instance.documents, seed, {
        source: file,
        actor: CLI_ACTOR,
        files: seedFiles(instance, dirname(resolve(file)), CLI_ACTOR),
      });
      const written = Object.entries(counts).map(([type, n]) => `${n} ${type}`);
      console.log(`seeded ${written.join(', ') || 'nothing'} from ${file}`);
      for (const [key, documentId] of Object.entries(keys)) console.log(`  $${key}\t${documentId}`);
      return 0;
    });
  },
};
