import { z } from 'zod';
import { APP_ERROR_CODES } from '../errors/app-error';

export const IsoDateSchema = z.string().describe('ISO 8601 timestamp');

/**
 * The string every request schema builds on. Postgres cannot store a NUL byte in
 * text, and a lone UTF-16 surrogate has no UTF-8 form: both are refused at the
 * contract (422 naming the field) instead of failing in the database (500).
 */
export const StorableStringSchema = z
  .string()
  .refine((value) => !value.includes('\u0000'), 'contains a NUL character')
  .refine((value) => !/[\uD800-\uDFFF]/u.test(value), 'contains a lone surrogate');

/**
 * Every `{id}`-like path parameter (thread, preference, todo and token ids): the
 * characters our ids are made of. Anything else cannot name a row, so the edge
 * answers 404 without asking the database.
 */
export const PathIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'is not an id');

/** Every failure the API answers; `code` is the closed AppError set, which clients branch on. */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(APP_ERROR_CODES),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const OkSchema = z.object({ ok: z.literal(true) });

/**
 * The largest value of a PostgreSQL `integer` column (turn numbers, seqs, versions, depths): every
 * integer a client sends is checked against its column's range at the contract (422), never found
 * out of range by the database (a 500).
 */
export const PG_INT_MAX = 2_147_483_647;

export const TurnIndexParamSchema = z.coerce.number().int().min(0, 'must be 0 or greater').max(PG_INT_MAX, 'must be at most 2147483647');
