/**
 * Write-body generator for the HTTP fuzz test (test/http/fuzz.test.ts): a plausible
 * `{ data }` for any content type, read off its attributes (scalars of every type, blocks,
 * relations in every write form, media ids, components, dynamic zones), then mutated:
 * wrong types, nulls, unknown keys, very deep nesting, huge strings, NUL and lone
 * surrogates, bad relation forms, bad `__component`, bad blocks nodes, missing files, and
 * malformed JSON text.
 */
import type { AnyModel, Attribute, ScalarAttribute } from '../../src/registry/types';
import { GrammarGen, STRANGE_KEYS, UNICODE } from './fuzz-query';

/** A raw JSON literal spliced into the serialised body (numbers JSON.stringify cannot write, deep nesting). */
class Raw {
  constructor(readonly text: string) {}
}

const WEIRD_VALUES: (() => unknown)[] = [
  () => null,
  () => true,
  () => 0,
  () => -1,
  () => 1.5,
  () => '',
  () => 'x',
  () => [],
  () => ({}),
  () => [null],
  () => ({ a: 1 }),
  () => new Raw('1e999'),
  () => new Raw('123456789012345678901234567890'),
  () => new Raw('-0'),
  () => 2 ** 53 + 2,
  () => -(2 ** 31) - 1,
  () => 'a\u0000b',
  () => 'lone \ud800 high',
  () => '\udc00',
  () => 'x'.repeat(300),
  () => ['a', 'b'],
  () => ({ id: 1 }),
  () => '<script>alert(1)</script>',
];

/** Bodies for writes; strict ones keep to valid values, so they get written (and read back) rather than refused. */
export class BodyGen extends GrammarGen {
  private ids(uid: string): string[] {
    return this.pool.ids[uid] ?? [];
  }

  private blocks(depth = 0): unknown[] {
    const { g } = this;
    const text = () => ({ type: 'text', text: g.text(), ...(g.chance(0.3) ? { bold: true } : {}) });
    const node = (): unknown => {
      switch (g.int(!this.strict && g.chance(0.3) ? 12 : 6)) {
        case 0:
          return { type: 'paragraph', children: [text(), ...(g.chance(0.3) ? [{ type: 'link', url: 'https://example.com', children: [text()] }] : [])] };
        case 1:
          return { type: 'heading', level: g.range(1, 6), children: [text()] };
        case 2:
          return { type: 'list', format: g.pick(['ordered', 'unordered']), children: [{ type: 'list-item', children: [text()] }] };
        case 3:
          return { type: 'quote', children: [text()] };
        case 4:
          return { type: 'code', children: [text()] };
        case 5:
          return {
            type: 'image',
            image: { name: 'x.png', url: '/uploads/x.png', alternativeText: 'x', width: 1, height: 1 },
            children: [{ type: 'text', text: '' }],
          };
        // Bad nodes.
        case 6:
          return { type: 'nope', children: [] };
        case 7:
          return { type: 'heading', level: 9, children: [text()] };
        case 8:
          return { type: 'paragraph' };
        case 9:
          return { type: 'paragraph', children: [{ type: 'text', text: 5 }] };
        case 10:
          return depth < 30 ? { type: 'list', format: 'ordered', children: this.blocks(depth + 1) } : null;
        default:
          return g.pick(['string', null, 3, [], { type: 'link', url: 'javascript:alert(1)', children: [] }]);
      }
    };
    return Array.from({ length: g.range(0, 3) }, node);
  }

  private scalar(a: ScalarAttribute): unknown {
    const { g } = this;
    const unique = () => `${g.int(1e9).toString(36)}${g.int(1e9).toString(36)}`;
    switch (a.type) {
      case 'string':
        return a.regex ? this.either(['#a1b2c3', '#FFFFFF'], ['red', '#12345']) : a.unique ? `${g.word()} ${unique()}` : g.text(a.maxLength ? 6 : 10);
      case 'text':
      case 'richtext':
        return g.chance(0.5) ? `# ${g.text()}\n\n*${g.text()}*` : g.text(12);
      case 'blocks':
        return this.blocks();
      case 'email':
        return `fuzz.${unique()}@example.com`;
      case 'uid':
        return this.either([`slug-${unique()}`], ['Bad Slug!', '']);
      case 'enumeration':
        return this.either(a.enum ?? ['x'], ['nope', 'NEWS']);
      case 'integer':
      case 'biginteger':
        return this.either([0, 1, 42, 1000, 2147483647], [-5, 2147483648, 1.5]);
      case 'decimal':
      case 'float':
        return this.either([0, 3.14, 2.5, 1e10], [-1, '3.14']);
      case 'boolean':
        return this.either<unknown>([true, false], ['true', 1]);
      case 'date':
        return this.either(['2024-05-06', '2024-02-29'], ['2024-02-30', '06/05/2024']);
      case 'time':
        return this.either(['12:30:00'], ['25:00']);
      case 'datetime':
      case 'timestamp':
        return this.either(['2024-05-06T07:08:09.000Z'], ['tomorrow']);
      case 'json':
        return g.pick([{ a: [1, 'b', null] }, [1, 2], 'text', 7, null, { nested: { deeper: { deepest: true } } }]);
      default:
        return g.text();
    }
  }

  private relation(a: Extract<Attribute, { kind: 'relation' }>): unknown {
    const { g } = this;
    const known = this.ids(a.target);
    if (!known.length) return this.either([null], ['nope']);
    const id = () => this.either(known, ['nope', 'a'.repeat(24), '', 'ÿ']);
    // Duplicates are refused ("already connected"): strict bodies leave them out.
    const some = () => Array.from({ length: g.range(0, a.toMany ? 3 : 1) }, id).filter((x, i, all) => !this.strict || all.indexOf(x) === i);
    const target = () =>
      g.chance(0.6)
        ? id()
        : {
            documentId: id(),
            ...(g.chance(0.3) ? { locale: this.either(['en'], ['fr', 'xx', 5]) } : {}),
            ...(g.chance(0.2) ? { status: this.either(['draft', 'published'], ['archived']) } : {}),
          };
    const position = () =>
      this.either<unknown>([{ start: true }, { end: true }], [{ before: id() }, { after: id() }, { end: false }, { before: 5 }, {}, 'end']);
    switch (g.int(this.strict ? 6 : 9)) {
      case 0:
        return id();
      case 1:
        return some();
      case 2:
        return { connect: Array.from({ length: g.range(1, 3) }, () => (g.chance(0.5) ? { documentId: id(), position: position() } : target())) };
      case 3:
        return { disconnect: some().map((x) => (g.chance(0.5) ? x : { documentId: x })) };
      case 4:
        return { set: some() };
      case 5:
        return null;
      case 6:
        return { connect: [id()], set: [id()] };
      case 7:
        return g.pick([
          { connect: 'x' },
          { set: { a: 1 } },
          { connect: [{ id: 1 }] },
          { connect: [{ documentId: id(), extra: 1 }] },
          42,
          [1, 2],
          { documentId: 5 },
        ]);
      default:
        return Array.from({ length: g.pick([20, 150]) }, id);
    }
  }

  private media(a: Extract<Attribute, { kind: 'media' }>): unknown {
    const { g } = this;
    const id = () => this.either(this.pool.fileIds, [999999, 0, -1, 1.5, 'abc', '7', { id: 999999 }, { id: 'x' }]);
    if (a.multiple) return !this.strict && g.chance(0.2) ? { connect: [id()] } : Array.from({ length: g.range(0, 3) }, id);
    return !this.strict && g.chance(0.2) ? [id(), id()] : id();
  }

  /** A plausible `data` object for `model`; `depth` bounds components inside components. */
  data(model: AnyModel, creating: boolean, depth = 0): Record<string, unknown> {
    const { g, registry } = this;
    const out: Record<string, unknown> = {};
    for (const a of Object.values(model.attributes)) {
      if (a.private && (this.strict || g.chance(0.9))) continue;
      if (!(creating && a.required) && g.chance(0.45)) continue;
      if (a.kind === 'scalar') out[a.name] = this.scalar(a);
      else if (a.kind === 'relation') out[a.name] = this.relation(a);
      else if (a.kind === 'media') out[a.name] = this.media(a);
      else if (a.kind === 'component') {
        const component = registry.component(a.component)!;
        const one = () => (depth < 3 ? this.data(component, true, depth + 1) : {});
        out[a.name] = a.repeatable ? Array.from({ length: g.range(0, 3) }, one) : one();
      } else if (a.kind === 'dynamiczone') {
        out[a.name] = Array.from({ length: g.range(0, 3) }, () => {
          const uid = this.either<unknown>(a.components, ['shared.seo', 'shared.nope', '', 5, null, undefined]);
          const component = typeof uid === 'string' ? registry.component(uid) : undefined;
          return { __component: uid, ...(component ? this.data(component, true, depth + 1) : { title: 'x' }) };
        });
      }
    }
    return out;
  }

  /** Replaces, adds or removes something at a random spot of `data`, or nests it very deep. */
  mutate(data: Record<string, unknown>): void {
    const { g } = this;
    const objects: Record<string, unknown>[] = [];
    const walk = (v: unknown, depth: number) => {
      if (depth > 6 || v === null || typeof v !== 'object' || v instanceof Raw) return;
      if (!Array.isArray(v)) objects.push(v as Record<string, unknown>);
      for (const child of Object.values(v)) walk(child, depth + 1);
    };
    walk(data, 0);
    const host = g.pick(objects);
    const keys = Object.keys(host);
    const key = keys.length && g.chance(0.8) ? g.pick(keys) : g.pick(STRANGE_KEYS);
    // defineProperty, so `__proto__` becomes a key of the body rather than the object's prototype.
    const set = (k: string, value: unknown) => Object.defineProperty(host, k, { value, enumerable: true, writable: true, configurable: true });
    switch (g.int(7)) {
      case 0:
      case 1:
        set(key, g.pick(WEIRD_VALUES)());
        return;
      case 2:
        delete host[key];
        return;
      case 3: {
        // Deep nesting, as raw text (JSON.stringify of it would overflow here first).
        const n = g.pick([50, 1_000, 5_000, 20_000, 100_000]);
        set(key, new Raw(g.chance(0.5) ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n)));
        return;
      }
      case 4: {
        const n = g.pick([2_000, 50_000, 1_100_000]);
        set(key, g.word().repeat(n).slice(0, n));
        return;
      }
      case 5:
        set(
          key,
          g.pick(['\u0000', 'a\u0000', 'lone \ud800', '\udfff end', '\ud83d', g.pick(['tab\tnew\nline', ...UNICODE])]) +
            (typeof host[key] === 'string' ? host[key] : ''),
        );
        return;
      default:
        set(g.pick(STRANGE_KEYS), g.pick(WEIRD_VALUES)());
    }
  }

  /** Serialises with Raw literals spliced in. */
  static serialise(value: unknown): string {
    const raws: string[] = [];
    const text = JSON.stringify(value, (_k, v) => (v instanceof Raw ? `\u0001RAW${raws.push(v.text) - 1}\u0001` : v));
    return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i) => raws[Number(i)]!);
  }

  /** Breaks well-formed JSON text the ways clients (and attackers) do. */
  malformed(text: string): string | Uint8Array {
    const { g } = this;
    const at = g.int(text.length + 1);
    switch (g.int(9)) {
      case 0:
        return text.slice(0, at);
      case 1:
        return text.slice(0, at) + g.pick(['}', ']', ',', '"', ':', 'x', '\\', '\u0000']) + text.slice(at);
      case 2:
        return text.replace(/}$/, ',}');
      case 3:
        return text.replace(/"/g, "'");
      case 4:
        return '\ufeff' + text;
      case 5:
        return g.pick([
          '',
          'null',
          '[]',
          '"data"',
          '1',
          'undefined',
          'NaN',
          '{data:{}}',
          '{"data":',
          '{"data":{"title":"x"},"data":5}',
          '{"data":[]}',
          '{"data":"x"}',
          '{"data":null}',
          '{}',
        ]);
      case 6:
        return new Uint8Array([...new TextEncoder().encode(text.slice(0, at)), 0xff, 0xfe, 0xc0, 0x80, ...new TextEncoder().encode(text.slice(at))]);
      case 7:
        return `{"data":${'['.repeat(100_000)}`;
      default:
        return text + g.pick(['x', ' {}', '\n\n', '}}']);
    }
  }
}
