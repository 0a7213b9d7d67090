/**
 * Rules for text that comes from callers, shared by documents, users and uploads. Every
 * check here is linear in the input and caps its length before any pattern runs, so no
 * value can hold the event loop (a backtracking pattern over 40,000 characters can).
 */

/** RFC 5321's limit on a whole address; longer ones are refused before any pattern runs. */
export const EMAIL_MAX_LENGTH = 254;

/*
 * The address shape of yup 0.32 (the version Strapi 5 validates with: `string().email()`),
 * written as a linear scan instead of yup's nested-quantifier pattern, case-insensitive as
 * yup's is. "U" is a character in yup's unicode ranges (U+00A0–U+D7FF, U+F900–U+FDCF,
 * U+FDF0–U+FFEF).
 * - local part: dot-separated runs of letters, digits, U and !#$%&'*+-/=?^_`{|}~; or a quoted
 *   string (printable ASCII but `"` and `\`, U, spaces and tabs, `\`-escapes).
 * - domain: labels, then a dot, then a last label that starts and ends with a letter or U
 *   (`still@not` has no dot, `a@b.c1` ends in a digit: both refused). Labels start and end
 *   with a letter, digit or U; inside them `-`, `.`, `_` and `~` may appear too.
 */
const ATOM = /^[a-z0-9!#$%&'*+\-/=?^_`{|}~\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]$/i;
const LETTER = /^[a-z\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]$/i;
const ALNUM = /^[a-z0-9\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]$/i;
const DOMAIN_CHAR = /^[a-z0-9\-._~\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]$/i;
const QUOTED_CHAR = /^[\x01-\x08\x0b\x0c\x0e-\x1f\x7f\x21\x23-\x5b\x5d-\x7e\x20\x09\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]$/;
const ESCAPED_CHAR = /^[\x01-\x09\x0b\x0c\x0d-\x7f\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]$/;

function isLocalPart(local: string): boolean {
  if (local.length >= 2 && local.startsWith('"') && local.endsWith('"')) {
    const inner = local.slice(1, -1);
    for (let i = 0; i < inner.length; i++) {
      const c = inner[i]!;
      if (c === '\\') {
        if (i + 1 >= inner.length || !ESCAPED_CHAR.test(inner[++i]!)) return false;
      } else if (c === '\r') {
        // A folded line: CRLF, then at least one space or tab.
        if (inner[i + 1] !== '\n' || (inner[i + 2] !== ' ' && inner[i + 2] !== '\t')) return false;
        i++;
      } else if (!QUOTED_CHAR.test(c)) return false;
    }
    return true;
  }
  return local.split('.').every((atom) => atom.length > 0 && [...atom].every((c) => ATOM.test(c)));
}

function isDomain(domain: string): boolean {
  const n = domain.length;
  if (n < 3 || !ALNUM.test(domain[0]!) || !LETTER.test(domain[n - 1]!)) return false;
  if (![...domain].every((c) => DOMAIN_CHAR.test(c))) return false;
  // Some dot must end a label (a letter, digit or U before it) and start the last one (a letter or U after it).
  for (let i = 1; i < n - 1; i++) {
    if (domain[i] === '.' && ALNUM.test(domain[i - 1]!) && LETTER.test(domain[i + 1]!)) return true;
  }
  return false;
}

/** Whether `value` is an e-mail address yup 0.32 (so Strapi 5) accepts; length-capped first. */
export function isEmail(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH) return false;
  const at = value.lastIndexOf('@');
  return at > 0 && isLocalPart(value.slice(0, at)) && isDomain(value.slice(at + 1));
}

/**
 * Why a string cannot be stored as sent, or undefined when it can: PostgreSQL text cannot
 * hold NUL, and a lone UTF-16 surrogate would come back as U+FFFD, so an acknowledged
 * write would not read back exactly as sent. Linear: `isWellFormed` is one pass.
 */
export function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (!value.isWellFormed()) return 'must not contain unpaired UTF-16 surrogates';
  return undefined;
}
