/**
 * When a release is due: `--at` as ISO-8601. A time with an offset (`Z`, `+02:00`) is that
 * instant; one without is a wall-clock time in `--timezone` (an IANA zone, UTC by default),
 * as an editor states it ("9:00 in Paris"), daylight saving included. Stored as UTC.
 */
import { ValidationError } from '../errors';

const WALL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;
const OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

/** Whether `zone` is an IANA time zone this runtime knows. */
export function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at `utcMs`, in milliseconds (east positive). */
function offsetAt(zone: string, utcMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** `at` (ISO-8601, with or without an offset) in `zone` → the UTC instant, as ISO text; a 400 naming the flag otherwise. */
export function scheduledInstant(at: string, zone = 'UTC'): string {
  if (!knownTimeZone(zone))
    throw new ValidationError(`Unknown time zone "${zone}" (an IANA name such as Europe/Paris or UTC)`, {
      errors: [{ path: ['timezone'], message: 'unknown time zone' }],
    });
  const text = at.trim();
  const bad = () =>
    new ValidationError(`"${at}" is not an ISO-8601 time (2025-06-01T09:00, 2025-06-01T09:00:00Z, 2025-06-01T09:00+02:00)`, {
      errors: [{ path: ['scheduledAt'], message: 'not an ISO-8601 time' }],
    });
  if (OFFSET.test(text)) {
    const ms = Date.parse(text);
    if (!Number.isFinite(ms) || !/^\d{4}-\d{2}-\d{2}/.test(text)) throw bad();
    return new Date(ms).toISOString();
  }
  const m = WALL.exec(text);
  if (!m) throw bad();
  const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = m;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms.padEnd(3, '0')));
  if (!Number.isFinite(wall) || new Date(wall).getUTCDate() !== Number(d)) throw bad();
  // The offset at the wall time read as UTC, then again at the instant that gives (a DST change in between).
  let utc = wall - offsetAt(zone, wall);
  utc = wall - offsetAt(zone, utc);
  return new Date(utc).toISOString();
}
