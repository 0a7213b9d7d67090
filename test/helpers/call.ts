/**
 * One HTTP call as the tests make them: JSON in and out, against a server's base URL.
 * Shared by the spawned servers (spawn.ts) and open to the in-process ones (server.ts).
 */
export interface CallOptions {
  /** Sent as JSON (with `content-type: application/json` unless a header says otherwise). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as is, instead of `body`. */
  raw?: string;
}

export interface CallResult {
  status: number;
  /** The parsed JSON body; a body that is not JSON stays text, an empty one is null. */
  body: any;
  headers: Headers;
}

export async function callJson(base: string, method: string, path: string, { body, headers = {}, raw }: CallOptions = {}): Promise<CallResult> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (raw !== undefined) init.body = raw;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const response = await fetch(base + path, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed, headers: response.headers };
}
