// The project's live stream: EventSource on /projects/:p/stream (the openq_token cookie goes with it).
import { useEffect, useRef, useState } from 'preact/hooks';
import { LIVE_EVENT_TYPES, type LiveEventType } from '@openq/contracts/browser';
import { projectPath } from './api';

/**
 * Every event type the stream sends (EventSource delivers named events only to their listeners):
 * libs/contracts' list, the one the gateway's stream is built from.
 */
const TYPES = LIVE_EVENT_TYPES;

/** What the page hears: a stream event, or `closed` when the server refused and a retry is due. */
export type LiveHandler = (type: LiveEventType | 'closed', data: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'offline';

/**
 * Calls `onEvent(type, data)` for each event; returns `connecting | live | reconnecting | offline`.
 * While the connection drops the browser reconnects by itself with `Last-Event-ID` (the server
 * replays what was missed). When the server refuses outright (signed out, over capacity) the
 * EventSource gives up; then `onEvent('closed')` and a fresh try later, with backoff.
 */
export function useLiveStream(projectId: string | null, onEvent: LiveHandler): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    if (!projectId) return undefined;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const connect = () => {
      // Issue #18 `*`: every project of the person (all-projects.js).
      source = new EventSource(projectId === '*' ? '/me/stream' : projectPath(projectId, '/stream'));
      setStatus(failures ? 'reconnecting' : 'connecting');
      for (const type of TYPES) {
        source.addEventListener(type, (event) => {
          let data = null;
          try {
            data = JSON.parse(event.data);
          } catch {
            return;
          }
          if (type === 'ready') {
            failures = 0;
            setStatus('live');
          }
          handler.current(type, data);
        });
      }
      const opened = source;
      source.onerror = () => {
        if (opened.readyState === EventSource.CONNECTING) {
          setStatus('reconnecting');
          return;
        }
        opened.close();
        failures++;
        setStatus('offline');
        handler.current('closed', null);
        timer = setTimeout(connect, Math.min(30_000, 1000 * 2 ** Math.min(failures, 5)));
      };
    };
    connect();
    return () => {
      clearTimeout(timer);
      source?.close();
    };
  }, [projectId]);

  return status;
}
