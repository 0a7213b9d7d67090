/**
 * The API's validation errors in an editor's words. The content API's `details.errors` keep
 * Strapi's (yup's) wording, which names the attribute by its dotted path ("seo.metaTitle must
 * be a `string` type, but the final value was: `null`."); here each one is placed at the field
 * it concerns (the deepest attribute its path reaches, through components and dynamic-zone
 * items as the form holds them) and said in words: "Meta title is required" at the field,
 * "Meta title (SEO) is required" in the summary at the top. Pure: no DOM, no request.
 */
import type { AdminAttribute, AdminComponent } from '../schema';
import { labelOf } from './words';

// The form's shapes as far as this file reads them (fields/values.ts has them whole; importing
// it would bring Preact's DOM types into the server's type check, which runs the unit tests).
type Values = Record<string, unknown>;
type ComponentItem = { component: string; values: Values };
type Components = Record<string, AdminComponent>;

export interface ApiFieldError {
  path?: (string | number)[];
  message: string;
  value?: unknown;
}

export interface Explained {
  /** The dotted path of the field that shows it (`seo.metaTitle`, `links.0.url`, `body`). */
  field: string;
  /** At the field: "Meta title is required". */
  text: string;
  /** In the summary: "Meta title (SEO) is required". */
  summary: string;
}

/** The attribute a path leads to, the labels of what holds it, and how much of the path is a field. */
function locate(path: (string | number)[], attributes: AdminAttribute[], values: Values, components: Components) {
  let attrs = attributes;
  let vals: Values | undefined = values;
  const trail: string[] = [];
  const field: (string | number)[] = [];
  let attribute: AdminAttribute | undefined;
  for (let i = 0; i < path.length; i++) {
    const a = attrs.find((x) => x.name === String(path[i]));
    if (!a) break;
    attribute = a;
    field.push(a.name);
    if (a.type !== 'component' && a.type !== 'dynamiczone') break;
    const here: unknown = vals?.[a.name];
    let item: ComponentItem | undefined;
    if (a.type === 'component' && !a.multiple) {
      item = here && !Array.isArray(here) && typeof here === 'object' ? (here as ComponentItem) : undefined;
      if (i + 1 < path.length) trail.push(labelOf(a));
    } else {
      const index = Number(path[i + 1]);
      if (!Number.isInteger(index) || i + 1 >= path.length) break;
      item = Array.isArray(here) ? (here[index] as ComponentItem | undefined) : undefined;
      field.push(index);
      i++;
      if (i + 1 < path.length) {
        const zone = a.type === 'dynamiczone' && item ? components[item.component]?.displayName : undefined;
        trail.push(zone ? `${zone}, ${labelOf(a)} ${index + 1}` : `${labelOf(a)} ${index + 1}`);
      }
    }
    const uid = a.type === 'component' ? a.target : item?.component;
    const component = uid ? components[uid] : undefined;
    if (!component || i + 1 >= path.length) break;
    attrs = component.attributes;
    vals = item?.values;
  }
  // An item itself (`links.0`) shows at its list.
  if (typeof field.at(-1) === 'number') field.pop();
  return { attribute, trail, field: field.join('.') };
}

const plural = (n: string, one: string, many: string) => `${n} ${n === '1' ? one : many}`;

/** What a validator message says after its label, in words ("is required", "must be one of: a, b"). */
export function phrase(rest: string, value: unknown): string {
  let m: RegExpExecArray | null;
  if (/^must be a `\w+` type, but the final value was: `null`\.?$/.test(rest) || /^(must be defined\.?|cannot be null)$/.test(rest)) return 'is required';
  if ((m = /^must be a `(\w+)` type/.exec(rest))) {
    const kind = { string: 'text', number: 'a number', boolean: 'yes or no', array: 'a list' }[m[1]!] ?? `a ${m[1]}`;
    return value === null || value === undefined ? 'is required' : `must be ${kind}`;
  }
  if ((m = /^field must have at least (\d+) items?$/.exec(rest))) return `needs at least ${plural(m[1]!, 'entry', 'entries')}`;
  if ((m = /^field must have less than or equal to (\d+) items?$/.exec(rest))) return `can have at most ${plural(m[1]!, 'entry', 'entries')}`;
  if ((m = /^must be one of the following values: (.*)$/.exec(rest))) {
    const options = m[1]!.split(/,\s*/).filter((o) => o.trim() !== '');
    return `must be one of: ${options.join(', ')}`;
  }
  if ((m = /^must be at most (\d+) characters$/.exec(rest))) return `is too long: at most ${plural(m[1]!, 'character', 'characters')}`;
  if ((m = /^must be at least (\d+) characters$/.exec(rest))) return `is too short: at least ${plural(m[1]!, 'character', 'characters')}`;
  if (/^must match the following:/.test(rest)) return 'is not in the expected format';
  if (rest === 'must be a valid email') return 'must be an email address';
  if ((m = /^must be greater than or equal to (\S+)$/.exec(rest))) return `must be ${m[1]} or more`;
  if ((m = /^must be less than or equal to (\S+)$/.exec(rest))) return `must be ${m[1]} or less`;
  if (rest === 'must be an integer') return 'must be a whole number';
  if (/^must be a valid date \(/.test(rest)) return 'must be a date';
  if (/^must be a valid time \(/.test(rest)) return 'must be a time';
  if (rest === 'must be a valid date-time') return 'must be a date and time';
  if (rest === 'must be an object' || rest === 'must be an array') return 'is not in the expected form';
  if ((m = /^has too many nodes \(at most (\d+)\)$/.exec(rest))) return `is too long: at most ${m[1]} blocks, lines and text pieces`;
  if (/^must be unique$/i.test(rest) || rest === 'This attribute must be unique') return 'is already used by another entry';
  return rest.replace(/`/g, '').replace(/,\s*$/, '');
}

/**
 * One API error, placed and said in words. The validator's message starts with the dotted
 * path as its label (Strapi's); a message that does not ("This attribute must be unique",
 * "Invalid relation at tags: …") is said after the field's label.
 */
export function explain(error: ApiFieldError, attributes: AdminAttribute[], values: Values, components: Components): Explained {
  const path = error.path ?? [];
  const { attribute, trail, field } = locate(path, attributes, values, components);
  const dotted = path.join('.');
  const message = String(error.message ?? '');
  let rest: string;
  if (dotted && message.startsWith(`${dotted} `)) rest = message.slice(dotted.length + 1);
  else if (message === 'This attribute must be unique') rest = message;
  else if ((rest = message.replace(/^Invalid (relation|media) at [^:]+:\s*/, '')) !== message) rest = `is not valid: ${rest}`;
  else rest = message;
  let said = phrase(rest.trim(), error.value);
  // The enumeration's own values (one may hold a comma).
  if (attribute?.type === 'enumeration' && attribute.enum && said.startsWith('must be one of: ')) said = `must be one of: ${attribute.enum.join(', ')}`;
  if (!attribute) return { field: dotted, text: said.charAt(0).toUpperCase() + said.slice(1), summary: `${dotted ? `${dotted}: ` : ''}${said}` };
  const label = labelOf(attribute);
  return { field, text: `${label} ${said}`, summary: `${label}${trail.length ? ` (${trail.join(' › ')})` : ''} ${said}` };
}
