import { z } from 'zod';
import { IsoDateSchema, StorableStringSchema } from './common';

export const CreateTokenSchema = z.object({ name: StorableStringSchema.trim().min(1).max(100) }).strict();
export type CreateToken = z.infer<typeof CreateTokenSchema>;

export const TokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('the first characters of the secret, to tell tokens apart'),
  created_at: IsoDateSchema,
  last_used_at: IsoDateSchema.nullable(),
});
export const TokenCreatedSchema = z.object({
  id: z.string(),
  name: z.string(),
  token: z.string().describe('the secret; shown once, stored hashed'),
});
export type ApiToken = z.infer<typeof TokenSchema>;
export type TokenCreated = z.infer<typeof TokenCreatedSchema>;
export const TokenListSchema = z.object({ tokens: z.array(TokenSchema) });

export const HealthSchema = z.object({
  ok: z.boolean(),
  database: z.boolean(),
  checkpointer: z.boolean(),
  event_loop_delay: z
    .object({ p99_ms: z.number().min(0), max_ms: z.number().min(0) })
    .describe('how late this process ran its event loop over the last minute (p99 and max, milliseconds): a busy request thread delays every request by this much'),
});
