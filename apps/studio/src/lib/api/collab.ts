import {
  DocumentUpdatesSchema,
  PresenceSchema,
  type DocumentUpdates,
  type HeartbeatPresence,
  type Presence,
  type PushDocumentUpdates,
} from '@trellis/domain';
import { apiJson } from './http';
import { apiPaths } from './paths';

export const collabApi = {
  /** The document's updates after `since` (a live editor catching up). */
  pull(threadId: string, since: number, signal?: AbortSignal): Promise<DocumentUpdates> {
    return apiJson(DocumentUpdatesSchema, `${apiPaths.documentUpdates(threadId)}?since=${since}`, { signal });
  },
  /** Sends a live editor's unconfirmed updates; answers every update after the version they were made on. */
  push(threadId: string, push: PushDocumentUpdates): Promise<DocumentUpdates> {
    return apiJson(DocumentUpdatesSchema, apiPaths.documentUpdates(threadId), { method: 'POST', body: push });
  },
};

export const presenceApi = {
  get(threadId: string, signal?: AbortSignal): Promise<Presence> {
    return apiJson(PresenceSchema, apiPaths.presence(threadId), { signal });
  },
  heartbeat(threadId: string, beat: HeartbeatPresence): Promise<Presence> {
    return apiJson(PresenceSchema, apiPaths.presence(threadId), { method: 'POST', body: beat });
  },
  /** Sent while the page closes: `keepalive` lets the request outlive the page. */
  leave(threadId: string, clientId: string): void {
    void fetch(`${apiPaths.presence(threadId)}?client_id=${encodeURIComponent(clientId)}`, {
      method: 'DELETE',
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => undefined);
  },
};
