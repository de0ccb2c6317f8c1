import { JoinStudySchema, PathIdSchema, StudyJoinedSchema, StudyLandingSchema } from '@trellis/domain';
import { PARTICIPANT_COOKIE, assertSameOriginJson, joinStudy, readCookie, readStudyLanding } from '@trellis/services';
import { NextResponse } from 'next/server';
import { sameOriginPolicy } from '@/server/client-address';
import { getContext } from '@/server/context';
import { JSON_BODY, definePublicRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** How long a participant's session cookie lasts: a study's sessions are hours, not months. */
const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

export const GET = definePublicRoute(
  {
    method: 'GET',
    path: '/api/join/{slug}',
    tag: 'studies',
    summary: "An open or closed study's consent page: its title, consent text and whether it admits anyone",
    params: { slug: PathIdSchema },
    response: StudyLandingSchema,
    errors: ['not_found'],
  },
  async ({ params }) => readStudyLanding((await getContext()).deps, { slug: params.slug }),
);

export const POST = definePublicRoute(
  {
    method: 'POST',
    path: '/api/join/{slug}',
    tag: 'studies',
    summary: "Join an open study through its link (consent required): the participant's family and a session cookie",
    description:
      'No account: the answer sets an HttpOnly session cookie that opens this participant’s family and nothing else. The same `pid` resumes the same family on any device; without one, the cookie resumes. Declining consent stores nothing; a closed study admits no one new (403). The condition is never shown.',
    params: { slug: PathIdSchema },
    body: JoinStudySchema,
    response: StudyJoinedSchema,
    status: 201,
    errors: [...JSON_BODY, 'not_found', 'forbidden'],
  },
  async ({ request, params, body }) => {
    // Public, but it sets a cookie: the same CSRF guard as a signed-in write.
    assertSameOriginJson({ headers: request.headers, hasBody: true, sameOrigin: sameOriginPolicy(request.headers) });
    const ctx = await getContext();
    const joined = await joinStudy(ctx.deps, { slug: params.slug, join: body, sessionToken: readCookie(request.headers, PARTICIPANT_COOKIE) });
    const response = NextResponse.json({ thread_id: joined.thread_id }, { status: 201 });
    response.cookies.set(PARTICIPANT_COOKIE, joined.sessionToken, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: SESSION_MAX_AGE_SECONDS,
      secure: new URL(request.url).protocol === 'https:',
    });
    return response;
  },
);
