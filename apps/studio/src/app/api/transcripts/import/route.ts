import { z } from 'zod';
import { ImportProjectJsonSchema, ImportTranscriptSchema, TranscriptImportedSchema } from '@trellis/domain';
import { importProject, importTranscript } from '@trellis/services';
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
    description:
      'Given `zip_base64` instead of `content`: a zipped project folder, imported like `POST /api/transcripts`.',
    body: z.union([ImportTranscriptSchema, ImportProjectJsonSchema]),
    maxBodyBytes: MAX_TRANSCRIPT_BODY_BYTES,
    tooLargeMessage: TRANSCRIPT_TOO_LARGE,
    parseBody: parseTranscriptBody,
    response: TranscriptImportedSchema,
    status: 201,
    errors: [...AUTHED, ...JSON_BODY, 'conflict', 'rate_limited', 'unavailable', 'upstream_failed'],
  },
  async ({ body, ctx, actor }) =>
    'zip_base64' in body
      ? importProject(ctx.deps, actor, {
          zip: Buffer.from(body.zip_base64, 'base64'),
          filename: body.filename,
          again: body.again,
        })
      : importTranscript(ctx.deps, actor, body),
);
