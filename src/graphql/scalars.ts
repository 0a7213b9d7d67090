/**
 * The custom scalars of Strapi's schema (graphql-scalars' JSON, DateTime, Date, Long; Strapi's
 * Time and I18NLocaleCode; each dynamic zone's input scalar). Values go out as the REST API
 * answers them; inputs are checked as Strapi checks them (a bad value is a 400 before anything runs).
 */
import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped, type ValueNode } from 'graphql';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/;

function stringLiteral(name: string, ast: ValueNode): string {
  if (ast.kind !== Kind.STRING)
    throw new GraphQLError(`${name} cannot represent non string type ${'value' in ast ? String(ast.value) : ast.kind}`, { nodes: ast });
  return ast.value;
}

function checked(name: string, pattern: RegExp, what: string) {
  return (value: unknown): string => {
    if (typeof value !== 'string') throw new GraphQLError(`${name} cannot represent non string type ${JSON.stringify(value)}`);
    if (!pattern.test(value) || Number.isNaN(Date.parse(pattern === TIME ? `1970-01-01T${value}Z` : value))) {
      throw new GraphQLError(`${name} cannot represent an invalid ${what} string ${value}.`);
    }
    return value;
  };
}

const dateOut = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

function stringScalar(name: string, description: string | undefined, pattern: RegExp, what: string) {
  const parse = checked(name, pattern, what);
  return new GraphQLScalarType({
    name,
    description,
    serialize: dateOut,
    parseValue: parse,
    parseLiteral: (ast) => parse(stringLiteral(name, ast)),
  });
}

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

export const DateTimeScalar = stringScalar('DateTime', undefined, DATE_TIME, 'date-time');
export const DateScalar = stringScalar('Date', undefined, DATE, 'date');
export const TimeScalar = stringScalar('Time', undefined, TIME, 'time');

function long(value: unknown): number | string {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  throw new GraphQLError(`Long cannot represent value: ${JSON.stringify(value)}`);
}

export const LongScalar = new GraphQLScalarType({
  name: 'Long',
  serialize: long,
  parseValue: long,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.INT && ast.kind !== Kind.STRING) throw new GraphQLError(`Long cannot represent a non-integer value`, { nodes: ast });
    return long(ast.value);
  },
});

const languages = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
  } catch {
    return undefined;
  }
})();

/**
 * Strapi checks a locale argument against the ISO codes it knows: `de` passes (no content is
 * an empty list), `xx` and `EN` are refused. Folio asks the runtime's ICU data instead of a list.
 */
export function isLocaleCode(value: string): boolean {
  if (!/^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?$/.test(value)) return false;
  if (!languages) return true;
  const language = value.split('-')[0]!;
  const name = languages.of(language);
  return !!name && name !== language;
}

/** As Strapi's i18n scalar: a literal must be a known locale code or `*`; a variable is taken as given. */
export const I18NLocaleCodeScalar = new GraphQLScalarType({
  name: 'I18NLocaleCode',
  description: 'A string used to identify an i18n locale',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new TypeError('Locale cannot represent non string type');
    if (ast.value !== '*' && !isLocaleCode(ast.value)) throw new TypeError('Unknown locale supplied');
    return ast.value;
  },
});

/**
 * A dynamic zone's input, as Strapi's: each item names its component by GraphQL type
 * (`{ __typename: "ComponentSharedQuote", title: "…" }`) and becomes `{ __component:
 * "shared.quote", title: "…" }` for the document service; an item naming no component is
 * refused before anything runs (a 400), listing the zone's own. `components` maps every
 * component's type name to its uid, `members` are the zone's type names.
 */
export function dynamicZoneInputScalar(name: string, components: ReadonlyMap<string, string>, members: readonly string[]): GraphQLScalarType {
  const parse = (value: unknown) => {
    const item = (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
    const uid = typeof item.__typename === 'string' ? components.get(item.__typename) : undefined;
    // A plain Error: graphql-js names the expected type before its message, as for Strapi's.
    if (!uid) throw new Error(`Component not found. expected one of: ${members.join(', ')}`);
    const { __typename: _, ...rest } = item;
    return { __component: uid, ...rest };
  };
  return new GraphQLScalarType({
    name,
    serialize: (value) => value,
    parseValue: parse,
    parseLiteral: (ast, variables) => (ast.kind === Kind.OBJECT ? parse(valueFromASTUntyped(ast, variables)) : undefined),
  });
}

export const BUILT_SCALARS: Record<string, GraphQLScalarType> = {
  JSON: JSONScalar,
  DateTime: DateTimeScalar,
  Date: DateScalar,
  Time: TimeScalar,
  Long: LongScalar,
  I18NLocaleCode: I18NLocaleCodeScalar,
};
