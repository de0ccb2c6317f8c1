/** URL builders for the conversation API; ids are always encoded. */
export const apiPaths = {
  conversations: () => '/api/conversations',
  conversation: (threadId: string) => `/api/conversations/${encodeURIComponent(threadId)}`,
  workspace: (threadId: string) => `${apiPaths.conversation(threadId)}/workspace`,
  preferences: (threadId: string) => `${apiPaths.conversation(threadId)}/preferences`,
  preference: (threadId: string, id: string) => `${apiPaths.preferences(threadId)}/${encodeURIComponent(id)}`,
  todos: (threadId: string) => `${apiPaths.conversation(threadId)}/todos`,
  todo: (threadId: string, id: string) => `${apiPaths.todos(threadId)}/${encodeURIComponent(id)}`,
  messages: (threadId: string) => `${apiPaths.conversation(threadId)}/messages`,
  documentUpdates: (threadId: string) => `${apiPaths.conversation(threadId)}/document/updates`,
  presence: (threadId: string) => `${apiPaths.conversation(threadId)}/presence`,
  events: (threadId: string) => `${apiPaths.conversation(threadId)}/events`,
  members: (threadId: string) => `${apiPaths.conversation(threadId)}/members`,
  member: (threadId: string, userId: string) => `${apiPaths.members(threadId)}/${encodeURIComponent(userId)}`,
  invitations: (threadId: string) => `${apiPaths.conversation(threadId)}/invitations`,
  turnStream: (threadId: string, turn: number) => `${apiPaths.conversation(threadId)}/turns/${turn}/stream`,
  turnStop: (threadId: string, turn: number) => `${apiPaths.conversation(threadId)}/turns/${turn}/stop`,
};
