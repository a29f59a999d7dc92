// Issue #18 mobile: on a narrow screen (≤ 480 px) the page puts what waits on the person first.
import { useEffect, useState } from 'preact/hooks';

export const NARROW = '(max-width: 480px)';

/** True while the viewport is phone-narrow; follows rotation and resizes. */
export function useNarrow() {
  const query = typeof matchMedia === 'function' ? matchMedia(NARROW) : null;
  const [narrow, setNarrow] = useState(() => query?.matches ?? false);
  useEffect(() => {
    if (!query) return undefined;
    const onChange = () => setNarrow(query.matches);
    query.addEventListener('change', onChange);
    onChange();
    return () => query.removeEventListener('change', onChange);
  }, []);
  return narrow;
}
