// Query keys, one tree per thread so a thread's reads invalidate together and a
// late response for one thread can never land in another's cache entry.
export const queryKeys = {
  conversationList: () => ['conversation-list'] as const,
  thread: (threadId: string) => ['thread', threadId] as const,
  conversation: (threadId: string) => ['thread', threadId, 'conversation'] as const,
  workspace: (threadId: string) => ['thread', threadId, 'workspace'] as const,
  messages: (threadId: string) => ['thread', threadId, 'messages'] as const,
  /** Who has the family open, as the displayed thread's tab hears it. */
  presence: (threadId: string) => ['thread', threadId, 'presence'] as const,
  /** A family's people: keyed by the family root, the same list from any of its threads. */
  members: (rootThreadId: string) => ['members', rootThreadId] as const,
};
