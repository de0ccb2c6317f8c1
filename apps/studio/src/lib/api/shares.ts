import {
  MessageListSchema,
  ReplaySchema,
  ShareListSchema,
  ShareSchema,
  SharedCopySchema,
  SharedViewSchema,
  type CreateShare,
  type MessageList,
  type Replay,
  type Share,
  type ShareList,
  type SharedView,
  type UpdateShare,
} from '@trellis/domain';
import { apiCall, apiJson } from './http';
import { apiPaths } from './paths';

/** The owner's side: a family's links. */
export const sharesApi = {
  list(threadId: string, signal?: AbortSignal): Promise<ShareList> {
    return apiJson(ShareListSchema, `${apiPaths.conversation(threadId)}/shares`, { signal });
  },
  create(threadId: string, body: Partial<CreateShare>): Promise<Share> {
    return apiJson(ShareSchema, `${apiPaths.conversation(threadId)}/shares`, { method: 'POST', body });
  },
  update(shareId: string, body: UpdateShare): Promise<Share> {
    return apiJson(ShareSchema, `/api/shares/${encodeURIComponent(shareId)}`, { method: 'PATCH', body });
  },
  revoke(shareId: string): Promise<void> {
    return apiCall(`/api/shares/${encodeURIComponent(shareId)}`, { method: 'DELETE' });
  },
};

/** Where a link shows which path and step (a family link can open any of its paths). */
export interface SharedPlace {
  thread?: string | undefined;
  turn?: number | undefined;
}

function placeQuery(place: SharedPlace, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  if (place.thread !== undefined) params.set('thread', place.thread);
  if (place.turn !== undefined) params.set('turn', String(place.turn));
  return params.size > 0 ? `?${params}` : '';
}

const sharedBase = (token: string) => `/api/shared/${encodeURIComponent(token)}`;

/** The reader's side: what a link shows, needing no account. */
export const sharedApi = {
  view(token: string, place: SharedPlace, signal?: AbortSignal): Promise<SharedView> {
    return apiJson(SharedViewSchema, `${sharedBase(token)}${placeQuery(place)}`, { signal });
  },
  earlier(token: string, place: SharedPlace, beforeTurn: number, signal?: AbortSignal): Promise<MessageList> {
    return apiJson(MessageListSchema, `${sharedBase(token)}/messages${placeQuery(place, { before_turn: String(beforeTurn) })}`, { signal });
  },
  replay(token: string, thread: string | undefined, seq: number, signal?: AbortSignal): Promise<Replay> {
    const params = new URLSearchParams({ seq: String(seq) });
    if (thread !== undefined) params.set('thread', thread);
    return apiJson(ReplaySchema, `${sharedBase(token)}/replay?${params}`, { signal });
  },
  documentHref(token: string, place: SharedPlace): string {
    return `${sharedBase(token)}/export${placeQuery(place)}`;
  },
  copy(token: string, turn?: number): Promise<{ thread_id: string }> {
    return apiJson(SharedCopySchema, `${sharedBase(token)}/copy`, { method: 'POST', body: turn === undefined ? {} : { turn } });
  },
};
