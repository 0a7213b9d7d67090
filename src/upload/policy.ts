/**
 * Which uploads are stored: an allow-list of MIME patterns (FOLIO_UPLOAD_ALLOWED_TYPES,
 * default below), a deny-list (FOLIO_UPLOAD_DENIED_TYPES, default none) and a built-in
 * list of types a browser would render or a machine would run, refused unless the
 * allow-list names them exactly. Every witness of a file's type (sniff.ts) must pass:
 * the most dangerous one decides. Strapi 5 makes the same check (`plugin::upload.security`,
 * utils/mime-validation.ts) and answers 400 ValidationError "File type 'x' is not allowed".
 */
import { ValidationError } from '../errors';
import { typesToCheck, type Witnesses } from './sniff';

/** Stored by default: media, PDF, common office documents, plain data and zip archives. */
export const DEFAULT_ALLOWED_TYPES = [
  'image/*',
  'audio/*',
  'video/*',
  'application/pdf',
  'text/plain',
  'text/csv',
  'text/tab-separated-values',
  'text/markdown',
  'text/x-markdown',
  'application/json',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/rtf',
  'text/rtf',
  'application/vnd.openxmlformats-officedocument.*',
  'application/vnd.oasis.opendocument.*',
  'application/zip',
  'application/x-zip-compressed',
];

/**
 * Markup a browser renders (and runs scripts in), scripts and executables. `image/*` or
 * `*` does not let these in: FOLIO_UPLOAD_ALLOWED_TYPES must name one exactly.
 */
export const DANGEROUS_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'application/xml',
  'text/xml',
  'application/xslt+xml',
  'message/rfc822',
  'multipart/related',
  'application/vnd.ms-htmlhelp',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/ecmascript',
  'application/x-sh',
  'application/x-csh',
  'text/x-shellscript',
  'application/x-powershell',
  'text/vbscript',
  'application/x-wsh',
  'application/hta',
  'application/x-httpd-php',
  'application/x-jsp',
  'application/x-asp',
  'application/x-cgi',
  'text/x-python',
  'text/x-ruby',
  'application/x-perl',
  'application/x-msdownload',
  'application/x-dosexec',
  'application/vnd.microsoft.portable-executable',
  'application/x-executable',
  'application/x-elf',
  'application/x-sharedlib',
  'application/x-mach-binary',
  'application/java-archive',
  'application/java-vm',
  'application/vnd.android.package-archive',
  'application/wasm',
  'application/x-apple-diskimage',
  'application/x-debian-package',
  'application/x-deb',
  'application/x-redhat-package-manager',
  'application/x-rpm',
  'application/x-ms-shortcut',
  'application/x.ms.shortcut',
  'application/x-shockwave-flash',
  'application/x-google-chrome-extension',
  'application/x-xpinstall',
  'application/x-ms-regedit',
]);

export interface TypePolicy {
  allowed: string[];
  denied: string[];
}

export function typePolicy(config: { uploadAllowedTypes?: string[]; uploadDeniedTypes?: string[] }): TypePolicy {
  return { allowed: config.uploadAllowedTypes ?? DEFAULT_ALLOWED_TYPES, denied: config.uploadDeniedTypes ?? [] };
}

/** `*` matches any run of characters; linear in practice (patterns come from configuration, types are capped). */
export function matchesPattern(pattern: string, type: string): boolean {
  if (!pattern.includes('*')) return pattern === type;
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < type.length) {
    if (p < pattern.length && pattern[p] === type[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

export function isTypeAllowed(type: string, policy: TypePolicy): boolean {
  if (policy.denied.some((p) => matchesPattern(p, type))) return false;
  if (DANGEROUS_TYPES.has(type)) return policy.allowed.includes(type);
  return policy.allowed.some((p) => matchesPattern(p, type));
}

/** Refuses the file unless every witness of its type is allowed; names the most dangerous one refused. */
export function checkFileType(fileName: string, w: Witnesses, policy: TypePolicy): void {
  const refused = typesToCheck(w).filter((type) => !isTypeAllowed(type, policy));
  if (refused.length === 0) return;
  const type = refused.find((t) => DANGEROUS_TYPES.has(t)) ?? refused[0]!;
  throw new ValidationError(`File type '${type}' is not allowed (file ${JSON.stringify(fileName)})`, {
    fileName,
    detectedType: w.sniffed ?? w.text ?? null,
    declaredType: w.declared ?? null,
    extensionType: w.byName ?? null,
    finalType: type,
    allowedTypes: policy.allowed,
    deniedTypes: policy.denied,
  });
}
