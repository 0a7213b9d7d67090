/**
 * Query-string generator for the HTTP fuzz test (test/http/fuzz.test.ts), and the seeded
 * PRNG it and the body generator (fuzz-body.ts) share. Query strings come from a grammar
 * of Strapi's REST query language, read off the content types: filters with every
 * operator, through relations and components; sort, fields, populate with `*`, nesting
 * and `on` fragments for dynamic zones; pagination, status, locale. They are then mutated
 * the ways that hurt servers: unknown keys, wrong shapes, huge numbers, empty values,
 * unicode, NUL, percent-encoded lone surrogates, long strings, repeated and deep keys.
 *
 * Everything is drawn from a PRNG seeded by (seed, stream, index), so any one request can
 * be generated again on its own from the numbers a failure prints.
 */
import type { AnyModel, ContentType, Registry, ScalarAttribute } from '../../src/registry/types';

export type Rng = () => number;

/** mulberry32: tiny, fast, and good enough to steer a fuzzer. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The PRNG of one request: FNV-1a of "stream:index" mixed with the seed. */
export function rngFor(seed: number, stream: string, index: number): Rng {
  let h = 2166136261 ^ seed;
  for (const ch of `${stream}:${index}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return mulberry32(h);
}

export class Gen {
  constructor(readonly rng: Rng) {}
  int = (n: number) => Math.floor(this.rng() * n);
  range = (lo: number, hi: number) => lo + this.int(hi - lo + 1);
  chance = (p: number) => this.rng() < p;
  pick = <T>(list: readonly T[]): T => list[this.int(list.length)]!;
  word = () => this.pick(WORDS);
  text = (max = 4) => Array.from({ length: this.range(1, max) }, () => this.word()).join(' ');
}

const WORDS = [
  'alpha',
  'Bravo',
  'news',
  'guide',
  'Article',
  'seed',
  'été',
  'Straße',
  'İstanbul',
  '日本語',
  'emoji 🎉',
  'x',
  'a_b',
  '%',
  '50%',
  "O'Brien",
  'a"b',
  'back\\slash',
  '*',
  '?',
  'NULL',
  'ǅ',
];
export const UNICODE = ['é', 'ß', 'ﬁ', 'İ', '日本', '🎉', '👩‍👩‍👧', '\u202e', 'e\u0301', '\ufeff', '\u200b', 'Ω', '\uffff', '\ud83d\ude00'];
/** Percent-level fragments spliced into query strings as they are: NUL, CESU-encoded lone surrogates, broken escapes. */
const RAW_FRAGMENTS = [
  '%00',
  '%ED%A0%80',
  '%ED%B3%BF',
  '%F0%9F%98',
  '%C0%80',
  '%FF',
  '%uD800',
  '%',
  '%zz',
  '%2',
  '+',
  '%2B',
  '%26',
  '%3D',
  '%5B',
  '%5D',
  '[',
  ']',
  '%E2%80%AE',
  '%EF%BB%BF',
  '%0A',
  '%22',
];
const NUMBERS = ['0', '1', '2', '3', '5', '10', '25', '100'];
const BAD_NUMBERS = [
  '-1',
  '101',
  '-0',
  '1.5',
  '1e3',
  '1e400',
  '0x1f',
  '2147483648',
  '9007199254740993',
  '99999999999999999999',
  '-9223372036854775809',
  'Infinity',
  'NaN',
  ' 7',
  '',
];
export const HUGE_NUMBERS = ['1e308', '99999999999999999999999999', '9007199254740993', '-9223372036854775809', '2147483648', '1e400', '4294967296'];
const FIELD_OPERATORS = [
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$notIn',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$null',
  '$notNull',
  '$between',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
] as const;
const SYSTEM_FIELDS = ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale'];
export const STRANGE_KEYS = [
  'foo',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'id',
  'documentId',
  'localizations',
  'status',
  'locale',
  '$eq',
  '$where',
  'populate',
  'filters',
  '0',
  '-1',
  '1e3',
];

/** What the generators may point at: content ids by type uid, and file ids. */
export interface Pool {
  ids: Record<string, string[]>;
  fileIds: number[];
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Top-level text attributes sent in the body: a 2xx write must read them back exactly. */
  echo?: Record<string, string>;
  /** Type and document a write targets, so the test can check that a refused write changed nothing. */
  target?: { ct: ContentType; documentId?: string };
}

const scalars = (m: AnyModel) => Object.values(m.attributes).filter((a): a is ScalarAttribute => a.kind === 'scalar' && !a.private && a.type !== 'password');
const nonScalars = (m: AnyModel) => Object.values(m.attributes).filter((a) => a.kind !== 'scalar' && !a.private);

// ---------------------------------------------------------------------------------------
// query strings

interface Pair {
  key: string[];
  /** Already percent-encoded; null renders the key alone (qs strictNullHandling). */
  value: string | null;
}

const enc = encodeURIComponent;

/**
 * What both generators share: half of what they make keeps to what Strapi accepts, so it
 * reaches the SQL (or the write) rather than stopping at a 400.
 */
export class GrammarGen {
  readonly strict: boolean;
  constructor(
    readonly g: Gen,
    readonly registry: Registry,
    readonly pool: Pool,
  ) {
    this.strict = g.chance(0.5);
  }

  /** Something from `good`, or now and then (never when strict) from `bad`. */
  protected either<T>(good: readonly T[], bad: readonly T[]): T {
    return !this.strict && this.g.chance(0.25) ? this.g.pick(bad) : this.g.pick(good);
  }
}

export class QueryGen extends GrammarGen {
  readonly pairs: Pair[] = [];

  private push = (key: string[], value: string | null): void => void this.pairs.push({ key, value });

  /** A value of the right kind for a field, most of the time. */
  sample(model: AnyModel, name: string): string {
    const { g } = this;
    if (!this.strict && g.chance(0.08)) return enc(g.pick(UNICODE) + g.word());
    const attribute = model.attributes[name];
    const type =
      name === 'id'
        ? 'integer'
        : name === 'documentId'
          ? 'documentId'
          : ['createdAt', 'updatedAt', 'publishedAt'].includes(name)
            ? 'datetime'
            : name === 'locale'
              ? 'locale'
              : attribute?.kind === 'scalar'
                ? attribute.type
                : 'string';
    switch (type) {
      case 'integer':
      case 'biginteger':
      case 'decimal':
      case 'float':
        return this.either(NUMBERS, BAD_NUMBERS);
      case 'boolean':
        return this.either(['true', 'false', '1', '0', 't', 'f'], ['maybe', '2', '']);
      case 'date':
        return this.either(['2024-01-01', '2024-02-29', '2024-06-15'], ['2023-02-29', '2024-13-45', 'yesterday', '0000-00-00']);
      case 'datetime':
        return enc(this.either(['2024-01-01T00:00:00.000Z', '2030-01-01', '1970-01-01T00:00:00Z'], ['now', '2024-01-01T25:61:00Z']));
      case 'enumeration':
        return enc(this.either((attribute as ScalarAttribute).enum ?? ['x'], ['nope', 'NEWS']));
      case 'documentId':
        return enc(this.either(Object.values(this.pool.ids).flat(), ['nope', 'a'.repeat(24)]));
      case 'locale':
        return this.either(['en', 'fr'], ['*', 'de', 'EN']);
      default:
        return enc(g.chance(0.5) ? g.word() : g.text());
    }
  }

  filters(model: AnyModel, prefix: string[], depth: number): void {
    const { g } = this;
    for (let n = g.range(1, 3); n > 0; n--) {
      const r = g.rng();
      if (depth > 0 && r < 0.15) {
        const op = g.pick(['$and', '$or']);
        for (let j = g.range(0, 3); j > 0; j--) this.filters(model, [...prefix, op, String(j - 1)], depth - 1);
      } else if (depth > 0 && r < 0.22) this.filters(model, [...prefix, '$not'], depth - 1);
      else this.field(model, prefix, depth);
    }
  }

  private field(model: AnyModel, prefix: string[], depth: number): void {
    const { g, registry } = this;
    const names = [
      ...scalars(model).map((a) => a.name),
      ...nonScalars(model).map((a) => a.name),
      ...(model.modelType === 'contentType' ? SYSTEM_FIELDS : ['id']),
    ];
    const name = g.pick(names);
    const attribute = model.attributes[name];
    const target =
      attribute?.kind === 'relation'
        ? registry.contentType(attribute.target)
        : attribute?.kind === 'component'
          ? registry.component(attribute.component)
          : undefined;
    if (target) {
      if (depth > 0 && g.chance(0.8)) this.filters(target, [...prefix, name], depth - 1);
      else this.condition(target, 'id', [...prefix, name, 'id']);
    } else this.condition(model, name, [...prefix, name]);
  }

  private condition(model: AnyModel, name: string, path: string[]): void {
    const { g } = this;
    if (g.chance(0.1)) return this.push(path, this.sample(model, name));
    const op = g.pick(FIELD_OPERATORS);
    if (op === '$null' || op === '$notNull') return this.push([...path, op], this.either(['true', 'false'], ['1', '0', 'yes']));
    if (op === '$in' || op === '$notIn' || op === '$between') {
      const count = op === '$between' ? g.pick([2, 2, 2, 1, 3]) : g.range(0, 4);
      if (g.chance(0.2)) return this.push([...path, op], Array.from({ length: count }, () => this.sample(model, name)).join(','));
      for (let j = 0; j < count; j++) this.push([...path, op, String(j)], this.sample(model, name));
      return;
    }
    this.push([...path, op], this.sample(model, name));
  }

  /** Sortable paths (and a few that are not: to-many relations, media, dynamic zones). */
  private sortPath(model: AnyModel, through_ = 0.3): string {
    const { g, registry } = this;
    const here = [...scalars(model).map((a) => a.name), ...(model.modelType === 'contentType' ? SYSTEM_FIELDS.slice(0, 5) : ['id'])];
    const toOne = nonScalars(model).filter((a) => (a.kind === 'relation' && !a.toMany) || (a.kind === 'component' && !a.repeatable));
    const through = this.strict || g.chance(0.75) ? toOne : nonScalars(model);
    if (through.length && g.chance(through_)) {
      const a = g.pick(through);
      const target = a.kind === 'relation' ? registry.contentType(a.target) : a.kind === 'component' ? registry.component(a.component) : undefined;
      return target ? `${a.name}.${this.sortPath(target)}` : `${a.name}.${g.pick(['url', 'name', 'id'])}`;
    }
    return g.pick(here);
  }

  sort(model: AnyModel): void {
    const { g } = this;
    const order = () => this.either(['', ':asc', ':desc', ':ASC', ':DESC'], [':sideways', ':asc:desc', ':']);
    const items = Array.from({ length: g.range(1, 3) }, () => this.sortPath(model) + order());
    switch (g.int(5)) {
      case 0:
        return this.push(['sort'], enc(items.join(',')));
      case 1:
        return items.forEach((item, j) => this.push(['sort', String(j)], enc(item)));
      case 2:
        return items.forEach((item) => {
          const [path, dir] = item.split(':');
          this.push(['sort', ...path!.split('.')], dir ?? 'asc');
        });
      case 3: {
        // Many repeated sort keys (often through a relation, one join each): the issue saw these stall the server.
        const times = g.pick([5, 50, 200, 1000, 3000]);
        const item = this.sortPath(model, 0.7) + (g.chance(0.5) ? '' : order());
        const form = g.pick([0, 0, 1, 2]);
        if (form === 0) return this.push(['sort'], enc(Array(times).fill(item).join(',')));
        for (let j = 0; j < times; j++) this.push(form === 1 ? ['sort'] : ['sort', String(j)], enc(item));
        return;
      }
      default:
        return this.push(['sort'], enc(items[0]!));
    }
  }

  fields(model: AnyModel, prefix: string[]): void {
    const { g } = this;
    const names = [...scalars(model).map((a) => a.name), 'id', 'documentId', 'createdAt'];
    const chosen = Array.from({ length: g.range(1, 3) }, () => this.either(names, ['nope', 'password', '*', '']));
    switch (g.int(4)) {
      case 0:
        return this.push([...prefix, 'fields'], enc(chosen.join(',')));
      case 1:
        return chosen.forEach((f, j) => this.push([...prefix, 'fields', String(j)], enc(f)));
      case 2:
        return this.push([...prefix, 'fields'], '*');
      default:
        return this.push([...prefix, 'fields', g.pick(chosen)], enc(g.pick(chosen)));
    }
  }

  populate(model: AnyModel, prefix: string[], depth: number): void {
    const { g, registry } = this;
    const attributes = nonScalars(model);
    const names = [...attributes.map((a) => a.name), ...(model.modelType === 'contentType' && model.localized ? ['localizations'] : [])];
    const form = g.int(6);
    if (form === 0 || !attributes.length) return this.push([...prefix, 'populate'], this.either(['*', 'true', 'false'], ['', '**', 'nope']));
    if (form === 1)
      return this.push([...prefix, 'populate'], enc(Array.from({ length: g.range(1, 3) }, () => this.either(names, ['title', 'nope'])).join(',')));
    if (form === 2) {
      const a = g.pick(attributes);
      const target = a.kind === 'relation' ? registry.contentType(a.target) : a.kind === 'component' ? registry.component(a.component) : undefined;
      const next = target ? nonScalars(target).map((x) => x.name) : ['url', 'nope'];
      return this.push([...prefix, 'populate', String(g.int(2))], enc(`${a.name}.${next.length ? g.pick(next) : 'id'}`));
    }
    for (let n = g.range(1, 2); n > 0; n--) {
      const a = g.pick(attributes);
      const at = [...prefix, 'populate', a.name];
      if (a.kind === 'dynamiczone') {
        const uid = this.either(a.components, ['shared.seo', 'shared.nope']);
        const component = registry.component(uid);
        const choice = g.int(5);
        if (choice === 0) this.push(at, g.pick(['*', 'true']));
        else if (choice === 1) this.push([...at, 'populate'], g.pick(['*', 'true', 'file']));
        else if (choice === 2 || !component) this.push([...at, 'on', uid], g.pick(['true', '*']));
        else if (choice === 3) this.fields(component, [...at, 'on', uid]);
        else this.populate(component, [...at, 'on', uid], depth - 1);
        continue;
      }
      const target = a.kind === 'relation' ? registry.contentType(a.target) : a.kind === 'component' ? registry.component(a.component) : undefined;
      const choice = depth > 0 && target ? g.int(6) : 0;
      if (choice === 0) this.push(at, this.either(['true', '*', 'false', '1'], ['yes', '']));
      else if (choice === 1) this.fields(target!, at);
      else if (choice === 2) this.populate(target!, at, depth - 1);
      else if (choice === 3) this.filters(target!, [...at, 'filters'], 1);
      else if (choice === 4) this.push([...at, 'sort'], enc(this.sortPath(target!) + g.pick(['', ':desc'])));
      else this.push([...at, 'count'], this.either(['true', 'false'], ['x']));
    }
  }

  pagination(): void {
    const { g } = this;
    const keys = this.either(
      [['page', 'pageSize'], ['page'], ['pageSize'], ['start', 'limit'], ['start'], ['limit']],
      [
        ['page', 'limit'],
        ['start', 'pageSize'],
      ],
    );
    for (const key of keys) this.push(['pagination', key], g.chance(0.2) ? g.pick(HUGE_NUMBERS) : this.either(NUMBERS, BAD_NUMBERS));
    if (g.chance(0.3)) this.push(['pagination', 'withCount'], this.either(['true', 'false', 'f', '1'], ['nope', '']));
  }

  /** A whole read query for `ct`; `mutate` applies 1–3 of the harmful edits. */
  read(ct: ContentType): void {
    const { g } = this;
    if (g.chance(0.45)) this.filters(ct, ['filters'], 2);
    if (g.chance(0.35)) this.sort(ct);
    if (g.chance(0.25)) this.fields(ct, []);
    if (g.chance(0.45)) this.populate(ct, [], 2);
    if (g.chance(0.3)) this.pagination();
    if (g.chance(0.15)) this.push(['status'], this.either(['published', 'draft'], ['', 'Draft', 'any']));
    if (g.chance(0.15)) this.push(['locale'], this.either(['en', 'fr', '*'], ['de', '', 'EN', enc('x'.repeat(300))]));
  }

  mutate(): void {
    const { g, pairs } = this;
    const any = () => (pairs.length ? g.pick(pairs) : (this.push([g.pick(STRANGE_KEYS)], 'x'), pairs[0]!));
    switch (g.int(11)) {
      case 0:
        return this.push(g.chance(0.5) ? [g.pick(STRANGE_KEYS)] : [...any().key.slice(0, -1), g.pick(STRANGE_KEYS)], enc(g.word()));
      case 1: {
        const p = any();
        p.key = g.chance(0.6) ? [...p.key, g.pick(['0', 'x', '$eq', ''])] : p.key.slice(0, Math.max(1, p.key.length - 1));
        return;
      }
      case 2:
        any().value = g.pick(HUGE_NUMBERS);
        return;
      case 3:
        any().value = g.pick(['', null]);
        return;
      case 4:
        any().value = enc(Array.from({ length: g.range(1, 5) }, () => g.pick(UNICODE)).join(''));
        return;
      case 5: {
        const p = any();
        const v = p.value ?? '';
        const at = g.int(v.length + 1);
        p.value = v.slice(0, at) + g.pick(RAW_FRAGMENTS) + v.slice(at);
        return;
      }
      case 6:
        any().value = enc(g.word().repeat(g.pick([100, 1000, 5000])));
        return;
      case 7: {
        const p = any();
        for (let n = g.pick([2, 20, 200, 600]); n > 0; n--) pairs.push({ ...p });
        return;
      }
      case 8: {
        const p = any();
        p.key = [...p.key, ...Array.from({ length: g.pick([5, 21, 40, 100]) }, () => g.pick(['a', '0', '$and', 'populate', 'filters']))];
        return;
      }
      case 9: {
        const p = any();
        p.key = [p.key.join('') + g.pick(['[', ']', '][', '[[', '[]'])];
        return;
      }
      default:
        pairs.reverse();
    }
  }

  /** Renders `a[b][c]=v&…`, brackets raw or percent-encoded, cut to `cap` characters. */
  render(cap: number): string {
    const { g } = this;
    const encodedBrackets = g.chance(0.2);
    const key = (k: string[]) => {
      const [head, ...rest] = k.map((s) => enc(s).replace(/%24/g, '$'));
      return head + rest.map((s) => (encodedBrackets ? `%5B${s}%5D` : `[${s}]`)).join('');
    };
    const parts = this.pairs.map((p) => (p.value === null ? key(p.key) : `${key(p.key)}=${p.value}`));
    let query = parts.join('&');
    // Bun answers a request line over ~16 KiB with its own bare 431 before any handler runs;
    // the fuzz stays under that so every answer comes from Folio.
    while (query.length > cap && parts.length > 1) query = (parts.pop(), parts.join('&'));
    return query.slice(0, cap);
  }
}
