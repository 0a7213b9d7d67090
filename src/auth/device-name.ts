/**
 * A readable label for the device behind a User-Agent ("Chrome on macOS"), as Strapi 5.54
 * labels sessions (@strapi/utils user-agent.ts): a heuristic for people reading a session
 * list, never for deciding anything. The header is clamped before any pattern runs.
 */
const MAX_UA_LENGTH = 1024;

function browserOf(ua: string): string | undefined {
  // Order matters: the more specific tokens first (Chromium forks carry "Chrome/" too).
  if (/\bEdg(?:e|A|iOS)?\//.test(ua)) return 'Edge';
  if (/\b(?:OPR|Opera)\//.test(ua)) return 'Opera';
  if (/\bSamsungBrowser\//.test(ua)) return 'Samsung Internet';
  if (/\bVivaldi\//.test(ua)) return 'Vivaldi';
  if (/\b(?:YaBrowser|Yowser)\//.test(ua)) return 'Yandex Browser';
  if (/\bBrave\//.test(ua)) return 'Brave';
  if (/\b(?:Firefox|FxiOS)\//.test(ua)) return 'Firefox';
  if (/\b(?:Chrome|CriOS|Chromium)\//.test(ua)) return 'Chrome';
  if (/\bSafari\//.test(ua)) return 'Safari';
  return undefined;
}

function osOf(ua: string): string | undefined {
  if (/\bWindows NT\b/.test(ua)) return 'Windows';
  if (/\b(?:iPhone|iPad|iPod)\b/.test(ua)) return 'iOS';
  if (/\bAndroid\b/.test(ua)) return 'Android';
  // "Mac OS X" appears on iOS too: after the iOS check.
  if (/\b(?:Macintosh|Mac OS X)\b/.test(ua)) return 'macOS';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  if (/\bLinux\b/.test(ua)) return 'Linux';
  return undefined;
}

/** "Browser on OS", either alone, or undefined for an unknown or missing header. */
export function deviceName(userAgent: string | null | undefined): string | undefined {
  if (!userAgent) return undefined;
  const ua = userAgent.slice(0, MAX_UA_LENGTH);
  const browser = browserOf(ua);
  const os = osOf(ua);
  return browser && os ? `${browser} on ${os}` : (browser ?? os);
}
