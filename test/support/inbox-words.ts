import type { Page } from 'playwright-core';
import { wordsOf as wordsIn } from '@openq/testing';
import { loadInboxModule } from '../../tools/build-inbox';

/*
 * The English words of the inbox's dictionaries that Portuguese never uses, and those a page
 * shows: the measure of test/e2e/inbox-language.e2e.spec.ts and of the settings pages' pt-BR checks.
 */
type Dictionary = { [key: string]: string | Dictionary };
/** Every sentence of an inbox dictionary (apps/inbox/src/<name>.ts). */
function values(name: string): string[] {
  const walk = (d: Dictionary): string[] =>
    Object.values(d).flatMap((v) => (typeof v === 'string' ? [v] : walk(v)));
  return walk(loadInboxModule(name).default as Dictionary);
}
/** A dictionary's words, its placeholders (`{{count}}`) left out, read as the pages are. */
const wordsOf = (texts: string[]): Set<string> =>
  new Set(texts.flatMap((t) => [...wordsIn(t.replace(/\{\{[^}]*\}\}/g, ' '))]));

const portuguese = wordsOf(values('locale-pt-BR'));
/** The en dictionary's words less the pt-BR one's, plus what Intl would say in English. */
export const ENGLISH_ONLY = new Set([
  ...[...wordsOf(values('locale-en'))].filter((w) => w.length >= 3 && !portuguese.has(w)),
  ...['ago', 'yesterday', 'today', 'minute', 'minutes', 'hour', 'hours', 'days', 'am', 'pm'],
]);

/**
 * English-only words a person can see or hear on the page (text, labels, titles, placeholders);
 * `also` adds words a page must not show either (a page whose dates are pinned may list months).
 */
export async function englishLeft(page: Page, also: readonly string[] = []): Promise<string[]> {
  const forbidden = new Set([...ENGLISH_ONLY, ...also]);
  const texts = await page.evaluate(() => {
    const texts: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      // The switch names each language in itself ("English" is meant to be there).
      if (!parent || parent.closest('script, style, #language-picker')) continue;
      texts.push(n.textContent ?? '');
    }
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]')))
      for (const a of ['aria-label', 'title', 'placeholder']) texts.push(el.getAttribute(a) ?? '');
    return texts;
  });
  // Words as the server-rendered checks read them: an id shown on the page (a question's, in the
  // bulk panel) is not words, though its hex may spell "dec" or "add".
  const words = new Set(texts.flatMap((t) => [...wordsIn(t)]));
  return [...words].filter((w) => forbidden.has(w));
}
