/**
 * Rules for text that comes from callers, shared by documents, users and uploads. Every
 * check here is linear in the input and caps its length before any pattern runs, so no
 * value can hold the event loop (a backtracking pattern over 40,000 characters can).
 */

/** RFC 5321's limit on a whole address; longer ones are refused before any pattern runs. */
export const EMAIL_MAX_LENGTH = 254;

// The shape yup (Strapi's validator) accepts: a local part of allowed characters, then
// dot-separated DNS labels of at most 63 characters.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Whether `value` is an e-mail address Folio accepts (length-capped first). */
export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL.test(value);
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
