import { PathIdSchema, StudySchema, UpdateStudySchema } from '@trellis/domain';
import { getStudy, updateStudy } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/studies/{id}',
    tag: 'studies',
    summary: 'A study of the caller, with its conditions and how many participants each has',
    params: { id: PathIdSchema },
    response: StudySchema,
    errors: OWNED,
  },
  async ({ params, ctx, actor }) => getStudy(ctx.deps, actor, { studyId: params.id }),
);

export const PATCH = defineRoute(
  {
    method: 'PATCH',
    path: '/api/studies/{id}',
    tag: 'studies',
    summary: 'Edit a draft study, or move it draft → open → closed',
    description: 'Only a draft takes edits (409 otherwise); `status` moves one step forward at a time. A closed study admits no one new.',
    params: { id: PathIdSchema },
    body: UpdateStudySchema,
    response: StudySchema,
    errors: [...OWNED, ...JSON_BODY, 'conflict'],
  },
  async ({ params, body, ctx, actor }) => updateStudy(ctx.deps, actor, { studyId: params.id, patch: body }),
);
