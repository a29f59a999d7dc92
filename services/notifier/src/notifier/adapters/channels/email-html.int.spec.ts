import type { Page } from 'playwright-core';
import { UserBrowser } from '@openq/testing/browser';
import { renderDigest } from './digest';
import { renderEmail } from './email';
import { sampleNotification } from './templates/sample-notification';

/**
 * The e-mails' HTML as a reader's software sees it: opened in real headless Chromium (no network:
 * the document is set as the page's content), queried by role and accessible name.
 */
let browser: UserBrowser;
let page: Page;

beforeAll(async () => {
  browser = await UserBrowser.open('http://127.0.0.1', null, { width: 640, height: 900 });
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
});

/** WCAG contrast ratio of an element's text colour on its background. */
async function contrastOf(name: string): Promise<number> {
  return page.getByRole('link', { name }).evaluate((element) => {
    const style = getComputedStyle(element);
    const rgb = (css: string) => (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
    const luminance = (css: string) => {
      const [r, g, b] = rgb(css).map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const background =
      style.backgroundColor === 'rgba(0, 0, 0, 0)'
        ? getComputedStyle(element.parentElement!).backgroundColor
        : style.backgroundColor;
    const [lighter, darker] = [luminance(style.color), luminance(background)].sort((a, b) => b - a);
    return (lighter! + 0.05) / (darker! + 0.05);
  });
}

describe('the e-mail HTML in a real browser', () => {
  it('has a language, a title, one level-1 heading and the two buttons as named links', async () => {
    const mail = renderEmail(sampleNotification());
    await page.setContent(mail.html);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.title()).toBe('QA gate on T-101 is waiting for your decision');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'QA gate on T-101 is waiting for your decision',
    );
    expect(await page.getByRole('link', { name: 'Accept the suggestion' }).getAttribute('href')).toBe(
      'https://openq.example.com/l/accept/tok-123',
    );
    expect(await page.getByRole('link', { name: 'Open in openq' }).getAttribute('href')).toBe(
      'https://openq.example.com/projects/acme/inbox#q-1',
    );
    expect(await contrastOf('Accept the suggestion')).toBeGreaterThanOrEqual(4.5);
    expect(await contrastOf('Open in openq')).toBeGreaterThanOrEqual(4.5);
    expect(await page.locator('p', { hasText: 'Blocks:' }).textContent()).toBe('Blocks: QA gate on T-101');
    await browser.screenshot('notifier-email-gate-parked');
  });

  it('shows hostile text as text: no element, no script runs', async () => {
    const q = {
      ...sampleNotification().questions[0]!,
      pergunta: '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>Really?',
    };
    await page.setContent(renderEmail(sampleNotification({ questions: [q] })).html);
    expect(await page.locator('img, script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await expect(page.getByText('Really?').first().textContent()).resolves.toContain('<img src=x onerror=');
  });

  it('a digest: a heading per project, each entry with its own named links', async () => {
    const digest = renderDigest(
      [
        sampleNotification(),
        sampleNotification({
          id: 'd-2',
          projectId: 'beta',
          kind: 'question_declared',
          gate: undefined,
          links: { open: 'https://openq.example.com/projects/beta/inbox#q-1' },
        }),
      ],
      { mode: 'daily' },
    );
    await page.setContent(digest.html);
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
      'Project acme',
      'Project beta',
    ]);
    expect(
      await page
        .getByRole('link', { name: 'Open in openq' })
        .evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).toEqual([
      'https://openq.example.com/projects/acme/inbox#q-1',
      'https://openq.example.com/projects/beta/inbox#q-1',
    ]);
    expect(await page.getByRole('link', { name: 'Accept the suggestion' }).count()).toBe(1);
    expect(browser.problems).toEqual([]);
    await browser.screenshot('notifier-email-digest');
  });
});
