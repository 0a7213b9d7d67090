/**
 * Reading a body whole, but never more than a limit: chunk by chunk, so a chunked body
 * without Content-Length cannot grow past it either. A leaf: the HTTP layer's request bodies
 * and the answers of outside services (OAuth providers) read through it.
 */

/** The bytes of `body`, or undefined once they pass `limit` (the stream is cancelled then). */
export async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
