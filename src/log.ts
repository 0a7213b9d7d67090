/**
 * The one logger: levels (debug < info < warn < error) and two formats. `text` keeps the
 * lines a person reads (start-up lines exactly as printed before, e.g. "Folio listening on
 * …"); `json` writes every line as one JSON object (`time`, `level`, `msg`, then fields), for
 * log collectors. Debug and info go to stdout, warn and error to stderr, as before.
 * Configured from Config (FOLIO_LOG_FORMAT, FOLIO_LOG_LEVEL); it reads no environment itself.
 */

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export type LogFields = Record<string, unknown>;

/** Where lines go; tests inject one that collects them. */
export interface LogSink {
  write(line: string, level: LogLevel): void;
}

export interface Logger {
  readonly format: LogFormat;
  /** Whether a line of this level would be written (callers skip building costly fields). */
  enabled(level: LogLevel): boolean;
  log(level: LogLevel, msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/**
 * stdout / stderr through Bun's writers. Request lines are many: Bun buffers them and writes
 * them out in batches instead of one write call per line, keeping the per-request cost low.
 */
export function consoleSink(): LogSink {
  const out = Bun.stdout.writer();
  const err = Bun.stderr.writer();
  let scheduled = false;
  const flushSoon = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      try {
        void Promise.resolve(out.flush()).catch(() => {});
      } catch {
        // as above
      }
    });
  };
  return {
    write(line, level) {
      // A log that cannot be written (a closed pipe) must never fail the request being logged.
      try {
        if (level === 'warn' || level === 'error') {
          // Errors are rare and may come just before the process ends: written at once.
          err.write(line + '\n');
          void Promise.resolve(err.flush()).catch(() => {});
        } else {
          out.write(line + '\n');
          flushSoon();
        }
      } catch {
        // nowhere left to report it
      }
    },
  };
}

/** Errors as text a log can hold: the stack when there is one (it names the message too). */
function plain(value: unknown): unknown {
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  return value;
}

function textLine(msg: string, fields: LogFields | undefined): string {
  if (!fields) return msg;
  let line = msg;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const v = plain(value);
    line += typeof v === 'string' && v.includes('\n') ? `\n${v}` : ` ${key}=${typeof v === 'string' ? v : JSON.stringify(v)}`;
  }
  return line;
}

function jsonLine(level: LogLevel, msg: string, fields: LogFields | undefined): string {
  const entry: LogFields = { time: new Date().toISOString(), level, msg };
  if (fields) for (const [key, value] of Object.entries(fields)) if (value !== undefined) entry[key] = plain(value);
  return JSON.stringify(entry);
}

export function createLogger(options: { level?: LogLevel; format?: LogFormat; sink?: LogSink } = {}): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level ?? 'info');
  const format = options.format ?? 'text';
  const sink = options.sink ?? consoleSink();
  const enabled = (level: LogLevel) => LOG_LEVELS.indexOf(level) >= threshold;
  const log = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (!enabled(level)) return;
    sink.write(format === 'json' ? jsonLine(level, msg, fields) : textLine(msg, fields), level);
  };
  return {
    format,
    enabled,
    log,
    debug: (msg, fields) => log('debug', msg, fields),
    info: (msg, fields) => log('info', msg, fields),
    warn: (msg, fields) => log('warn', msg, fields),
    error: (msg, fields) => log('error', msg, fields),
  };
}
