import { UserBrowser } from '@openq/testing/browser';
import { Stack, type StackOptions } from './stack';

export type InboxRole = 'viewer' | 'developer' | 'maintainer';

/** The browser's language (default `en-US`) and window size. */
export interface BrowserOptions {
  locale?: string;
  viewport?: { width: number; height: number };
}

export interface InboxHarness {
  /** The stack the suite runs against (set once `beforeAll` ran). */
  readonly stack: Stack;
  /** A browser whose cookie holds `user`'s token on `project` (none for `null`), closed after the test. */
  open(
    user: string | null,
    project: string,
    role?: InboxRole,
    browser?: BrowserOptions,
  ): Promise<UserBrowser>;
  /** `open`, then the inbox of `project`, once its live stream is connected. */
  person(user: string, project: string, role?: InboxRole, browser?: BrowserOptions): Promise<UserBrowser>;
}

/**
 * The inbox suites' lifecycle: the stack (questions, gates, context, the notifier and the
 * gateway, or what `options` name) for the file, and browsers closed after each test, which must
 * have logged no error and thrown nothing (`options` may be a function, called in `beforeAll`:
 * what it needs may start in an earlier `beforeAll` of the suite). The notifier is in by default since the queue asks it
 * where each open question stands on the clock (issue #17): without it that look is a 503.
 */
export function useInboxStack(options: StackOptions | (() => StackOptions) = {}): InboxHarness {
  let stack: Stack | undefined;
  const browsers: UserBrowser[] = [];
  beforeAll(async () => {
    // A function is read here, once the suite's own `beforeAll`s ran (an SMTP sink's port).
    const chosen = typeof options === 'function' ? options() : options;
    stack = await Stack.start({ services: ['questions', 'gates', 'context', 'notifier'], ...chosen });
  });
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await stack?.stop();
  });
  afterEach(async () => {
    // A good page logs no error and throws nothing.
    for (const b of browsers.splice(0)) {
      expect(b.problems).toEqual([]);
      await b.close();
    }
  });
  const harness: InboxHarness = {
    get stack() {
      if (!stack) throw new Error('the stack starts in beforeAll');
      return stack;
    },
    async open(user, project, role = 'developer', browser = {}) {
      const b = await UserBrowser.open(
        harness.stack.baseUrl,
        user === null ? null : harness.stack.token(user, project, role),
        browser.viewport,
        browser.locale,
      );
      browsers.push(b);
      return b;
    },
    async person(user, project, role = 'developer', browser = {}) {
      const b = await harness.open(user, project, role, browser);
      await b.inbox(harness.stack.baseUrl, project);
      await b.page.locator('.live-live').waitFor();
      return b;
    },
  };
  return harness;
}
