/**
 * Text: string, text, rich text (Markdown), email, password, uid and enumeration. All are
 * stored as text compared byte by byte. Only short text is indexed: front ends filter and
 * sort on titles, slugs and states, not on article bodies.
 */
import { FormatRegistry, Type } from '@sinclair/typebox';
import { isEmail } from '../../text';
import type { ScalarAttribute } from '../types';
import type { ScalarField } from './field';
import { lengths, scalarField, TEXT_COLUMN, type ScalarSpec } from './scalar';

// TypeBox ships no formats of its own. isEmail caps the length before its pattern runs, so a
// 160,000-character value is refused at once instead of being matched.
FormatRegistry.Set('email', isEmail);

/** Characters Strapi allows in a uid when the schema gives no `regex` of its own. */
const UID = '^[A-Za-z0-9-_.~]*$';

const plain = (indexable: boolean): ScalarSpec => ({
  columnType: TEXT_COLUMN,
  indexable,
  schema: (a, mode) => Type.String({ ...lengths(a, mode), ...(mode === 'published' && a.regex ? { pattern: a.regex } : {}) }),
});

const email: ScalarSpec = {
  columnType: TEXT_COLUMN,
  indexable: true,
  schema: (a, mode) => Type.String({ ...lengths(a, mode), ...(mode === 'published' ? { format: 'email' } : {}) }),
};

const uid: ScalarSpec = {
  columnType: TEXT_COLUMN,
  indexable: true,
  schema: (a, mode) => Type.String({ ...lengths(a, mode), pattern: a.regex ?? UID }),
};

const enumeration: ScalarSpec = {
  columnType: TEXT_COLUMN,
  indexable: true,
  schema: (a) => Type.Union((a.enum ?? []).map((v) => Type.Literal(v))),
};

export function textField(attribute: ScalarAttribute): ScalarField | undefined {
  switch (attribute.type) {
    case 'string':
      return scalarField(attribute, plain(true));
    case 'text':
    case 'richtext':
    case 'password':
      return scalarField(attribute, plain(false));
    case 'email':
      return scalarField(attribute, email);
    case 'uid':
      return scalarField(attribute, uid);
    case 'enumeration':
      return scalarField(attribute, enumeration);
    default:
      return undefined;
  }
}
