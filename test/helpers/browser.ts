/**
 * A real browser for the admin's tests: Debian's `chromium` (CI installs it, .ci/run)
 * driven by playwright-core, never a downloaded browser. `findChromium()` is undefined when
 * none is installed, and the browser tests skip with a message then.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page, type Request as BrowserRequest } from 'playwright-core';

const CANDIDATES = [process.env.FOLIO_TEST_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function findChromium(): string | undefined {
  return CANDIDATES.find((path): path is string => !!path && existsSync(path));
}

export async function launchBrowser(executablePath: string): Promise<Browser> {
  // --no-sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}

/** A fresh page (own cookies) that records every request it makes, to check where they go. */
export async function recordingPage(browser: Browser): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const requests: string[] = [];
  page.on('request', (request: BrowserRequest) => requests.push(request.url()));
  return { page, requests };
}
