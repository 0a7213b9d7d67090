/**
 * Seeding and reading relations over REST, shared by the relation tests (test/relations/):
 * create and update documents through the API as a client does, and read back the names
 * or titles of a relation in the order the API returns them.
 *
 * Takes the server as a getter, so a test file can build its helpers at the top level and
 * start the server in beforeAll: `const { create, put } = relationSeed(() => server);`.
 */
import { expect } from 'bun:test';
import type { TestServer } from './server';

/** Tag names are unique, so each seeded tag gets a `~N` suffix that the readers strip again. */
export const plain = (name: string) => name.replace(/~\d+$/, '');

export function relationSeed(server: () => TestServer) {
  let seq = 0;

  /** POSTs `data` to /api/`type` and returns the new documentId (throws unless 201). */
  async function create(type: string, data: Record<string, unknown>, query = ''): Promise<string> {
    const res = await server().call('POST', `/api/${type}${query}`, { body: { data } });
    if (res.status !== 201) throw new Error(`POST ${type} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.documentId;
  }

  /** PUTs `data` to /api/`path` and returns the document written (throws unless 200). */
  async function put(path: string, data: Record<string, unknown>) {
    const res = await server().call('PUT', `/api/${path}`, { body: { data } });
    if (res.status !== 200) throw new Error(`PUT ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  /** A tag named `name` (made unique); `query` e.g. `?status=draft`. */
  const tag = (name: string, query = '') => create('tags', { name: `${name}~${++seq}` }, query);

  /** Tags by name → documentId, created in the order given. */
  async function makeTags(...names: string[]): Promise<Record<string, string>> {
    const ids: Record<string, string> = {};
    for (const name of names) ids[name] = await tag(name);
    return ids;
  }

  /** The related names/titles of `path`'s `attr`, in the order a read returns them (null for an empty to-one). */
  async function rel(path: string, attr: string, field: string, query = ''): Promise<string[] | string | null> {
    const res = await server().call('GET', `/api/${path}?populate[${attr}][fields][0]=${field}${query}`);
    expect(res.status).toBe(200);
    const value = res.body.data[attr];
    if (value === null) return null;
    return Array.isArray(value) ? value.map((x: any) => plain(x[field])) : plain(value[field]);
  }

  return {
    create,
    put,
    tag,
    makeTags,
    rel,
    tagsOf: (id: string, query = '') => rel(`articles/${id}`, 'tags', 'name', query),
    articlesOfTag: (id: string, query = '') => rel(`tags/${id}`, 'articles', 'title', query),
  };
}
