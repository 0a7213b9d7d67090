/**
 * A release's time as editors give and read it: a wall-clock date and time in a time zone
 * ("20 Mar 2030, 09:00 (Europe/Paris)"), the zones to choose from (the browser's first), and
 * a scheduled instant back as the date-and-time control's value in its zone. The server turns
 * the wall-clock time and zone into the instant (src/releases/schedule.ts).
 */
export interface Scheduled {
  status: string;
  scheduledAt: string | null;
  timezone: string | null;
}

export const RELEASE_STATUS: Record<string, string> = { pending: 'Pending', done: 'Done', failed: 'Failed' };

/** The browser's own zone (UTC when it says none). */
export const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every zone the browser knows, UTC and the browser's own included, sorted. */
export function timeZones(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', localZone(), ...known])].sort();
}

/** An instant in a zone: "20 Mar 2030, 09:00 (Europe/Paris)". */
export function inZone(iso: string, zone: string | null): string {
  const tz = zone || 'UTC';
  try {
    return `${new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: tz })} (${tz})`;
  } catch {
    return new Date(iso).toLocaleString();
  }
}

/** When a release publishes, in words. */
export const scheduleText = (r: Scheduled) => (r.scheduledAt ? inZone(r.scheduledAt, r.timezone) : 'Not scheduled');

/** An instant as a `datetime-local` value (YYYY-MM-DDTHH:MM) in a zone. */
export function wallClock(iso: string, zone: string | null): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone || 'UTC',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}
