import { InspectTranscriptSchema } from '@trellis/domain';
import { inspectTranscript } from '@trellis/services';
import { authed } from '@/server/http';
import { readTranscriptBody } from '../read-transcript-body';

export const dynamic = 'force-dynamic';

export const POST = authed(async ({ request, ctx, actor }) =>
  inspectTranscript(ctx.deps, actor, await readTranscriptBody(request, InspectTranscriptSchema)),
);
