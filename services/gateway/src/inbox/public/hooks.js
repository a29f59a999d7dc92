// Small data hooks: a resource that reloads without flicker, a paged list, a clock.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { language, onLanguageChange, t } from './i18n.js';

/**
 * `load()`'s result, reloaded on `reload()`; the previous data stays on screen while a reload
 * runs, and an answer older than the latest request is dropped.
 */
export function useResource(load, key) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const latest = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await loader.current();
      if (mine === latest.current) setState({ data, error: null, loading: false });
    } catch (error) {
      if (mine === latest.current) setState((s) => ({ data: s.data, error, loading: false }));
    }
  }, []);
  useEffect(() => {
    setState({ data: null, error: null, loading: true });
    reload();
  }, [key]);
  return { ...state, reload, set: (data) => setState((s) => ({ ...s, data })) };
}

const PAGE = 50;
/** Pages fetched at most to refill what was shown before a reload. */
const MAX_REFILL_PAGES = 10;

/**
 * A list with `{ items, total, nextCursor }` pages (SPEC §4: limit ≤ 50, cursor). A reload
 * refills as many items as were shown, so "Show more" survives live updates.
 */
export function usePagedList(path, key) {
  const [state, setState] = useState({
    items: [],
    total: 0,
    nextCursor: null,
    error: null,
    loading: true,
    more: false,
  });
  const latest = useRef(0);
  const shown = useRef(0);
  shown.current = state.items.length;
  const pathRef = useRef(path);
  pathRef.current = path;

  const page = (cursor) => {
    const base = pathRef.current;
    const sep = base.includes('?') ? '&' : '?';
    return api(`${base}${sep}limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
  };

  const reload = useCallback(async () => {
    const mine = ++latest.current;
    const wanted = Math.max(shown.current, 1);
    setState((s) => ({ ...s, loading: true }));
    try {
      let reply = await page(null);
      const items = [...reply.items];
      for (let n = 1; items.length < wanted && reply.nextCursor && n < MAX_REFILL_PAGES; n++) {
        reply = await page(reply.nextCursor);
        items.push(...reply.items);
      }
      if (mine === latest.current)
        setState({
          items,
          total: reply.total,
          counts: reply.counts ?? null,
          nextCursor: reply.nextCursor,
          error: null,
          loading: false,
          more: false,
        });
    } catch (error) {
      if (mine === latest.current) setState((s) => ({ ...s, error, loading: false }));
    }
  }, []);

  const more = useCallback(async () => {
    const cursor = state.nextCursor;
    if (!cursor) return;
    const mine = ++latest.current;
    setState((s) => ({ ...s, more: true }));
    try {
      const reply = await page(cursor);
      if (mine === latest.current)
        setState((s) => ({
          ...s,
          items: [...s.items, ...reply.items],
          total: reply.total,
          counts: reply.counts ?? null,
          nextCursor: reply.nextCursor,
          error: null,
          more: false,
        }));
    } catch (error) {
      if (mine === latest.current) setState((s) => ({ ...s, error, more: false }));
    }
  }, [state.nextCursor]);

  useEffect(() => {
    shown.current = 0;
    setState({ items: [], total: 0, nextCursor: null, error: null, loading: true, more: false });
    reload();
  }, [key]);

  return { ...state, reload, loadMore: more };
}

/** The time now, refreshed every 30 s (for "3 minutes ago"). */
export function useNow() {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const kept = new Map();

/**
 * `useState` whose value outlives the component, kept by `key` for the page's life: the waiting
 * panel moves between the columns when the viewport crosses the phone breakpoint (mobile.js),
 * which remounts it, and a reason half-written in its form must not be lost with it.
 */
export function useKeptState(key, initial) {
  const [value, setValue] = useState(() => (kept.has(key) ? kept.get(key) : initial));
  const set = useCallback(
    (next) =>
      setValue((previous) => {
        const value = typeof next === 'function' ? next(previous) : next;
        kept.set(key, value);
        return value;
      }),
    [key],
  );
  return [value, set];
}

/**
 * The page's person: `/me` loaded once (`loading`, `ok` with the body, `signed-out` on a 401, or
 * `error`), `load` to try again, `signOut` when a later call finds the session gone. The page's
 * title is `titleKey`'s words, and a new language re-renders the page in place (every component
 * asks t() again). The inbox and the embeddable pending block start the same way.
 */
export function useSignedIn(titleKey) {
  const [me, setMe] = useState({ status: 'loading' });
  const [, setShownLanguage] = useState(language());
  useEffect(
    () =>
      onLanguageChange((code) => {
        document.title = t(titleKey);
        setShownLanguage(code);
      }),
    [],
  );
  const load = async () => {
    try {
      setMe({ status: 'ok', ...(await api('/me')) });
    } catch (error) {
      setMe(error.status === 401 ? { status: 'signed-out' } : { status: 'error', error });
    }
  };
  useEffect(() => {
    document.title = t(titleKey);
    void load();
  }, []);
  return { me, load, signOut: () => setMe({ status: 'signed-out' }) };
}
