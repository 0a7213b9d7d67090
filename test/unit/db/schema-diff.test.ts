import { describe, expect, it } from 'bun:test';
import { conversionOf, diffSnapshots, type AttributeShape, type Snapshot } from '../../../src/db/schema-diff';

const model = (attributes: Record<string, AttributeShape>): Snapshot => ({ 'api::post.post': { tableName: 'posts', attributes } });
const diffOf = (before: Record<string, AttributeShape>, after: Record<string, AttributeShape>) => diffSnapshots(model(before), model(after))[0];
const string: AttributeShape = { kind: 'scalar', type: 'string' };

describe('schema diff', () => {
  it('reports nothing for an unchanged model, and nothing for a model the snapshot does not hold yet', () => {
    expect(diffSnapshots(model({ title: string }), model({ title: string }))).toEqual([]);
    expect(diffSnapshots({}, model({ title: string }))).toEqual([]);
  });

  it('pairs one removed and one added attribute of the same kind as a rename', () => {
    const diff = diffOf({ title: string, summary: string }, { title: string, abstract: string });
    expect(diff.removed).toEqual(['summary']);
    expect(diff.added).toEqual(['abstract']);
    expect(diff.renamed).toEqual([['summary', 'abstract']]);
  });

  it('names no rename when the kinds differ or two candidates could match', () => {
    expect(diffOf({ summary: string }, { abstract: { kind: 'scalar', type: 'text' } }).renamed).toEqual([]);
    expect(diffOf({ summary: string }, { a: string, b: string }).renamed).toEqual([]);
    const tags: AttributeShape = { kind: 'relation', target: 'api::tag.tag', relation: 'manyToMany' };
    expect(diffOf({ tags }, { labels: { ...tags, target: 'api::category.category' } }).renamed).toEqual([]);
    expect(diffOf({ tags }, { labels: tags }).renamed).toEqual([['tags', 'labels']]);
  });

  it('classifies type changes: clean ones convert, others and changes of kind are refused', () => {
    const diff = diffOf(
      { views: { kind: 'scalar', type: 'integer' }, title: string, body: string, cover: { kind: 'media' } },
      { views: { kind: 'scalar', type: 'biginteger' }, title: { kind: 'scalar', type: 'integer' }, body: { kind: 'scalar', type: 'text' }, cover: string },
    );
    expect(diff.typeChanged.map((c) => [c.name, c.conversion])).toEqual([
      ['views', 'convert'],
      ['title', 'refuse'],
      ['body', 'convert'],
      ['cover', 'refuse'],
    ]);
    expect(conversionOf('enumeration', 'string')).toBe('convert');
    expect(conversionOf('text', 'string')).toBe('refuse');
    expect(conversionOf('float', 'integer')).toBe('refuse');
  });

  it('lists attributes that became required (new ones included) and scalars that became unique', () => {
    const diff = diffOf(
      { title: string, slug: string },
      { title: { ...string, required: true }, slug: { ...string, unique: true }, subtitle: { ...string, required: true } },
    );
    expect(diff.newlyRequired).toEqual(['title', 'subtitle']);
    expect(diff.newlyUnique).toEqual(['slug']);
  });
});
