/**
 * A real browser for the admin's tests: Debian's `chromium` (CI installs it, .ci/run)
 * driven by playwright-core, never a downloaded browser. `findChromium()` is undefined when
 * none is installed, and the browser tests skip with a message then.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it stands, each as "where: rule at nodes". */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () =>
    (await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] })).violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n: any) => n.target.join(' ')),
    })),
  );
  return (violations as { id: string; impact: string; nodes: string[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} at ${v.nodes.join(' | ')}`);
}

/**
 * With FOLIO_TEST_SCREENSHOTS=<folder>, the page as it stands is saved there as `<name>.png`
 * (to look at before calling a view done); without it, nothing.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const folder = process.env.FOLIO_TEST_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: options.fullPage });
}

/** The page's width as laid out: no wider than the viewport means nothing scrolls sideways. */
export const pageWidth = (page: Page): Promise<number> => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
