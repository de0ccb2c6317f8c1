import { CreateStudySchema, StudyCreatedSchema, StudyListSchema } from '@trellis/domain';
import { createStudy, listStudies } from '@trellis/services';
import { AUTHED, JSON_BODY, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/studies',
    tag: 'studies',
    summary: "The caller's studies, newest first",
    response: StudyListSchema,
    errors: AUTHED,
  },
  async ({ ctx, actor }) => listStudies(ctx.deps, actor),
);

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/studies',
    tag: 'studies',
    summary: 'Create a study (a draft) with its conditions and seed workspace; the caller owns it',
    description:
      'Each condition names a model this server runs (`offline` always), an optional system prompt and subset of the agent’s tools, and whether its participants may branch. `join_url` is the one link every participant opens once the study is open.',
    body: CreateStudySchema,
    response: StudyCreatedSchema,
    status: 201,
    errors: [...AUTHED, ...JSON_BODY],
  },
  async ({ body, ctx, actor }) => createStudy(ctx.deps, actor, body),
);
