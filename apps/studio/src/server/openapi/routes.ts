import { z } from 'zod';
import {
  BranchCreatedSchema,
  ConversationListSchema,
  ConversationSchema,
  CreateBranchSchema,
  CreateConversationSchema,
  CompareSchema,
  CreatePreferenceSchema,
  CreateTodoSchema,
  CreateTokenSchema,
  CursorSchema,
  EditTurnSchema,
  FamilyGraphSchema,
  HealthSchema,
  MessageListQuerySchema,
  MessageListSchema,
  PatchWorkspaceSchema,
  PreferenceSchema,
  PutCursorSchema,
  UpdateConversationSchema,
  ReorderSchema,
  RestoreViewSchema,
  SearchQuerySchema,
  SearchResultSchema,
  SendMessageSchema,
  SiblingListSchema,
  StepChangesSchema,
  TodoSchema,
  TokenCreatedSchema,
  TokenListSchema,
  UpdatePreferenceSchema,
  UpdateTodoSchema,
  WorkspaceSchema,
} from '@trellis/domain';
import { ImportTranscriptSchema, InspectTranscriptSchema, TranscriptImportedSchema, TranscriptInspectionSchema } from '@trellis/domain';

export interface ApiRouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  tag: string;
  summary: string;
  description?: string;
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
  contentType?: string;
  status?: number;
  errors?: number[];
  isPublic?: boolean;
}

const owned = [401, 403, 404];
const sse =
  'text/event-stream of events: `turn {turn_index, thread_id}` first, then `token {text}` and `tool {name, args, result}`, then `done {turn_index, message_id}` or `error {code, message}`.';

export const API_ROUTES: ApiRouteSpec[] = [
  { method: 'GET', path: '/api/health', tag: 'system', summary: 'Database and checkpointer health', response: HealthSchema, isPublic: true },
  { method: 'GET', path: '/api/openapi.json', tag: 'system', summary: 'This document', isPublic: true, contentType: 'application/json' },
  { method: 'GET', path: '/api/docs', tag: 'system', summary: 'Browsable API reference', isPublic: true, contentType: 'text/html' },
  {
    method: 'GET',
    path: '/api/auth/{path}',
    tag: 'auth',
    summary: 'better-auth routes (session, sign-out …)',
    isPublic: true,
  },
  {
    method: 'POST',
    path: '/api/auth/{path}',
    tag: 'auth',
    summary: 'better-auth routes: sign-up/email {name, email, password}, sign-in/email {email, password}, sign-out',
    description:
      'JSON object bodies only (400 otherwise, 415 for other media types). Sign-in is rate limited per client address and per (address, email), sign-up per address (429). A password change ends every other session and revokes every API token.',
    isPublic: true,
    errors: [400, 401, 413, 415, 422, 429],
  },
  { method: 'GET', path: '/api/tokens', tag: 'tokens', summary: "The caller's API tokens (never the secrets); a signed-in session only, not a token", response: TokenListSchema, errors: [401, 403] },
  {
    method: 'POST',
    path: '/api/tokens',
    tag: 'tokens',
    summary: 'Create a personal API token (signed-in session only); the secret is shown once',
    body: CreateTokenSchema,
    response: TokenCreatedSchema,
    status: 201,
    errors: [401, 403, 422, 429],
  },
  { method: 'DELETE', path: '/api/tokens/{id}', tag: 'tokens', summary: 'Revoke a token', status: 204, errors: owned },

  { method: 'GET', path: '/api/conversations', tag: 'conversations', summary: "The caller's conversations, newest first, with lineage (archived subtrees only with include_archived=true)", query: z.object({ include_archived: z.enum(['true', 'false']).optional(), limit: z.string().optional().describe('page size in conversations (1–500); pages hold whole families'), cursor: z.string().optional().describe('next_cursor of the previous page') }), response: ConversationListSchema, errors: [401, 422] },
  { method: 'GET', path: '/api/search', tag: 'conversations', summary: "Full-text search over the caller's messages, replies, document versions, preferences and todos, best first", query: SearchQuerySchema, response: SearchResultSchema, errors: [401, 403, 404, 422] },
  { method: 'POST', path: '/api/conversations', tag: 'conversations', summary: 'Create a conversation', body: CreateConversationSchema, response: ConversationSchema, status: 201, errors: [401, 422] },
  { method: 'GET', path: '/api/conversations/{id}', tag: 'conversations', summary: 'One conversation', response: ConversationSchema, errors: owned },
  { method: 'PATCH', path: '/api/conversations/{id}', tag: 'conversations', summary: 'Rename, star or archive (archived: false restores)', body: UpdateConversationSchema, response: ConversationSchema, errors: [...owned, 422] },
  { method: 'DELETE', path: '/api/conversations/{id}', tag: 'conversations', summary: 'Soft delete (a branch takes its subtree out of lists and graphs)', status: 204, errors: owned },

  { method: 'GET', path: '/api/conversations/{id}/workspace', tag: 'workspace', summary: 'The live workspace', response: WorkspaceSchema, errors: owned },
  { method: 'PATCH', path: '/api/conversations/{id}/workspace', tag: 'workspace', summary: 'Edit objective and document', body: PatchWorkspaceSchema, response: WorkspaceSchema, errors: [...owned, 422] },
  { method: 'POST', path: '/api/conversations/{id}/preferences', tag: 'workspace', summary: 'Add a preference', body: CreatePreferenceSchema, response: PreferenceSchema, status: 201, errors: [...owned, 422] },
  { method: 'PATCH', path: '/api/conversations/{id}/preferences/{pid}', tag: 'workspace', summary: 'Edit or (un)lock a preference', body: UpdatePreferenceSchema, response: PreferenceSchema, errors: [...owned, 422] },
  { method: 'DELETE', path: '/api/conversations/{id}/preferences/{pid}', tag: 'workspace', summary: 'Remove a preference', status: 204, errors: owned },
  { method: 'POST', path: '/api/conversations/{id}/preferences/reorder', tag: 'workspace', summary: 'Reorder preferences (all ids, new order)', body: ReorderSchema, response: z.object({ preferences: z.array(PreferenceSchema) }), errors: [...owned, 422] },
  { method: 'POST', path: '/api/conversations/{id}/todos', tag: 'workspace', summary: 'Add a todo', body: CreateTodoSchema, response: TodoSchema, status: 201, errors: [...owned, 422] },
  { method: 'PATCH', path: '/api/conversations/{id}/todos/{pid}', tag: 'workspace', summary: 'Edit, nest or complete a todo', body: UpdateTodoSchema, response: TodoSchema, errors: [...owned, 422] },
  { method: 'DELETE', path: '/api/conversations/{id}/todos/{pid}', tag: 'workspace', summary: 'Remove a todo', status: 204, errors: owned },
  { method: 'POST', path: '/api/conversations/{id}/todos/reorder', tag: 'workspace', summary: 'Reorder todos (all ids, new order)', body: ReorderSchema, response: z.object({ todos: z.array(TodoSchema) }), errors: [...owned, 422] },

  { method: 'GET', path: '/api/conversations/{id}/messages', tag: 'turns', summary: 'The displayed path’s transcript, paginated by turns', query: MessageListQuerySchema, response: MessageListSchema, errors: owned },
  { method: 'POST', path: '/api/conversations/{id}/messages', tag: 'turns', summary: 'Send a message: one turn, streamed', description: sse, body: SendMessageSchema, contentType: 'text/event-stream', errors: [...owned, 409, 422] },

  { method: 'GET', path: '/api/conversations/{id}/turns/{k}', tag: 'branches', summary: 'Restore view: the workspace after turn k and the transcript up to it (creates nothing)', response: RestoreViewSchema, errors: [...owned, 409, 422] },
  { method: 'POST', path: '/api/conversations/{id}/branch', tag: 'branches', summary: 'Create a branch at from_turn (optionally from an edited preview)', body: CreateBranchSchema, response: BranchCreatedSchema, status: 201, errors: [400, ...owned, 409, 422, 502] },
  {
    method: 'GET',
    path: '/api/conversations/{id}/graph',
    tag: 'branches',
    summary: 'The family graph (format=json|graphml|mermaid|dot)',
    query: z.object({ format: z.enum(['json', 'graphml', 'mermaid', 'dot']).optional(), include_archived: z.enum(['true', 'false']).optional() }),
    response: FamilyGraphSchema,
    errors: owned,
  },
  {
    method: 'GET',
    path: '/api/conversations/{id}/export',
    tag: 'branches',
    summary: 'The displayed path as Markdown (an attachment named after its title); scope=family: a zip of every path plus the graph as Mermaid',
    query: z.object({ format: z.literal('markdown'), scope: z.enum(['path', 'family']).optional() }),
    contentType: 'text/markdown',
    errors: [...owned, 422],
  },
  {
    method: 'GET',
    path: '/api/conversations/{id}/compare',
    tag: 'branches',
    summary: 'Compare the workspace after two steps of the family (a, b: "{thread_id}:{turn}"; format=json|diff)',
    query: z.object({ a: z.string(), b: z.string(), format: z.enum(['json', 'diff']).optional() }),
    response: CompareSchema,
    errors: [...owned, 409, 422],
  },
  { method: 'GET', path: '/api/conversations/{id}/turns/{k}/changes', tag: 'branches', summary: 'What changed at step k (the compare of k−1 and k) and what was discarded there', response: StepChangesSchema, errors: [...owned, 409, 422] },
  { method: 'POST', path: '/api/conversations/{id}/turns/{k}/edit', tag: 'siblings', summary: 'Edit turn k’s message: creates the sibling branch at k−1', body: EditTurnSchema, response: z.object({ thread_id: z.string() }), status: 201, errors: [...owned, 422, 502] },
  { method: 'POST', path: '/api/conversations/{id}/turns/{k}/regenerate', tag: 'siblings', summary: 'Regenerate turn k’s reply as a sibling; streams `branch {thread_id}` first', description: sse, contentType: 'text/event-stream', errors: [...owned, 409, 502] },
  { method: 'GET', path: '/api/conversations/{id}/turns/{k}/siblings', tag: 'siblings', summary: 'The paths that diverge at step k, oldest first', response: SiblingListSchema, errors: owned },
  { method: 'GET', path: '/api/conversations/{id}/cursor', tag: 'siblings', summary: 'The last viewed thread of the family', response: CursorSchema, errors: owned },
  { method: 'PUT', path: '/api/conversations/{id}/cursor', tag: 'siblings', summary: 'Remember the viewed thread of the family', body: PutCursorSchema, response: CursorSchema, errors: [...owned, 422] },
  { method: 'POST', path: '/api/transcripts/inspect', tag: 'transcripts', summary: 'Inspect a JSONL agent transcript (Qwen Code or Claude Code): every leaf with its summary, and diagnostics', body: InspectTranscriptSchema, response: TranscriptInspectionSchema, errors: [400, 401, 413, 422] },
  { method: 'POST', path: '/api/transcripts/import', tag: 'transcripts', summary: 'Import a transcript: all leaves as one branch family, or one conversation per chosen leaf', body: ImportTranscriptSchema, response: TranscriptImportedSchema, status: 201, errors: [400, 401, 413, 422, 502] },
];
