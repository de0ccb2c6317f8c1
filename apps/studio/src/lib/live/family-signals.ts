// What the family stream hears that is not a row of the record — a document's new versions — passed
// from the one stream of the page to the live editors that want them, without a React re-render.
import type { DocumentUpdatesSignal } from '@trellis/domain';

type Listener = (signal: DocumentUpdatesSignal | { thread_id: null; reconnected: true }) => void;

const listeners = new Set<Listener>();

export const familySignals = {
  /** A document's new versions (or only its version, when they were too large to travel). */
  documentUpdates(signal: DocumentUpdatesSignal): void {
    for (const listener of listeners) listener(signal);
  },
  /** The stream reconnected: whatever was signalled meanwhile is lost; editors read what they missed. */
  reconnected(): void {
    for (const listener of listeners) listener({ thread_id: null, reconnected: true });
  },
  listen(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** A random id for this tab or editor (letters and digits, as the API's `client_id` wants). */
export function newClientId(prefix: string): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
