/**
 * GraphQL over HTTP against a test server: `gql(server, query, variables, headers)` POSTs
 * an operation as a front end does and returns the status and the parsed body.
 */
import type { TestServer } from '../helpers/server';

export async function gql(server: TestServer, query: string, variables?: object, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}
