/**
 * JSON Lines read from a stream of bytes in time and memory linear in the input: each chunk is
 * searched once for its newlines, the pieces of a line that spans chunks are kept as they came
 * and joined once, when the line ends, and a line longer than the limit is an error as soon as
 * it is (never read whole first). A newline byte never occurs inside a UTF-8 character, so
 * lines are cut on bytes and each decoded once.
 */

/** The longest line read from an archive's table or a file of documents: far above any row Folio writes. */
export const LINE_LIMIT = 64 * 1024 * 1024;

/** A size in MiB (or KiB), as limits are named in messages. */
export const sizeName = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`);

export interface Line {
  /** 1-based, counting every line of the input (blank ones too). */
  number: number;
  text: string;
}

/**
 * The non-blank lines of `input`, a chunk's worth at a time (one await per chunk, not per
 * line). `tooLong(number)` makes the error thrown for a line over `limit` bytes.
 */
export async function* splitLines(input: AsyncIterable<Uint8Array | string>, tooLong: (number: number) => Error, limit = LINE_LIMIT): AsyncGenerator<Line[]> {
  let pieces: Buffer[] = [];
  let pending = 0;
  let number = 0;
  const take = (chunk: Buffer, from: number, to: number): string => {
    if (pieces.length === 0) return chunk.toString('utf8', from, to);
    const text = Buffer.concat([...pieces, chunk.subarray(from, to)]).toString('utf8');
    pieces = [];
    pending = 0;
    return text;
  };
  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    const lines: Line[] = [];
    let from = 0;
    for (let at = chunk.indexOf(10, from); at >= 0; at = chunk.indexOf(10, from)) {
      number++;
      if (pending + (at - from) > limit) throw tooLong(number);
      const text = take(chunk, from, at);
      from = at + 1;
      if (text.trim()) lines.push({ number, text });
    }
    if (from < chunk.length) {
      pending += chunk.length - from;
      if (pending > limit) throw tooLong(number + 1);
      pieces.push(chunk.subarray(from));
    }
    if (lines.length) yield lines;
  }
  if (pieces.length) {
    const text = Buffer.concat(pieces).toString('utf8');
    pieces = [];
    if (text.trim()) yield [{ number: number + 1, text }];
  }
}
