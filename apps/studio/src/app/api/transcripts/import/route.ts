import { ImportTranscriptSchema } from '@trellis/domain';
import { importTranscript } from '@trellis/services';
import { authed } from '@/server/http';
import { readTranscriptBody } from '../read-transcript-body';

export const dynamic = 'force-dynamic';

export const POST = authed(
  async ({ request, ctx, actor }) => importTranscript(ctx.deps, actor, await readTranscriptBody(request, ImportTranscriptSchema)),
  { status: 201 },
);
