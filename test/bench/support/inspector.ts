import type { Session } from 'node:inspector';

/** One DevTools protocol call on an inspector session of this process (a profiler's start, stop…). */
export const inspectorPost = (session: Session, method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
