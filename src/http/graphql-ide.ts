/**
 * The GraphQL IDE served at the endpoint to a browser when the landing page is on. Placeholder.
 */
export function graphqlIde(endpoint: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Folio GraphQL</title></head><body><p>POST GraphQL operations to ${endpoint}.</p></body></html>`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}
