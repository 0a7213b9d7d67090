/**
 * Strapi 5's database names, long ones shortened as Strapi shortens them (@strapi/database
 * utils/identifiers): a name over 55 characters has its compressible parts (collection,
 * attribute and singular names) cut and suffixed with 5 hex characters of a SHAKE-256 hash of
 * the part, while fixed parts keep their short forms (`links` → `lnk`, `order` → `ord`,
 * `components` → `cmps`). Names of 55 characters or fewer are left as they are, so the
 * helpers give the plain names (`articles_tags_lnk`, `tag_ord`) for ordinary projects.
 * Expected values in test/transfer/strapi-identifiers.test.ts come from Strapi's own code.
 */
import { createHash } from 'node:crypto';

const MAX_LENGTH = 55;
const HASH_LENGTH = 5;
const MIN_TOKEN_LENGTH = 3;

interface Token {
  name: string;
  compressible: boolean;
  short?: string;
  allocated?: number;
}

/** lodash's snakeCase for ASCII names: words split at case changes and digits (`field2Name` → `field_2_name`). */
export function snakeCase(name: string): string {
  const words = name.match(/[A-Z]?[a-z]+|[A-Z]+(?=[A-Z][a-z]|[^A-Za-z]|$)|[A-Z]+|\d+/g) ?? [];
  return words.map((w) => w.toLowerCase()).join('_');
}

const hash = (data: string, length: number) =>
  createHash('shake256', { outputLength: Math.ceil(length / 2) })
    .update(data)
    .digest('hex')
    .slice(0, length);

function shorten(name: string, length: number): string {
  if (name.length <= length) return name;
  return `${name.slice(0, length - HASH_LENGTH)}${hash(name, HASH_LENGTH)}`;
}

/** Strapi's getNameFromTokens with its 55-character limit. */
export function nameFromTokens(tokens: Token[]): string {
  const full = tokens.map((t) => (t.compressible ? t.name : (t.short ?? t.name))).join('_');
  if (full.length <= MAX_LENGTH) return full;
  const compressible = tokens.filter((t) => t.compressible);
  const fixed = tokens.filter((t) => !t.compressible).reduce((n, t) => n + (t.short ?? t.name).length, 0);
  const separators = tokens.length - 1;
  const available = MAX_LENGTH - fixed - separators;
  const perToken = Math.floor(available / compressible.length);
  if (fixed + separators > MAX_LENGTH || perToken < MIN_TOKEN_LENGTH) throw new Error(`cannot shorten the name ${full}`);
  // Parts shorter than their share give the rest to the longer ones, one character at a time.
  let surplus = available % compressible.length;
  let deficits: Token[] = [];
  for (const t of compressible) {
    if (t.name.length < perToken) {
      surplus += perToken - t.name.length;
      t.allocated = t.name.length;
    } else {
      t.allocated = perToken;
      deficits.push(t);
    }
  }
  let previous = surplus + 1;
  while (surplus > 0 && deficits.length > 0) {
    deficits = deficits.filter((t) => {
      if (t.allocated! < t.name.length && surplus > 0) {
        t.allocated!++;
        surplus--;
        return t.allocated! < t.name.length;
      }
      return false;
    });
    if (surplus === previous) break;
    previous = surplus;
  }
  return tokens.map((t) => (t.compressible ? shorten(t.name, t.allocated!) : (t.short ?? t.name))).join('_');
}

const part = (name: string): Token => ({ name, compressible: true });
const SUFFIX = { links: { name: 'links', short: 'lnk' }, order: { name: 'order', short: 'ord' }, id: { name: 'id' } };
const fixed = (t: { name: string; short?: string }): Token => ({ ...t, compressible: false });

/** The table of a model (its collectionName). */
export const tableName = (collectionName: string) => nameFromTokens([part(collectionName)]);

/** The join table of a model's components and dynamic zones (`<table>_cmps`). */
export const componentsTable = (collectionName: string) => nameFromTokens([part(collectionName), fixed({ name: 'components', short: 'cmps' })]);

/** The link table of an owning relation (`<table>_<attribute>_lnk`), from the owner's (already shortened) table name. */
export const linkTable = (ownerTable: string, attribute: string) =>
  nameFromTokens([part(snakeCase(ownerTable)), part(snakeCase(attribute)), fixed(SUFFIX.links)]);

/** The column of an attribute. */
export const columnName = (attribute: string) => nameFromTokens([part(snakeCase(attribute))]);

/**
 * A link table's columns, from the owner's and the target's singular names: the owner's id,
 * the target's id (`inv_` when both are the same model), the target order, the inverse order.
 */
export function linkColumns(ownerSingular: string, targetSingular: string): { source: string; target: string; order: string; inverseOrder: string } {
  const owner = snakeCase(ownerSingular);
  const target = snakeCase(targetSingular);
  const self = owner === target;
  const inv = fixed({ name: 'inv' });
  return {
    source: nameFromTokens([part(owner), fixed(SUFFIX.id)]),
    target: nameFromTokens([...(self ? [inv] : []), part(target), fixed(SUFFIX.id)]),
    order: nameFromTokens([part(target), fixed(SUFFIX.order)]),
    inverseOrder: nameFromTokens([...(self ? [inv] : []), part(owner), fixed(SUFFIX.order)]),
  };
}

/** The link table of a morphToMany attribute (`<table>_<attribute>_mph`). */
export const morphTable = (ownerTable: string, attribute: string) =>
  nameFromTokens([part(snakeCase(ownerTable)), part(snakeCase(attribute)), fixed({ name: 'morphs', short: 'mph' })]);

/** A morphToMany table's columns: the owner's id, the target's id and type (`field` and `order` are fixed). */
export const morphColumns = (ownerSingular: string, attribute: string) => ({
  source: nameFromTokens([part(snakeCase(ownerSingular)), fixed(SUFFIX.id)]),
  target: nameFromTokens([part(snakeCase(attribute)), fixed(SUFFIX.id)]),
  type: nameFromTokens([part(snakeCase(attribute)), fixed({ name: 'type' })]),
});

/** A morphToOne is two columns of the owner's table, named `target_…` whatever the attribute (Strapi's choice). */
export const MORPH_TO_ONE = { target: 'target_id', type: 'target_type' };
