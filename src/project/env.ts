/**
 * Strapi's `env()` for configuration files (`({ env }) => ({ port: env.int('PORT', 1337) })`),
 * with the same casts as @strapi/utils' env helper: int, float, bool (`'true'` only), json,
 * array (`[a, b]` or `a,b`, items trimmed of spaces and double quotes), date, oneOf. And the
 * project's `.env`, read as dotenv reads it (never overriding a variable already set).
 * It reads the variables it is given, never the process environment itself (config.ts owns that).
 */

export type Vars = Record<string, string | undefined>;

export interface EnvFn {
  <T = string>(key: string, defaultValue?: T): string | T | undefined;
  int(key: string, defaultValue?: number): number | undefined;
  float(key: string, defaultValue?: number): number | undefined;
  bool(key: string, defaultValue?: boolean): boolean | undefined;
  json(key: string, defaultValue?: unknown): unknown;
  array(key: string, defaultValue?: string[]): string[] | undefined;
  date(key: string, defaultValue?: Date): Date | undefined;
  oneOf(key: string, expected: unknown[], defaultValue?: unknown): unknown;
}

const trimChars = (value: string, chars: string) => {
  let start = 0;
  let end = value.length;
  while (start < end && chars.includes(value[start]!)) start++;
  while (end > start && chars.includes(value[end - 1]!)) end--;
  return value.slice(start, end);
};

export function createEnv(vars: Vars): EnvFn {
  const has = (key: string) => Object.prototype.hasOwnProperty.call(vars, key) && vars[key] !== undefined;
  const env = (<T>(key: string, defaultValue?: T) => (has(key) ? vars[key] : defaultValue)) as EnvFn;
  env.int = (key, defaultValue) => (has(key) ? parseInt(vars[key]!, 10) : defaultValue);
  env.float = (key, defaultValue) => (has(key) ? parseFloat(vars[key]!) : defaultValue);
  env.bool = (key, defaultValue) => (has(key) ? vars[key] === 'true' : defaultValue);
  env.json = (key, defaultValue) => {
    if (!has(key)) return defaultValue;
    try {
      return JSON.parse(vars[key]!);
    } catch (error) {
      throw new Error(`Invalid json environment variable ${key}: ${(error as Error).message}`);
    }
  };
  env.array = (key, defaultValue) => {
    if (!has(key)) return defaultValue;
    let value = vars[key]!;
    if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
    return value.split(',').map((v) => trimChars(trimChars(v, ' '), '"'));
  };
  env.date = (key, defaultValue) => (has(key) ? new Date(vars[key]!) : defaultValue);
  env.oneOf = (key, expected, defaultValue) => {
    if (!Array.isArray(expected)) throw new Error(`env.oneOf requires expectedValues`);
    const value = env(key, defaultValue);
    return expected.includes(value) ? value : defaultValue;
  };
  return env;
}

/** A `.env` file's variables, as dotenv parses them: `KEY=value`, `export KEY=…`, quotes, `#` comments. */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const line = /^\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?$/gm;
  for (const match of text.replace(/\r\n?/g, '\n').matchAll(line)) {
    let value = (match[2] ?? '').trim();
    const quote = value[0];
    value = value.replace(/^(['"`])([\s\S]*)\1$/m, '$2');
    if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    out[match[1]!] = value;
  }
  return out;
}
