import { CursorSchema, type PutCursorSchema } from '@trellis/domain';
import type { z } from 'zod';
import { apiCall, apiJson } from './http';
import { apiPaths } from './paths';

type PutCursor = z.input<typeof PutCursorSchema>;

/**
 * The family's last viewed thread, per user, kept on the server (LESSONS: "the selected branch
 * reset on reload"): the studio records every thread it displays and opens a conversation there.
 */
export const cursorApi = {
  /** The thread to open for the family of `threadId` (`threadId` itself when none was recorded). */
  async get(threadId: string, signal?: AbortSignal): Promise<string> {
    const cursor = await apiJson(CursorSchema, `${apiPaths.conversation(threadId)}/cursor`, { signal });
    return cursor.thread_id;
  },
  /** Records `threadId` as the displayed thread of its family. */
  put(threadId: string): Promise<void> {
    const body: PutCursor = { thread_id: threadId };
    return apiCall(`${apiPaths.conversation(threadId)}/cursor`, { method: 'PUT', body });
  },
};
