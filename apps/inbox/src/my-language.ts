// Issue #30 the person's language for what openq sends them (e-mails, Slack messages, digests,
// one-tap pages): `PUT /me/language`, on every project. The header's switch keeps its choice here;
// the settings page shows it and is told when it changes.
import { api } from './api';
import type { Language, LanguageView } from '@openq/contracts/browser';

type Listener = (view: LanguageView) => void;
const listeners = new Set<Listener>();

/** Keep `language` (null: none, the project's applies) as the person's; listeners hear the reply. */
export async function keepMyLanguage(language: Language | null): Promise<LanguageView> {
  const view = await api<LanguageView>('/me/language', { method: 'PUT', body: { language } });
  for (const listener of listeners) listener(view);
  return view;
}

/** Call `listener` with the person's setting each time it is kept; returns the unsubscribe. */
export function onMyLanguageKept(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
