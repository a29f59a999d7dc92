import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { waitFor } from '@openq/testing';

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

export const SCREENSHOTS = join(__dirname, '..', 'artifacts', 'screenshots');

/** Waits for the browser binary (it may still be installing), without a fixed sleep. */
export async function chromiumReady(timeoutMs = 10 * 60_000): Promise<void> {
  await waitFor(() => existsSync(CHROMIUM), { timeoutMs, intervalMs: 1000, what: `${CHROMIUM} to exist` });
}

/** One person at their own browser: a fresh profile, the token in the `openq_token` cookie. */
export class UserBrowser {
  /** JavaScript errors and failed requests the page met (a good page has none). */
  readonly problems: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly profile: string,
  ) {}

  static async open(
    baseUrl: string,
    token: string | null,
    viewport = { width: 1360, height: 900 },
  ): Promise<UserBrowser> {
    await chromiumReady();
    const profile = mkdtempSync(join(tmpdir(), 'openq-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport,
      locale: 'en-US',
      timezoneId: 'UTC',
    });
    if (token) {
      await context.addCookies([
        { name: 'openq_token', value: token, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
      ]);
    }
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(15_000);
    const user = new UserBrowser(context, page, profile);
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
    rmSync(this.profile, { recursive: true, force: true });
  }
}
