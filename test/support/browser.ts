import fs from 'node:fs';
import path from 'node:path';
import { after, type TestContext } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { TEST_DIALECT } from './app.js';

/** Where Debian's `chromium` package puts the browser; CHROMIUM_PATH overrides it. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

/** Screenshots of browser tests that failed (and of every checkpoint with TEST_SCREENSHOTS=1), git-ignored. */
export const ARTIFACTS_DIR = path.resolve('test-artifacts');

/**
 * The browser tests judge pages, not storage: they run on SQLite only (README, "Test it"), and the
 * PostgreSQL run skips them. Everything else a browser test file checks runs on both.
 */
export const BROWSER_ENGINE = 'sqlite';

function chromiumPath(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return fs.existsSync(configured) ? configured : null;
  return CANDIDATES.find((candidate) => fs.existsSync(candidate)) ?? null;
}

/** One headless Chromium per test file, launched by its first browser test and closed after its last. */
let shared: Promise<Browser> | null = null;
after(async () => {
  const browser = await shared?.catch(() => null);
  await browser?.close();
});

/** Whether the test passed, read in its after hook (TestContext.passed, Node.js 20.12+; @types/node 20 lacks it). */
const passed = (c: TestContext) => (c as TestContext & { readonly passed?: boolean }).passed !== false;

const fileName = (name: string) => name.replace(/[^\w.-]+/g, '-').slice(0, 120);

/**
 * The file's headless Chromium for one test. The contexts the test opens in it are closed after
 * it, and when the test failed each of their pages is saved first as
 * test-artifacts/<test>-<n>.png. Where no browser is installed the test is skipped with a message
 * saying how to install one, unless CI_REQUIRE_BROWSER=1 (set by .ci/run, which installs Debian's
 * `chromium`): there a missing browser fails the test. On PostgreSQL the test is skipped (BROWSER_ENGINE).
 */
export async function openBrowser(c: TestContext): Promise<Browser | undefined> {
  if (TEST_DIALECT !== BROWSER_ENGINE) {
    c.skip(`browser tests run on ${BROWSER_ENGINE} only: they judge pages, not storage`);
    return undefined;
  }
  const executablePath = chromiumPath();
  if (executablePath === null) {
    const why = 'no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)';
    if (process.env.CI_REQUIRE_BROWSER === '1') throw new Error(`${why}, and CI_REQUIRE_BROWSER=1`);
    c.skip(why);
    return undefined;
  }
  shared ??= chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
  const browser = await shared;
  const before = new Set(browser.contexts());
  c.after(async () => {
    const opened = browser.contexts().filter((context) => !before.has(context));
    if (!passed(c)) await screenshotsOf(opened, c.name);
    await Promise.all(opened.map((context) => context.close()));
  });
  return browser;
}

/** Every page of `contexts`, saved as test-artifacts/<name>-<n>.png (what a failed test left on screen). */
async function screenshotsOf(contexts: BrowserContext[], name: string): Promise<void> {
  const pages = contexts.flatMap((context) => context.pages());
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  for (const [n, page] of pages.entries()) {
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${fileName(name)}-${n + 1}.png`), fullPage: true }).catch(() => undefined);
  }
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

/**
 * A checkpoint of a browser test: with TEST_SCREENSHOTS=1 the page is saved as
 * test-artifacts/<name>.png for a reviewer; otherwise nothing is written (a failed test's pages are
 * saved anyway, see openBrowser).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.TEST_SCREENSHOTS !== '1') return;
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${fileName(name)}.png`), fullPage: true });
}
