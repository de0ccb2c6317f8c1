import { z } from 'zod';

/** A thread id: `th_` + 32 lowercase hex (a UUID without dashes). */
export const ThreadIdSchema = z.string().regex(/^th_[0-9a-f]{32}$/, 'must be th_ followed by 32 lowercase hex digits');
export type ThreadId = z.infer<typeof ThreadIdSchema>;

export function newThreadId(randomUUID: () => string): ThreadId {
  return `th_${randomUUID().replaceAll('-', '').toLowerCase()}`;
}

export function isThreadId(value: string): value is ThreadId {
  return ThreadIdSchema.safeParse(value).success;
}
