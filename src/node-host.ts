/**
 * The child process behind the package's Node entry (node/index.cjs): Node cannot load Folio
 * (TypeScript on Bun), so `startFolio()` under Node (Vitest, Jest, Playwright's runner)
 * starts this in Bun, or in the compiled binary, as `folio __node-host`. The protocol:
 *
 *   stdin   one line: the options of startFolio() as JSON (paths relative to the working
 *           folder, which the parent sets to its own); the parent then keeps stdin open;
 *   stdout  one line `FOLIO_HOST_READY {url, tokens, seeded, contentTypes, documentsToken}`,
 *           or `FOLIO_HOST_ERROR {message}` and exit 1; any other line is Folio's log;
 *   end     stdin closing (stop(), or the parent gone) or SIGTERM stops Folio, removes its
 *           temporary folders and exits 0.
 *
 * `documents` calls of the Node entry go over HTTP with `documentsToken`: a full-access token
 * the options asked for, or one more named `node-documents` when they asked for none.
 */
import { startFolio, type Folio, type FolioOptions } from './index';

export const HOST_READY = 'FOLIO_HOST_READY ';
export const HOST_ERROR = 'FOLIO_HOST_ERROR ';
/** The token `documents` calls use when the options create no full-access one. */
export const DOCUMENTS_TOKEN = 'node-documents';

/** The first line of stdin, at most 64 MiB (a seed and its schemas); stdin stays open (its end is the signal to stop). */
function firstLine(): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  return new Promise((resolve, reject) => {
    const done = (fn: () => void) => {
      process.stdin.off('data', onData);
      process.stdin.off('end', onEnd);
      process.stdin.pause();
      fn();
    };
    const onData = (chunk: Uint8Array | string) => {
      text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      const end = text.indexOf('\n');
      if (end >= 0) done(() => resolve(text.slice(0, end)));
      else if (text.length > 64 * 1024 * 1024) done(() => reject(new Error('the options are larger than 64 MiB')));
    };
    const onEnd = () => done(() => resolve(text));
    process.stdin.on('data', onData);
    process.stdin.on('end', onEnd);
  });
}

/** Waits for the parent to let go: stdin ends (stop(), or the parent is gone) or a signal comes. */
function released(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.on('end', () => resolve());
    process.stdin.on('close', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
    // Whatever else comes is read and dropped, so the end is seen.
    process.stdin.on('data', () => {});
    process.stdin.resume();
  });
}

export async function runNodeHost(): Promise<number> {
  let folio: Folio | undefined;
  try {
    const options = JSON.parse(await firstLine()) as FolioOptions;
    folio = await startFolio(options);
    const names = options.tokens === undefined ? ['full-access', 'read-only'] : Array.isArray(options.tokens) ? options.tokens : Object.keys(options.tokens);
    const tokens = Object.fromEntries(names.map((name) => [name, folio!.token(name)]));
    const list = await folio.instance.tokens.list();
    const full = list.find((t) => t.type === 'full-access' && t.name in tokens);
    const documentsToken = full
      ? tokens[full.name]!
      : (await folio.instance.tokens.create(DOCUMENTS_TOKEN, 'full-access', undefined, 'documents calls of the Node entry')).accessKey;
    const contentTypes = folio.instance.registry.contentTypes
      .filter((ct) => !ct.system)
      .map((ct) => ({
        uid: ct.uid,
        kind: ct.kind,
        singularName: ct.singularName,
        pluralName: ct.pluralName,
        draftAndPublish: ct.draftAndPublish,
        localized: ct.localized,
      }));
    process.stdout.write(`${HOST_READY}${JSON.stringify({ url: folio.url, tokens, seeded: folio.seeded, contentTypes, documentsToken })}\n`);
  } catch (error) {
    process.stdout.write(`${HOST_ERROR}${JSON.stringify({ message: (error as Error)?.message ?? String(error) })}\n`);
    await folio?.stop();
    return 1;
  }
  await released();
  await folio.stop();
  return 0;
}
