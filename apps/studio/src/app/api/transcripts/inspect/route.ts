import { InspectTranscriptSchema, TranscriptInspectionSchema } from '@trellis/domain';
import { inspectTranscript } from '@trellis/services';
import { AUTHED, JSON_BODY, defineRoute } from '@/server/define-route';
import { MAX_TRANSCRIPT_BODY_BYTES, TRANSCRIPT_TOO_LARGE, parseTranscriptBody } from '../read-transcript-body';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/transcripts/inspect',
    tag: 'transcripts',
    summary: 'Inspect a JSONL agent transcript (Qwen Code or Claude Code): every leaf with its summary, and diagnostics',
    body: InspectTranscriptSchema,
    maxBodyBytes: MAX_TRANSCRIPT_BODY_BYTES,
    tooLargeMessage: TRANSCRIPT_TOO_LARGE,
    parseBody: parseTranscriptBody,
    response: TranscriptInspectionSchema,
    errors: [...AUTHED, ...JSON_BODY, 'rate_limited', 'unavailable'],
  },
  async ({ body, ctx, actor }) => inspectTranscript(ctx.deps, actor, body),
);
