import {
  ImportProjectQuerySchema,
  MAX_PROJECT_ENTRIES,
  MAX_TRANSCRIPT_BYTES,
  TranscriptImportedSchema,
  TranscriptInspectionSchema,
} from '@trellis/domain';
import { importProject, inspectTranscript } from '@trellis/services';
import { AUTHED, defineRoute, withStatus } from '@/server/define-route';
import { readCappedBytes } from '@/server/read-body';

export const dynamic = 'force-dynamic';

const MB = 1024 * 1024;
const TOO_LARGE = `The zip is larger than ${MAX_TRANSCRIPT_BYTES / MB} MB; zip fewer sessions`;

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/transcripts',
    tag: 'transcripts',
    summary: 'Import a zipped Claude Code project folder as one branch family (or only inspect it)',
    description:
      'Sessions that continue one another (resumes, compactions across files) become one family; each subagent run ' +
      '(`<session>/subagents/agent-*.jsonl`) is stored on the Task/Agent call that started it (`tool_calls[].subagent`). ' +
      `413 over ${MAX_TRANSCRIPT_BYTES / MB} MB (zipped or unzipped); 422 for more than ${MAX_PROJECT_ENTRIES} entries, ` +
      'a `..` or absolute path, bytes that are not a zip, or no session file.',
    rawBody: { mediaType: 'application/zip', description: 'The zip of one project folder' },
    query: ImportProjectQuerySchema,
    response: TranscriptImportedSchema,
    status: 201,
    alsoResponds: {
      200: {
        description: 'inspect=true: what the folder holds; nothing written',
        schema: TranscriptInspectionSchema,
      },
    },
    errors: [
      ...AUTHED,
      'unsupported_media_type',
      'payload_too_large',
      'validation_failed',
      'conflict',
      'rate_limited',
      'unavailable',
      'upstream_failed',
    ],
  },
  async ({ request, query, ctx, actor }) => {
    const zip = await readCappedBytes(request, MAX_TRANSCRIPT_BYTES, TOO_LARGE);
    const upload = { zip, filename: query.filename };
    if (query.inspect === 'true') return withStatus(200, await inspectTranscript(ctx.deps, actor, upload));
    return importProject(ctx.deps, actor, { ...upload, again: query.again === 'true' });
  },
);
