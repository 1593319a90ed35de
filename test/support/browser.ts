import fs from 'node:fs';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser; CHROMIUM_PATH overrides it. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

/** Screenshots and traces of browser tests, kept for a reviewer (git-ignored). */
export const ARTIFACTS_DIR = path.resolve('test-artifacts');

function chromiumPath(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return fs.existsSync(configured) ? configured : null;
  return CANDIDATES.find((candidate) => fs.existsSync(candidate)) ?? null;
}

/**
 * A headless Chromium for the test, closed after it. Where no browser is installed the test is
 * skipped with a message saying how to install one, unless CI_REQUIRE_BROWSER=1 (set by .ci/run,
 * which installs Debian's `chromium`): there a missing browser fails the test.
 */
export async function openBrowser(c: TestContext): Promise<Browser | undefined> {
  const executablePath = chromiumPath();
  if (executablePath === null) {
    const why = 'no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
    if (process.env.CI_REQUIRE_BROWSER === '1') throw new Error(`${why}, and CI_REQUIRE_BROWSER=1`);
    c.skip(why);
    return undefined;
  }
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
  c.after(() => browser.close());
  return browser;
}

/** Every URL the page requests, in order (to show that nothing left 127.0.0.1). */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** The URLs among `urls` that go anywhere but the test server's own host (data: and about: are local). */
export function offHostRequests(urls: readonly string[], origin: string): string[] {
  const host = new URL(origin).host;
  return urls.filter((url) => {
    if (url.startsWith('data:') || url.startsWith('about:') || url.startsWith('blob:')) return false;
    return new URL(url).host !== host;
  });
}

/** Saves a full-page screenshot as test-artifacts/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
