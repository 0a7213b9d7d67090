/**
 * `folio import FILE --type articles`: bulk-creates documents from a JSON Lines file.
 * The file is read as a stream; each batch of lines is one `createMany` transaction, so a
 * million documents import in minutes and a bad line never leaves half a batch behind.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { refreshStatistics } from '../db/statistics';
import { bulkLoadSettings } from '../db/store/bulk';
import { beginSearchBulkLoad } from '../db/search-index';
import { readModelInput } from '../documents/write/input';
import type { ContentType, Registry } from '../registry/types';
import { CLI_ACTOR, withInstance, UsageError, type Command } from './command';
import { importStrapiCommand } from './import-strapi';
import { contentTypeArg } from './content-type';
import { looksLikeArchive } from '../transfer/archive';
import { LINE_LIMIT, sizeName, splitLines } from '../transfer/lines';
import { restoreFromArchive } from './restore';

/** A line that cannot be imported: its 1-based number and why. */
export class ImportLineError extends Error {
  /** `lastLine` when only the batch (lines line..lastLine) is known. */
  constructor(
    readonly line: number,
    detail: string,
    readonly lastLine?: number,
  ) {
    super(lastLine === undefined ? `line ${line}: ${detail}` : `lines ${line}-${lastLine}: ${detail}`);
  }
}

interface Item {
  line: number;
  data: Record<string, unknown>;
}

/**
 * Yields the lines of a file (or stdin for "-") with their 1-based numbers, a chunk's worth at
 * a time (one await per chunk, not per line); blank lines are skipped. Linear in the input
 * (transfer/lines.ts); a line longer than LINE_LIMIT is an ImportLineError naming it.
 */
async function* readLines(file: string): AsyncGenerator<{ line: number; text: string }[]> {
  // Large reads: the default 64 KiB chunks cost a callback and a buffer each (visible at 10,000 lines/s).
  const input = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: 1 << 20 });
  const unCR = (text: string) => (text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text);
  const tooLong = (line: number) => new ImportLineError(line, `longer than the ${sizeName(LINE_LIMIT)} allowed for one line`);
  for await (const lines of splitLines(input as AsyncIterable<Uint8Array | string>, tooLong)) {
    yield lines.map(({ number, text }) => ({ line: number, text: unCR(text) }));
  }
}

function parseLine(line: number, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportLineError(line, `invalid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ImportLineError(line, 'expected a JSON object (the "data" of a create request)');
  }
  return value as Record<string, unknown>;
}

/**
 * A batch failed and rolled back: name the line. Input checks are pure, so each item is
 * re-checked alone; write-time errors (a missing relation target, a unique clash) name a
 * value, which points at the first line containing it. Otherwise the batch's range.
 */
function locateFailure(registry: Registry, ct: ContentType, batch: Item[], publish: boolean, error: Error): ImportLineError {
  for (const item of batch) {
    try {
      readModelInput(registry, ct, item.data, { mode: publish ? 'published' : 'draft', creating: true });
    } catch (itemError) {
      return new ImportLineError(item.line, (itemError as Error).message);
    }
  }
  const quoted = error.message.match(/"([^"]+)"/)?.[1];
  const suspect = quoted ? batch.find((item) => JSON.stringify(item.data).includes(JSON.stringify(quoted))) : undefined;
  if (suspect) return new ImportLineError(suspect.line, error.message);
  return new ImportLineError(batch[0]!.line, error.message, batch[batch.length - 1]!.line);
}

const rate = (count: number, ms: number) => Math.round((count * 1000) / Math.max(ms, 1)).toLocaleString('en-US');

export const importCommand: Command = {
  name: 'import',
  summary: 'bulk-create documents from a JSON Lines file',
  usage: `Usage: folio import FILE --type TYPE [--batch 1000] [--status draft] [--locale CODE]

TYPE is the content type's plural API id (articles), singular API id or uid (api::article.article).

Reads FILE (JSON Lines; "-" reads stdin) as a stream: one JSON object per line, shaped as
the "data" of a REST create request (relations as documentIds, components and dynamic
zones inline). Each batch of --batch lines is created in one transaction, exactly as
POST /api/<type> would create each document (published unless --status draft; in the
default locale unless --locale). Prints progress (count and rate) and a summary.

A bad line (invalid JSON or data, a missing relation target) stops the import with exit
code 1 and names the line: the batches before it are kept, nothing of its own batch is.

Also:
  folio import ARCHIVE [--force]   an archive of "folio export" or "folio backup": the whole
                                   installation, as "folio restore" (see folio restore --help)
  folio import strapi SOURCE       a Strapi project or "strapi export" archive
                                   (see folio import strapi --help)`,
  options: {
    type: { type: 'string' },
    batch: { type: 'string' },
    status: { type: 'string' },
    locale: { type: 'string' },
    force: { type: 'boolean' },
  },
  subcommands: [importStrapiCommand],
  async run({ values, positionals }) {
    if (positionals.length === 0) throw new UsageError('Missing FILE (a JSON Lines file, or - for stdin)');
    if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}"`);
    const file = positionals[0]!;
    // A whole-installation archive (folio export / backup): gzip or tar magic, not JSON Lines.
    if (file !== '-' && (await looksLikeArchive(file))) return restoreFromArchive(file, values);
    if (!values.type) throw new UsageError('Missing --type (the plural API id, e.g. articles, or a uid)');
    const batchSize = values.batch === undefined ? 1000 : Number(values.batch);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new UsageError('--batch must be a positive integer');
    const status = values.status as string | undefined;
    if (status !== undefined && status !== 'draft' && status !== 'published') throw new UsageError('--status must be draft or published');
    if (file !== '-') {
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) throw new Error(`Cannot read "${file}": no such file`);
    }

    return withInstance(values, async ({ registry, documents, locales, db }) => {
      const name = values.type as string;
      const ct = contentTypeArg(registry, name);
      if (ct.kind !== 'collectionType') throw new UsageError(`"${name}" is a single type; import creates documents of collection types`);
      const options = { status: status as 'draft' | 'published' | undefined, locale: values.locale as string | undefined, actor: CLI_ACTOR };
      const publish = !ct.draftAndPublish || status !== 'draft';
      if (options.locale !== undefined && ct.localized && !(await locales.exists(options.locale))) {
        throw new Error(`Locale "${options.locale}" does not exist (folio locales add ${options.locale})`);
      }

      await bulkLoadSettings(db);
      const endSearchBulkLoad = await beginSearchBulkLoad(db, ct);
      // The query planner needs table statistics (db/statistics.ts): refresh them as the
      // tables grow (1k, 2k, 4k…).
      let nextAnalyze = 1000;

      const started = performance.now();
      let count = 0;
      let lastReport = started;
      const flush = async (batch: Item[]) => {
        if (batch.length === 0) return;
        try {
          await documents.createMany(
            ct,
            batch.map((i) => i.data),
            options,
          );
        } catch (error) {
          throw locateFailure(registry, ct, batch, publish, error as Error);
        }
        count += batch.length;
        if (count >= nextAnalyze) {
          await refreshStatistics(db);
          while (nextAnalyze <= count) nextAnalyze *= 2;
        }
        const now = performance.now();
        if (now - lastReport >= 1000) {
          lastReport = now;
          console.log(`imported ${count.toLocaleString('en-US')} ${ct.pluralName} (${rate(count, now - started)}/s)`);
        }
      };

      let batch: Item[] = [];
      try {
        for await (const lines of readLines(file)) {
          for (const { line, text } of lines) {
            batch.push({ line, data: parseLine(line, text) });
            if (batch.length >= batchSize) {
              await flush(batch);
              batch = [];
            }
          }
        }
        await flush(batch);
        await refreshStatistics(db);
      } catch (error) {
        if (!(error instanceof ImportLineError)) throw error;
        console.error(`Error: ${error.message}`);
        console.error(`${count.toLocaleString('en-US')} document(s) imported before the failing batch were kept; none of that batch was.`);
        return 1;
      } finally {
        // The search index's merge policy goes back to the default, whatever stopped the import.
        await endSearchBulkLoad();
      }
      const ms = performance.now() - started;
      console.log(`done: imported ${count.toLocaleString('en-US')} ${ct.pluralName} in ${(ms / 1000).toFixed(1)} s (${rate(count, ms)}/s)`);
      return 0;
    });
  },
};
