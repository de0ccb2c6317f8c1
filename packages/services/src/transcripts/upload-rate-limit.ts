import { AppError } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { consumeRateLimit, type RateLimitRule } from '../rate-limit/consume-rate-limit';

/** Inspections and imports together, per user: reading a transcript is the costliest request there is. */
export const UPLOAD_RATE_LIMIT: RateLimitRule = { limit: 30, windowMs: 60_000 };

/** 429 past the user's allowance, saying when the next upload is accepted. */
export async function consumeUploadAllowance(deps: Pick<ServiceDeps, 'db'>, userId: string): Promise<void> {
  try {
    await consumeRateLimit(deps.db, `transcript-upload:${userId}`, UPLOAD_RATE_LIMIT);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
    const retry = (error.details as { retry_after_seconds?: number } | undefined)?.retry_after_seconds ?? 60;
    throw new AppError(
      'rate_limited',
      `Too many uploads: at most ${UPLOAD_RATE_LIMIT.limit} transcripts a minute; try again in ${retry} s`,
      { details: { retry_after_seconds: retry } },
    );
  }
}
