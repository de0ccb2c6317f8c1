import { ImportTranscriptSchema, TranscriptImportedSchema } from '@trellis/domain';
import { importTranscript } from '@trellis/services';
import { AUTHED, JSON_BODY, defineRoute } from '@/server/define-route';
import {
  MAX_TRANSCRIPT_BODY_BYTES,
  TRANSCRIPT_TOO_LARGE,
  parseTranscriptBody,
} from '../read-transcript-body';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/transcripts/import',
    tag: 'transcripts',
    summary: 'Import a transcript: all leaves as one branch family, or one conversation per chosen leaf',
    body: ImportTranscriptSchema,
    maxBodyBytes: MAX_TRANSCRIPT_BODY_BYTES,
    tooLargeMessage: TRANSCRIPT_TOO_LARGE,
    parseBody: parseTranscriptBody,
    response: TranscriptImportedSchema,
    status: 201,
    errors: [...AUTHED, ...JSON_BODY, 'conflict', 'rate_limited', 'unavailable', 'upstream_failed'],
  },
  async ({ body, ctx, actor }) => importTranscript(ctx.deps, actor, body),
);
