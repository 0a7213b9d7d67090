/**
 * Reads a JSON request body with a size limit and a nesting limit. Bodies in other content
 * types are ignored (as Strapi's body parser does), so they end in "Missing data payload".
 */
import { readAtMost } from '../streams';
import { FolioError, PayloadTooLargeError, ValidationError } from '../errors';

/**
 * How deeply a JSON body may nest (`{}` and `[]` each count one level). Set where Strapi still
 * answers: it stores and returns a `json` attribute value nested 4,111 levels deep (4,112 is
 * its 500), which with the body object and `data` around it is a body 4,113 levels deep. The
 * limit is there for the stack, not for documents: deeper bodies used to reach code that
 * recurses per level (JSON.stringify overflowed at ~50,000 and answered 500), so they are
 * refused up front, with a 400 naming the limit.
 */
export const MAX_JSON_DEPTH = 4113;

/** What a body that is not JSON was sent as, and whether its text looks like JSON all the same (curl -d without a Content-Type). */
export interface NotJson {
  type: string;
  looksLikeJson: boolean;
}

const notJsonBodies = new WeakMap<Request, NotJson>();

/** After readJsonBody: a body it ignored for its content type, if any. */
export const ignoredBody = (request: Request) => notJsonBodies.get(request);

export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw new PayloadTooLargeError('request entity too large');
  if (!request.body) return undefined;
  const text = await bodyText(request, declared, limit);
  if (text === undefined) throw new PayloadTooLargeError('request entity too large');
  if (!/^application\/(.+\+)?json/i.test(type)) {
    const first = text.slice(0, 64).trimStart()[0];
    notJsonBodies.set(request, { type: type.split(';')[0]!.trim() || 'no Content-Type', looksLikeJson: first === '{' || first === '[' });
    return undefined;
  }
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new FolioError(400, 'SyntaxError', (error as Error).message);
  }
  if (jsonDepth(parsed, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ValidationError(`Request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`, { maxDepth: MAX_JSON_DEPTH });
  }
  return parsed;
}

/**
 * The body as text, or undefined past `limit`. A body whose length was declared (and checked
 * against the limit) is read whole by the server, which never reads past the declared length;
 * only a chunked one, whose length nobody knows beforehand, is read chunk by chunk and cut off
 * at the limit. Reading whole skips a stream reader per request (~2 % of a create's CPU).
 */
async function bodyText(request: Request, declared: number, limit: number): Promise<string | undefined> {
  if (Number.isSafeInteger(declared) && declared >= 0 && !request.headers.has('transfer-encoding')) {
    const text = await request.text();
    // A server that let more through than it declared would still be held to the limit.
    return text.length > limit ? undefined : text;
  }
  const bytes = await readAtMost(request.body!, limit);
  return bytes && new TextDecoder().decode(bytes);
}

/**
 * The nesting depth of a parsed JSON value, counted up to `cap + 1` (enough to know it is
 * too deep). Iterative with an explicit stack, so a value 500,000 levels deep costs one pass
 * over its nodes and no call-stack frames; it stops at the first container beyond the cap.
 */
export function jsonDepth(value: unknown, cap: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (depth > cap) return depth;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return deepest;
}
