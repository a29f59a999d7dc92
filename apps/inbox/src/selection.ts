// Issue #18 fast hands: which open questions the person has ticked for "Accept suggestions".
// One small store shared by the cards' checkboxes, the bulk bar and the `x` shortcut.
import { useEffect, useState } from 'preact/hooks';

const selected = new Set<string>();
const listeners = new Set<(ids: Set<string>) => void>();

function changed() {
  for (const listener of listeners) listener(new Set(selected));
}

/** A card can be ticked when its person may answer it and it carries a suggestion to accept. */
export function selectable(q: { canAnswer?: boolean; sugestao?: string | null } | null | undefined): boolean {
  return Boolean(q?.canAnswer && q.sugestao);
}

export function toggleSelected(questionId: string, on = !selected.has(questionId)): void {
  if (on) selected.add(questionId);
  else selected.delete(questionId);
  changed();
}

export function clearSelection(ids = [...selected]) {
  for (const id of ids) selected.delete(id);
  changed();
}

/** The ticked ids, re-rendering the caller when they change. */
export function useSelection() {
  const [ids, setIds] = useState(() => new Set(selected));
  useEffect(() => {
    listeners.add(setIds);
    return () => listeners.delete(setIds);
  }, []);
  return ids;
}
