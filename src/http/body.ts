/**
 * Reads a JSON request body with a size limit. Bodies in other content types are
 * ignored (as Strapi's body parser does), so they end in "Missing data payload".
 */
import { FolioError, PayloadTooLargeError } from '../errors';

export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw new PayloadTooLargeError('request entity too large');
  if (!request.body) return undefined;
  // Read chunk by chunk so a chunked upload without Content-Length cannot exceed the limit either.
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new PayloadTooLargeError('request entity too large');
    }
    chunks.push(value);
  }
  if (!/^application\/(.+\+)?json/i.test(type)) return undefined;
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new FolioError(400, 'SyntaxError', (error as Error).message);
  }
}
