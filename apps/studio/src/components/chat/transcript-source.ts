import type { Message } from '@trellis/domain';

/**
 * The messages the chat shows, independent of where they come from: the live
 * thread (use-live-transcript) today; a restored step's truncated transcript
 * later, with `hasEarlier` false and no paging.
 */
export interface TranscriptSource {
  /** Oldest first. */
  messages: Message[];
  status: 'idle' | 'loading' | 'error' | 'ready';
  error: unknown;
  retry: () => void;
  hasEarlier: boolean;
  isLoadingEarlier: boolean;
  loadEarlier: () => void;
  /** The turn the server says is being answered now on this thread (any tab, any process); null when none. */
  runningTurn: number | null;
}
