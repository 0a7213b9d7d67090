import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError, type Command } from './command';
import { exampleContent } from './example-content';

export const initCommand: Command = {
  name: 'init',
  summary: 'scaffold a content-types folder with the example content',
  usage: `Usage: folio init [DIR]

Writes the example blog content types (articles, authors, categories, tags, a homepage and
global single type, shared components) into DIR (default ./content-types). Refuses to write
into a folder that already has files.`,
  options: {},
  async run({ positionals }) {
    if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}"`);
    const dir = resolve(positionals[0] ?? './content-types');
    if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty; choose an empty or new folder`);
    for (const [path, text] of Object.entries(exampleContent)) {
      const file = join(dir, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    console.log(`wrote ${Object.keys(exampleContent).length} files to ${dir}`);
    console.log(`start the API with: folio serve --content-types ${dir}`);
  },
};
