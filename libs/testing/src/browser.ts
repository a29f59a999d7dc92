import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { waitFor } from './wait-for';

/** Debian's Chromium (playwright-core ships no browser of its own). */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const SCREENSHOTS = join(__dirname, '..', '..', '..', 'test', 'artifacts', 'screenshots');

/** Is a package manager at work (the browser may be being installed right now)? */
function installing(): boolean {
  try {
    execFileSync('pgrep', ['-x', 'apt-get|apt|dpkg'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The browser binary, waited for while a package manager is installing it (without a fixed sleep);
 * missing with nothing installing it, the test fails at once with what to install.
 */
export async function chromiumReady(timeoutMs = 10 * 60_000): Promise<void> {
  if (existsSync(CHROMIUM)) return;
  if (!installing())
    throw new Error(
      `the browser tests need Debian's Chromium at ${CHROMIUM}: install it with \`apt-get install chromium\` (.ci/run does)`,
    );
  await waitFor(() => existsSync(CHROMIUM) || !installing(), {
    timeoutMs,
    intervalMs: 1000,
    what: `${CHROMIUM} to be installed`,
  });
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is still missing after the install ended`);
}

/**
 * One Chromium per test suite (each jest suite has its own module registry, so this module's state
 * is the suite's): launched by the first person who opens a page, closed after the suite's last
 * test. Each person gets a context of their own (cookies, storage, language), never a browser.
 */
let shared: Promise<Browser> | null = null;

function sharedBrowser(): Promise<Browser> {
  shared ??= chromiumReady().then(() =>
    chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS }),
  );
  return shared;
}

/** Closes the suite's Chromium (registered as an afterAll of every suite that imports this module). */
export async function closeBrowser(): Promise<void> {
  const browser = shared;
  shared = null;
  if (browser) await (await browser.catch(() => null))?.close();
}

if (typeof afterAll === 'function') afterAll(closeBrowser, 30_000);

/** One person at their own browser: a fresh context, the token in the `openq_token` cookie. */
export class UserBrowser {
  /** JavaScript errors and failed requests the page met (a good page has none). */
  readonly problems: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
  ) {}

  /**
   * `locale` is the browser's language (`navigator.languages`, `Accept-Language`): English unless a
   * test asks for another, so that the specs asserting English words stay stable (issue #18).
   */
  static async open(
    baseUrl: string,
    token: string | null,
    viewport = { width: 1360, height: 900 },
    locale = 'en-US',
  ): Promise<UserBrowser> {
    const browser = await sharedBrowser();
    const context = await browser.newContext({ viewport, locale, timezoneId: 'UTC' });
    if (token) {
      await context.addCookies([
        { name: 'openq_token', value: token, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
      ]);
    }
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const user = new UserBrowser(context, page);
    page.on('pageerror', (error) => user.problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') user.problems.push(`console: ${message.text()}`);
    });
    return user;
  }

  /** Opens the inbox of `projectId` and waits until its queue has loaded. */
  async inbox(baseUrl: string, projectId: string): Promise<Page> {
    await this.page.goto(`${baseUrl}/?project=${encodeURIComponent(projectId)}`);
    await this.page.locator('#open-questions').waitFor();
    await this.page.waitForFunction(() => !document.querySelector('.queue [role="status"]'));
    return this.page;
  }

  async screenshot(name: string, options: { fullPage?: boolean } = {}): Promise<string> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const path = join(SCREENSHOTS, `${name}.png`);
    await this.page.screenshot({ path, fullPage: options.fullPage ?? true });
    return path;
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
  }
}
