/**
 * What an upload claims to be, from three witnesses: its bytes (file-type's magic numbers,
 * then a look at text formats that have none), its name's extension and the type the
 * client declared. The upload policy (policy.ts) refuses the file if any witness names a
 * refused type, so a page renamed `.txt` or an executable declared `image/png` is caught.
 */
import { extname } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';

/** Only the first bytes are looked at, like a browser's sniffer: bounded work per file. */
const SNIFF_BYTES = 4096;

/** The bare, lower-case `type/subtype`; parameters dropped. */
export const bareType = (type: string) => type.split(';')[0]!.trim().toLowerCase();

// RFC 6838: type and subtype are at most 127 restricted-name characters each. The length
// is checked before the pattern runs; anything else a client sends is no type at all.
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** A declared type as a bare MIME type, or undefined when it is absent, malformed or says nothing (octet-stream). */
export function declaredType(declared: string): string | undefined {
  if (!declared || declared.length > 512) return undefined;
  const type = bareType(declared);
  return type.length <= 255 && MIME.test(type) && type !== 'application/octet-stream' ? type : undefined;
}

/**
 * Extensions Bun's table does not type (it answers octet-stream) but that name scripts or
 * executables a server or a desktop would run. Typed here so the policy can refuse them.
 */
const RISKY_EXTENSIONS: Record<string, string> = {
  scr: 'application/x-msdownload',
  cmd: 'application/x-msdownload',
  pif: 'application/x-msdownload',
  cpl: 'application/x-msdownload',
  ps1: 'application/x-powershell',
  psm1: 'application/x-powershell',
  vbs: 'text/vbscript',
  vbe: 'text/vbscript',
  jse: 'text/javascript',
  wsf: 'application/x-wsh',
  wsh: 'application/x-wsh',
  hta: 'application/hta',
  bash: 'application/x-sh',
  zsh: 'application/x-sh',
  ksh: 'application/x-sh',
  csh: 'application/x-csh',
  command: 'application/x-sh',
  py: 'text/x-python',
  pyc: 'text/x-python',
  pyw: 'text/x-python',
  rb: 'text/x-ruby',
  pm: 'application/x-perl',
  phtml: 'application/x-httpd-php',
  php3: 'application/x-httpd-php',
  php4: 'application/x-httpd-php',
  php5: 'application/x-httpd-php',
  php7: 'application/x-httpd-php',
  phar: 'application/x-httpd-php',
  jsp: 'application/x-jsp',
  asp: 'application/x-asp',
  aspx: 'application/x-asp',
  cgi: 'application/x-cgi',
  so: 'application/x-sharedlib',
  dylib: 'application/x-mach-binary',
  elf: 'application/x-elf',
  app: 'application/x-executable',
  mht: 'message/rfc822',
  mhtml: 'message/rfc822',
  chm: 'application/vnd.ms-htmlhelp',
};

/** Longest extension taken as one (`.` included); a longer tail is part of the name, not a type. */
export const MAX_EXT_BYTES = 32;

/** The extension as given, or '' when there is none or it is too long to be one. */
export function extensionOfName(filename: string): string {
  const ext = extname(filename);
  return ext && Buffer.byteLength(ext) <= MAX_EXT_BYTES ? ext : '';
}

/** The MIME type the name's extension names (Bun's table, then the risky list), or undefined. */
export function typeOfExtension(filename: string): string | undefined {
  const ext = extensionOfName(filename);
  if (!ext) return undefined;
  const risky = RISKY_EXTENSIONS[ext.slice(1).toLowerCase()];
  if (risky) return risky;
  const type = bareType(Bun.file(`/x${ext}`).type);
  return type === 'application/octet-stream' ? undefined : type;
}

// The WHATWG MIME sniffing standard's HTML signatures (§7.1), each followed by a space or `>`.
const HTML_TAGS = ['!doctype html', 'html', 'head', 'script', 'iframe', 'h1', 'div', 'font', 'table', 'a', 'style', 'title', 'b', 'body', 'br', 'p', '!--'];

/**
 * A type for bytes file-type has no magic number for: markup a browser would render
 * (HTML, SVG, XML that holds either), a script (`#!`), or plain UTF-8 text. Undefined
 * when the bytes are none of these (binary, or text in another encoding).
 */
export function sniffText(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES);
  let text: string;
  try {
    // `stream` so a multi-byte character cut at the boundary is not an error.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]/.test(text)) return undefined;
  const lower = text
    .replace(/^\ufeff/, '')
    .trimStart()
    .toLowerCase();
  if (lower.startsWith('#!')) return 'application/x-sh';
  if (lower.startsWith('<')) {
    if (lower.startsWith('<svg') || lower.startsWith('<!doctype svg')) return 'image/svg+xml';
    for (const tag of HTML_TAGS) {
      const next = lower[tag.length + 1];
      if (lower.startsWith(tag, 1) && (next === ' ' || next === '>' || next === '\n' || next === '\t' || next === '\r')) return 'text/html';
    }
    // An XML prolog says nothing of what follows: SVG and XHTML run scripts.
    if (lower.startsWith('<?xml')) return lower.includes('<svg') ? 'image/svg+xml' : lower.includes('<html') ? 'application/xhtml+xml' : 'application/xml';
  }
  return 'text/plain';
}

/** Types file-type reports for containers that several formats share; the extension says which one. */
const CONTAINERS = new Set(['application/xml', 'application/x-cfb']);

export interface Witnesses {
  /** From magic numbers (file-type). */
  sniffed?: string;
  /** file-type's extension for the bytes, without the dot. */
  sniffedExt?: string;
  /** From the text sniff: markup, script or plain text. */
  text?: string;
  /** From the name's extension. */
  byName?: string;
  /** What the client declared, when it says anything. */
  declared?: string;
}

/** Every witness of an upload's type; the policy checks them all, storedType picks one. */
export async function witnesses(bytes: Uint8Array, filename: string, declared: string): Promise<Witnesses> {
  const found = await fileTypeFromBuffer(bytes).catch(() => undefined);
  const sniffed = found ? bareType(found.mime) : undefined;
  return {
    sniffed,
    sniffedExt: found?.ext,
    // A file with a magic number is not text, except XML: what it holds decides.
    text: !sniffed || sniffed === 'application/xml' ? sniffText(bytes) : undefined,
    byName: typeOfExtension(filename),
    declared: declaredType(declared),
  };
}

/**
 * The type a file is stored with: its bytes first (a container only when the extension
 * names nothing more precise), then its extension, then what the client declared, then
 * what the text sniff found, else octet-stream.
 */
export function storedType(w: Witnesses): string {
  if (w.sniffed && !(CONTAINERS.has(w.sniffed) && w.byName)) return w.sniffed;
  return w.byName ?? w.declared ?? w.text ?? 'application/octet-stream';
}

/**
 * Every type the policy must accept for the file to be stored. Plain text from the sniff
 * is not one (a CSV file is also plain text; allowing only text/csv must still take it),
 * and neither is a container whose extension says which format it holds.
 */
export function typesToCheck(w: Witnesses): string[] {
  const types = new Set<string>();
  if (w.sniffed && !(CONTAINERS.has(w.sniffed) && w.byName)) types.add(w.sniffed);
  if (w.text && w.text !== 'text/plain') types.add(w.text);
  if (w.byName) types.add(w.byName);
  if (w.declared) types.add(w.declared);
  types.add(storedType(w));
  return [...types];
}
