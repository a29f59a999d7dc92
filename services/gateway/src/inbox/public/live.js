// The project's live stream: EventSource on /projects/:p/stream (the openq_token cookie goes with it).
import { useEffect, useRef, useState } from 'preact/hooks';
import { projectPath } from './api.js';

/** Every event type the stream sends (EventSource delivers named events only to their listeners). */
const TYPES = [
  'ready',
  'open_count',
  'question.declared',
  'question.answered',
  'question.withdrawn',
  'question.joined',
  'question.precedent_offered',
  'question.split',
  'question.rejected',
  'decision.recorded',
  'decision.superseded',
  'gate.verdict_recorded',
  'gate.rescue_parked',
  'gate.resumed',
  'gate.redispatch_requested',
  'pipeline.task_admitted',
  'pipeline.needs_input',
  'pipeline.in_review',
  'pipeline.advanced',
  'pipeline.analysis_incomplete',
  'pipeline.task_paused',
  'pipeline.task_unpaused',
  'pipeline.analyst_relaunch',
  'pipeline.repo_frozen',
  'pipeline.repo_unfrozen',
  'gate.verdict_rejected',
];

/**
 * Calls `onEvent(type, data)` for each event; returns `connecting | live | reconnecting | offline`.
 * While the connection drops the browser reconnects by itself with `Last-Event-ID` (the server
 * replays what was missed). When the server refuses outright (signed out, over capacity) the
 * EventSource gives up; then `onEvent('closed')` and a fresh try later, with backoff.
 */
export function useLiveStream(projectId, onEvent) {
  const [status, setStatus] = useState('connecting');
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    if (!projectId) return undefined;
    let source = null;
    let timer = null;
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
      source.onerror = () => {
        if (source.readyState === EventSource.CONNECTING) {
          setStatus('reconnecting');
          return;
        }
        source.close();
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
