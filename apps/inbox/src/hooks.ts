// Small data hooks: a resource that reloads without flicker, a paged list, a clock.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, type ApiError } from './api';
import { language, onLanguageChange, t } from './i18n';

/**
 * `load()`'s result, reloaded on `reload()`; the previous data stays on screen while a reload
 * runs, and an answer older than the latest request is dropped.
 */
export interface Resource<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => Promise<void>;
  set: (data: T) => void;
}

export function useResource<T>(load: () => Promise<T>, key: unknown): Resource<T> {
  const [state, setState] = useState<{ data: T | null; error: ApiError | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
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
      if (mine === latest.current)
        setState((s) => ({ data: s.data, error: error as ApiError, loading: false }));
    }
  }, []);
  useEffect(() => {
    setState({ data: null, error: null, loading: true });
    void reload();
  }, [key]);
  return { ...state, reload, set: (data: T) => setState((s) => ({ ...s, data })) };
}

const PAGE = 50;
/** Pages fetched at most to refill what was shown before a reload. */
const MAX_REFILL_PAGES = 10;

/**
 * A list with `{ items, total, nextCursor }` pages (SPEC §4: limit ≤ 50, cursor). A reload
 * refills as many items as were shown, so "Show more" survives live updates.
 */
/** One page of a list (SPEC §4); `counts`: the queue's per-filter counts where the route gives them. */
export interface ListPage<T> {
  items: T[];
  total: number;
  nextCursor: string | null;
  counts?: Record<string, number> | null;
}

interface PagedState<T> {
  items: T[];
  total: number;
  counts?: Record<string, number> | null;
  nextCursor: string | null;
  error: ApiError | null;
  loading: boolean;
  more: boolean;
}

export interface PagedList<T> extends PagedState<T> {
  reload: () => Promise<void>;
  loadMore: () => Promise<void>;
}

// The lists' items are the gateway's JSON: each caller reads the fields it needs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function usePagedList<T = any>(path: string, key: unknown): PagedList<T> {
  const [state, setState] = useState<PagedState<T>>({
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

  const page = (cursor: string | null): Promise<ListPage<T>> => {
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
      if (mine === latest.current) setState((s) => ({ ...s, error: error as ApiError, loading: false }));
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
      if (mine === latest.current) setState((s) => ({ ...s, error: error as ApiError, more: false }));
    }
  }, [state.nextCursor]);

  useEffect(() => {
    shown.current = 0;
    setState({ items: [], total: 0, nextCursor: null, error: null, loading: true, more: false });
    void reload();
  }, [key]);

  return { ...state, reload, loadMore: more };
}

/** The time now, refreshed every 30 s (for "3 minutes ago"). */
/**
 * A form's draft of a value the server holds: the server's value until the person edits it, and
 * the server's again, in the same render, whenever `version` changes (loaded, saved, changed
 * elsewhere) — never a frame where the page says one thing and the control shows another.
 */
export function useDraft<T>(
  server: () => T,
  version: unknown,
): [T, (next: T | ((previous: T) => T)) => void] {
  const [draft, setDraft] = useState<{ version: unknown; value: T } | null>(null);
  const value = draft && Object.is(draft.version, version) ? draft.value : server();
  const set = (next: T | ((previous: T) => T)) =>
    setDraft((current) => {
      const base = current && Object.is(current.version, version) ? current.value : server();
      return { version, value: typeof next === 'function' ? (next as (previous: T) => T)(base) : next };
    });
  return [value, set];
}

export function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const kept = new Map<string, unknown>();

/**
 * `useState` whose value outlives the component, kept by `key` for the page's life: the waiting
 * panel moves between the columns when the viewport crosses the phone breakpoint (mobile.js),
 * which remounts it, and a reason half-written in its form must not be lost with it.
 */
export function useKeptState<T>(key: string, initial: T): [T, (next: T | ((previous: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => (kept.has(key) ? (kept.get(key) as T) : initial));
  const set = useCallback(
    (next: T | ((previous: T) => T)) =>
      setValue((previous) => {
        const value = typeof next === 'function' ? (next as (previous: T) => T)(previous) : next;
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
/** The signed-in person (`GET /me`): their id and their role in each project. */
export interface Me {
  sub: string;
  roles: Record<string, string>;
}

export type SignedIn =
  | { status: 'loading' }
  | ({ status: 'ok' } & Me)
  | { status: 'signed-out' }
  | { status: 'error'; error: ApiError };

export function useSignedIn(titleKey: string): {
  me: SignedIn;
  load: () => Promise<void>;
  signOut: () => void;
} {
  const [me, setMe] = useState<SignedIn>({ status: 'loading' });
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
      setMe({ status: 'ok', ...(await api<Me>('/me')) });
    } catch (error) {
      const refusal = error as ApiError;
      setMe(refusal.status === 401 ? { status: 'signed-out' } : { status: 'error', error: refusal });
    }
  };
  useEffect(() => {
    document.title = t(titleKey);
    void load();
  }, []);
  return { me, load, signOut: () => setMe({ status: 'signed-out' }) };
}
