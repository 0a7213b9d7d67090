/**
 * The link writer's pure steps without a database: what a plan asks for (documents/relations/plan.ts)
 * and what the decisions make of it and of what was read (documents/relations/apply.ts
 * decideLinks): positions, pinned statuses, set, duplicates, missing targets, polymorphic keys.
 */
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import type { IncomingLink, NewLink, OwnerRow, TargetVersion } from '../../../src/db/store/links';
import { decideInverse, decideLinks } from '../../../src/documents/relations/apply';
import type { RelationTarget, RelationWrite } from '../../../src/documents/relations/input';
import type { LinkContext } from '../../../src/documents/relations/link-keys';
import type { MorphTarget, MorphWrite } from '../../../src/documents/relations/morph-input';
import { type InverseSource, type LinkSource, planInverse, planLinks } from '../../../src/documents/relations/plan';
import { linksByRow } from '../../../src/documents/relations/writer';
import { type LinkReads, pinRowTargets, type StoredListItem } from '../../../src/documents/relations/read';
import { ValidationError } from '../../../src/errors';
import { loadRegistry } from '../../../src/registry/load';
import type { AnyModel, MorphAttribute, Registry, RelationAttribute } from '../../../src/registry/types';

const example = loadRegistry(resolve(import.meta.dir, '../../../content-types'));
const pinned = loadRegistry(resolve(import.meta.dir, '../../fixtures/pinned'));
const morph = loadRegistry(resolve(import.meta.dir, '../../fixtures/morph'));
const article = example.contentType('api::article.article')!;
const page = pinned.contentType('api::page.page')!;
const comment = morph.contentType('api::comment.comment')!;
const tags = article.attributes.tags as RelationAttribute;
const notes = page.attributes.notes as RelationAttribute;

const contextOf = (model: typeof article): LinkContext => ({ contentType: model, locale: 'en', status: 'draft', defaultLocale: 'en' });
const version = (documentId: string, locale = '', status: 'draft' | 'published' = 'draft', lastInverseRank: string | null = null): TargetVersion => ({
  documentId,
  locale,
  status,
  lastInverseRank,
});

/** Plans one source's writes and decides them against the versions and the current list given. */
function decide(
  registry: Registry,
  model: AnyModel,
  writes: { relations?: Record<string, RelationWrite>; morphs?: Record<string, MorphWrite> },
  found: { attribute?: RelationAttribute; type?: string; versions: TargetVersion[] }[],
  list?: { attribute: RelationAttribute | MorphAttribute; links: StoredListItem[] },
) {
  const source: LinkSource = { rowIds: [7], fresh: list === undefined, relations: writes.relations ?? {}, morphs: writes.morphs };
  const plan = planLinks(registry, model, [source], contextOf(model as typeof article));
  const reads: LinkReads = { targets: new Map(), morphTargets: new Map(), lists: new Map() };
  for (const f of found) {
    if (f.attribute) reads.targets.set(f.attribute, f.versions);
    else reads.morphTargets.set(f.type!, f.versions);
  }
  if (list) reads.lists.set(list.attribute, new Map([[7, list.links]]));
  return { plan, changes: decideLinks(plan, reads) };
}

const tagVersions = ['t1', 't2', 't3', 't4'].map((id) => version(id, '', 'draft', 'a5'));
/** Article 7's tags t1 (a0), t2 (a1), t3 (a2). */
const tagList = (): StoredListItem[] => [
  { id: 1, documentId: 't1', locale: '', status: '', rank: 'a0' },
  { id: 2, documentId: 't2', locale: '', status: '', rank: 'a1' },
  { id: 3, documentId: 't3', locale: '', status: '', rank: 'a2' },
];
const connect = (...targets: RelationTarget[]): RelationWrite => ({
  op: 'patch',
  connect: targets,
  disconnect: [],
});

describe('plan', () => {
  test('asks for the targets of every write and the lists of rows that are not new only', () => {
    const relations: Record<string, RelationWrite> = { tags: connect({ documentId: 't1' }), category: { op: 'set', targets: [{ documentId: 'c1' }] } };
    const fresh = planLinks(example, article, [{ rowIds: [1, 2], fresh: true, relations }], contextOf(article));
    expect([...fresh.targets].map(([a, ids]) => [a.name, [...ids]])).toEqual([
      ['tags', ['t1']],
      ['category', ['c1']],
    ]);
    expect(fresh.lists.size).toBe(0);
    const existing = planLinks(example, article, [{ rowIds: [3], fresh: false, relations }], contextOf(article));
    expect([...existing.lists].map(([a, rows]) => [a.name, rows])).toEqual([
      ['tags', [3]],
      ['category', [3]],
    ]);
  });

  test('gives a localized target the source locale, and pins a status only from a source without draft & publish', () => {
    const plan = planLinks(
      pinned,
      page,
      [
        {
          rowIds: [1],
          fresh: true,
          relations: { notes: connect({ documentId: 'n1', status: 'published' }), posts: connect({ documentId: 'p1', locale: 'fr' }) },
        },
      ],
      contextOf(page as typeof article),
    );
    expect(plan.writes.map((w) => w.connect[0]!.key)).toEqual([
      { documentId: 'n1', locale: '', status: 'published' },
      { documentId: 'p1', locale: 'fr', status: '' },
    ]);
  });

  test('keys a polymorphic target by its type', () => {
    const mentions: MorphWrite = { op: 'set', targets: [{ type: 'api::video.video', documentId: 'v1' }] };
    const plan = planLinks(morph, comment, [{ rowIds: [1], fresh: true, relations: {}, morphs: { mentions } }], contextOf(comment as typeof article));
    expect(plan.writes[0]!.checked).toEqual([{ type: 'api::video.video', documentId: 'v1', locale: '', status: '' }]);
    expect([...plan.morphTargets].map(([type, ids]) => [type.uid, [...ids]])).toEqual([['api::video.video', ['v1']]]);
  });
});

describe('decisions', () => {
  test('connects at the start, at the end, before and after an anchor', () => {
    const at = (position: object) => {
      const { changes } = decide(
        example,
        article,
        { relations: { tags: connect({ documentId: 't4', position: position as never }) } },
        [{ attribute: tags, versions: tagVersions }],
        {
          attribute: tags,
          links: tagList(),
        },
      );
      const [row] = changes.inserted.get(tags)!;
      // Its place in the list: how many of the current keys sort before it.
      return ['a0', 'a1', 'a2'].filter((rank) => rank < row!.rank).length;
    };
    expect(at({ start: true })).toBe(0);
    expect(at({ end: true })).toBe(3);
    expect(at({ before: 't2' })).toBe(1);
    expect(at({ after: 't2' })).toBe(2);
  });

  test('moves a connected link already in the list instead of adding one, and keys a new link after the target’s last inverse key', () => {
    const { changes } = decide(
      example,
      article,
      { relations: { tags: connect({ documentId: 't1', position: { end: true } }, { documentId: 't4' }) } },
      [{ attribute: tags, versions: tagVersions }],
      {
        attribute: tags,
        links: tagList(),
      },
    );
    expect(changes.updated).toEqual([{ attribute: tags, id: 1, rank: expect.any(String) }]);
    expect(changes.updated[0]!.rank! > 'a2').toBe(true);
    const [row] = changes.inserted.get(tags)!;
    expect(row!.rank > changes.updated[0]!.rank!).toBe(true);
    expect(row!.inverseRank > 'a5').toBe(true);
    expect(changes.deleted.size).toBe(0);
  });

  test('refuses an anchor that is not in the list, in Strapi’s words', () => {
    expect(() =>
      decide(
        example,
        article,
        { relations: { tags: connect({ documentId: 't4', position: { before: 't9' } }) } },
        [{ attribute: tags, versions: tagVersions }],
        {
          attribute: tags,
          links: tagList(),
        },
      ),
    ).toThrow('There was a problem connecting relation with id t4 at position {"before":"t9"}. The relation with id t9 needs to be connected first.');
  });

  test('turns a link to both statuses into a link to the other one when a disconnect pins one status', () => {
    const links: StoredListItem[] = [{ id: 5, documentId: 'n1', locale: '', status: '', rank: 'a0' }];
    const versions = [version('n1', '', 'draft'), version('n1', '', 'published')];
    const { changes } = decide(
      pinned,
      page,
      { relations: { notes: { op: 'patch', connect: [], disconnect: [{ documentId: 'n1', status: 'draft' }] } } },
      [{ attribute: notes, versions }],
      { attribute: notes, links },
    );
    expect(changes.updated).toEqual([{ attribute: notes, id: 5, status: 'published' }]);
    expect(changes.deleted.size).toBe(0);
    // Without a status, every link of the document goes.
    const all = decide(
      pinned,
      page,
      { relations: { notes: { op: 'patch', connect: [], disconnect: [{ documentId: 'n1' }] } } },
      [{ attribute: notes, versions }],
      {
        attribute: notes,
        links: [{ id: 5, documentId: 'n1', locale: '', status: '', rank: 'a0' }],
      },
    );
    expect(all.changes.deleted.get(notes)).toEqual([5]);
    expect(all.changes.updated).toEqual([]);
  });

  test('replaces a list on set: links that stay keep their row, the others go, new targets are added in order', () => {
    const { changes } = decide(
      example,
      article,
      { relations: { tags: { op: 'set', targets: [{ documentId: 't3' }, { documentId: 't4' }] } } },
      [{ attribute: tags, versions: tagVersions }],
      {
        attribute: tags,
        links: tagList(),
      },
    );
    expect(changes.deleted.get(tags)).toEqual([1, 2]);
    expect(changes.updated.map((u) => u.id)).toEqual([3]);
    const inserted = changes.inserted.get(tags)!;
    expect(inserted.map((l) => l.key.documentId)).toEqual(['t4']);
    expect(changes.updated[0]!.rank! < inserted[0]!.rank).toBe(true);
  });

  test('refuses the same target twice in one connect or set, and a link to both statuses beside a pinned one', () => {
    const twice = () =>
      decide(example, article, { relations: { tags: connect({ documentId: 't1' }, { documentId: 't1', position: { start: true } }) } }, [
        { attribute: tags, versions: tagVersions },
      ]);
    expect(twice).toThrow(new ValidationError('The relation with id t1 is already connected. You cannot connect the same relation twice.'));
    const set = () =>
      decide(example, article, { relations: { tags: { op: 'set', targets: [{ documentId: 't2' }, { documentId: 't2' }] } } }, [
        { attribute: tags, versions: tagVersions },
      ]);
    expect(set).toThrow('The relation with id t2 is already connected.');
    const versions = [version('n1', '', 'draft'), version('n1', '', 'published')];
    const both = () =>
      decide(pinned, page, { relations: { notes: connect({ documentId: 'n1' }, { documentId: 'n1', status: 'draft' }) } }, [{ attribute: notes, versions }]);
    expect(both).toThrow('The relation with id n1 is already connected.');
    // One link per status is two versions: allowed.
    const each = decide(pinned, page, { relations: { notes: connect({ documentId: 'n1', status: 'draft' }, { documentId: 'n1', status: 'published' }) } }, [
      { attribute: notes, versions },
    ]);
    expect(each.changes.inserted.get(notes)!.map((l) => l.key.status)).toEqual(['draft', 'published']);
  });

  test('refuses a target without the version a key names, with the relation, type and documentId in details', () => {
    const missing = () =>
      decide(pinned, page, { relations: { notes: connect({ documentId: 'n1', status: 'published' }) } }, [{ attribute: notes, versions: [version('n1')] }]);
    expect(missing).toThrow('Document with id "n1" not found: the relation notes points at api::note.note, which has no such document');
    try {
      missing();
    } catch (error) {
      expect((error as ValidationError).details).toEqual({ path: ['notes'], type: 'api::note.note', documentId: 'n1', locale: null });
    }
  });

  test('gives a new row and the rows inserted beside it the same links, at the same keys in both lists', () => {
    const plan = planLinks(
      example,
      article,
      [{ rowIds: [10, 11], fresh: true, relations: { tags: connect({ documentId: 't1' }, { documentId: 't2' }) } }],
      contextOf(article),
    );
    const changes = decideLinks(plan, { targets: new Map([[tags, tagVersions]]), morphTargets: new Map(), lists: new Map() });
    const rows = changes.inserted.get(tags)!;
    expect(rows.map((r) => [r.rowId, r.key.documentId])).toEqual([
      [10, 't1'],
      [10, 't2'],
      [11, 't1'],
      [11, 't2'],
    ]);
    expect(rows.slice(0, 2).map((r) => [r.rank, r.inverseRank])).toEqual(rows.slice(2).map((r) => [r.rank, r.inverseRank]));
  });

  test('writes polymorphic links by the same rules, checking each target in its own type', () => {
    const mentions = comment.attributes.mentions as MorphAttribute;
    const links: StoredListItem[] = [{ id: 9, type: 'api::video.video', documentId: 'v1', locale: '', status: '', rank: 'a0' }];
    const write: MorphWrite = {
      op: 'patch',
      connect: [{ type: 'api::article.article', documentId: 'a1' }],
      disconnect: [{ type: 'api::video.video', documentId: 'v1' }],
    };
    const found = [
      { type: 'api::article.article', versions: [version('a1', 'en')] },
      { type: 'api::video.video', versions: [version('v1')] },
    ];
    const { changes } = decide(morph, comment, { morphs: { mentions: write } }, found, { attribute: mentions, links });
    expect(changes.deleted.get(mentions)).toEqual([9]);
    expect(changes.morphInserted.get(mentions)!.map((l) => l.key)).toEqual([{ type: 'api::article.article', documentId: 'a1', locale: 'en', status: '' }]);
    const absent = () =>
      decide(morph, comment, { morphs: { mentions: write } }, [found[0]!, { type: 'api::video.video', versions: [] }], { attribute: mentions, links });
    expect(absent).toThrow('Document with id "v1" not found: the relation mentions points at api::video.video');
  });

  test('maps polymorphic targets named by row id to their version, refusing an id of another document', () => {
    const targets: MorphTarget[] = [
      { type: 'api::video.video', documentId: '', id: 4 },
      { type: 'api::article.article', documentId: '', id: 4 },
    ];
    pinRowTargets('api::video.video', targets, new Map([[4, { documentId: 'v4' }]]));
    expect(targets).toEqual([
      { type: 'api::video.video', documentId: 'v4', id: 4, locale: undefined, status: undefined },
      { type: 'api::article.article', documentId: '', id: 4 },
    ]);
    pinRowTargets('api::article.article', targets, new Map([[4, { documentId: 'a4', locale: 'fr', status: 'published' }]]));
    expect(targets[1]).toEqual({ type: 'api::article.article', documentId: 'a4', id: 4, locale: 'fr', status: 'published' });
    const clash: MorphTarget[] = [{ type: 'api::video.video', documentId: 'v9', id: 4 }];
    expect(() => pinRowTargets('api::video.video', clash, new Map([[4, { documentId: 'v4' }]]))).toThrow(
      'Invalid relation: id 4 is not a version of document "v9"',
    );
  });
});

describe('decisions on an inverse side (tag.articles, category.articles)', () => {
  const tag = example.contentType('api::tag.tag')!;
  const category = example.contentType('api::category.category')!;
  const row = (id: number, documentId: string, status: 'draft' | 'published', lastRank: string | null = null): OwnerRow => ({
    id,
    documentId,
    locale: 'en',
    status,
    lastRank,
  });
  const rows = [
    row(11, 'a1', 'draft'),
    row(12, 'a1', 'published'),
    row(21, 'a2', 'draft'),
    row(22, 'a2', 'published'),
    row(31, 'a3', 'draft', 'a5'),
    row(32, 'a3', 'published'),
  ];
  /** Articles a1 (at a0) and a2 (at a1) link the tag, draft and published. */
  const incoming = (): IncomingLink[] => [
    { id: 1, sourceId: 11, documentId: 'a1', status: 'draft', inverseRank: 'a0' },
    { id: 2, sourceId: 12, documentId: 'a1', status: 'published', inverseRank: 'a0' },
    { id: 3, sourceId: 21, documentId: 'a2', status: 'draft', inverseRank: 'a1' },
    { id: 4, sourceId: 22, documentId: 'a2', status: 'published', inverseRank: 'a1' },
  ];
  const decide = (source: Partial<InverseSource> & { relations: Record<string, RelationWrite> }, owners = rows, links = incoming()) => {
    const planned = planInverse({ contentType: tag, documentId: 't1', locale: '', defaultLocale: 'en', statuses: ['draft', 'published'], ...source });
    return decideInverse(
      planned,
      planned.map(() => ({ rows: owners, incoming: links })),
    )[0]!;
  };

  test('links every version of a connected owner at the end of its own list, at the place asked in this list', () => {
    const changes = decide({ relations: { articles: connect({ documentId: 'a3', position: { before: 'a2' } }) } });
    expect(changes.inserted.map((l) => [l.rowId, l.key])).toEqual([
      [31, { documentId: 't1', locale: '', status: '' }],
      [32, { documentId: 't1', locale: '', status: '' }],
    ]);
    expect(changes.inserted[0]!.rank > 'a5').toBe(true);
    for (const link of changes.inserted) expect(link.inverseRank > 'a0' && link.inverseRank < 'a1').toBe(true);
    expect([changes.deleted, changes.cleared, changes.moved]).toEqual([[], [], []]);
  });

  test('moves an owner already linked instead of linking it again, and unlinks only the drafts on a draft-only write', () => {
    const moved = decide({ relations: { articles: connect({ documentId: 'a1', position: { end: true } }) } });
    expect(moved.moved.map((m) => m.id)).toEqual([1, 2]);
    expect(moved.moved[0]!.inverseRank > 'a1').toBe(true);
    expect(moved.inserted).toEqual([]);
    const draftOnly = decide({ statuses: ['draft'], relations: { articles: { op: 'patch', connect: [], disconnect: [{ documentId: 'a1' }] } } });
    expect(draftOnly.deleted).toEqual([1]);
  });

  test('replaces the list on set, and refuses an owner document that is not there or named twice', () => {
    const set = decide({ relations: { articles: { op: 'set', targets: [{ documentId: 'a3' }] } } });
    expect(set.deleted).toEqual([1, 2, 3, 4]);
    expect(set.inserted.map((l) => l.rowId)).toEqual([31, 32]);
    expect(() => decide({ relations: { articles: connect({ documentId: 'a9' }) } })).toThrow('Document with id "a9" not found in locale "en"');
    expect(() => decide({ relations: { articles: connect({ documentId: 'a3' }, { documentId: 'a3' }) } })).toThrow(
      'The relation with id a3 is already connected.',
    );
  });

  test('takes a to-one owner from its previous target: its other link goes (category.articles, owned by article.category)', () => {
    const planned = planInverse({
      contentType: category,
      documentId: 'c1',
      locale: 'en',
      defaultLocale: 'en',
      statuses: ['draft', 'published'],
      relations: { articles: connect({ documentId: 'a3' }) },
    });
    const [changes] = decideInverse(planned, [{ rows, incoming: [] }]);
    expect(changes!.cleared).toEqual([31, 32]);
    // The owner's list starts again: its one link is the first.
    expect(changes!.inserted.map((l) => [l.rowId, l.rank, l.key.locale])).toEqual([
      [31, 'a0', 'en'],
      [32, 'a0', 'en'],
    ]);
  });
});

describe('the rows a write inserted, by row (what a create hands content history)', () => {
  const row = (rowId: number, documentId: string, rank: string): NewLink => ({ rowId, key: { documentId, locale: '', status: '' }, rank, inverseRank: 'a0' });
  const category = article.attributes.category as RelationAttribute;

  test("gives each row its own rows of each attribute, in the order inserted, whether a source's rows come together or not", () => {
    const byRow = linksByRow(
      new Map([
        [tags, [row(1, 't1', 'a0'), row(1, 't2', 'a1'), row(2, 't1', 'a0'), row(3, 't3', 'a0'), row(1, 't3', 'a2'), row(2, 't2', 'a1')]],
        [category, [row(2, 'c1', 'a0'), row(1, 'c2', 'a0')]],
      ]),
    );
    const keys = (rowId: number, attribute: RelationAttribute) =>
      byRow
        .get(rowId)
        ?.get(attribute)
        ?.map((l) => l.key.documentId);
    expect([...byRow.keys()]).toEqual([1, 2, 3]);
    expect(keys(1, tags)).toEqual(['t1', 't2', 't3']);
    expect(keys(2, tags)).toEqual(['t1', 't2']);
    expect(keys(3, tags)).toEqual(['t3']);
    expect(keys(1, category)).toEqual(['c2']);
    expect(keys(2, category)).toEqual(['c1']);
    expect(byRow.get(3)?.has(category)).toBe(false);
  });
});
