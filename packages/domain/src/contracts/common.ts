import { z } from 'zod';

export const IsoDateSchema = z.string().describe('ISO 8601 timestamp');

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const OkSchema = z.object({ ok: z.literal(true) });

export const TurnIndexParamSchema = z.coerce.number().int().min(0, 'must be 0 or greater');
