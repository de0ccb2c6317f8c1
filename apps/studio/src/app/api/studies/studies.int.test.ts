// Studies through their routes: a researcher creates and opens a study, participants join through
// its link with an HttpOnly session cookie, and that cookie reaches its own family only — 404 on
// the list of conversations, another participant's family, tokens and every study route, 403 with
// `branching_disabled` on a branch in the linear condition. Finish waits for min_minutes; another
// researcher gets 404 on the study; a withdrawn participant's family is gone; a closed study refuses joins.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import { ErrorBodySchema, ParticipantViewSchema, StudyCreatedSchema, StudyLandingSchema, StudyParticipantListSchema } from '@trellis/domain';
import type { AppContext } from '@/server/context';
import { params, signUp, signUpWithConversation, type Handler, type RouteSession } from '@/testing/route-session';

const BASE = 'http://127.0.0.1:3000';

type Module = Partial<Record<'GET' | 'POST' | 'PATCH' | 'DELETE', Handler>>;
let routes: Record<string, Module>;
let researcher: { request: RouteSession['request']; userId: string };
let ctx: AppContext;

/** A request carrying only a participant's session cookie (same origin, JSON). */
function asParticipant(cookie: string, url: string, init: { method?: string; body?: string } = {}): Request {
  return new Request(`${BASE}${url}`, {
    method: init.method ?? 'GET',
    headers: { origin: BASE, host: '127.0.0.1:3000', 'content-type': 'application/json', cookie },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

async function errorCode(response: Response): Promise<string> {
  return ErrorBodySchema.parse(await response.json()).error.code;
}

const STUDY = {
  title: 'Route study',
  consent: 'I agree.',
  instructions: 'Write with the assistant.',
  seed: { objective: 'A short essay', document: { title: 'Essay', content: '# Essay\n' } },
  conditions: [
    { name: 'with branching', model: 'offline', branching: true },
    { name: 'linear', model: 'offline', branching: false },
  ],
  min_minutes: 10,
  time_limit_minutes: 60,
  completion: { code: 'THANKS-42' },
};

async function createOpenStudy(): Promise<{ studyId: string; slug: string }> {
  const created = await routes.studies!.POST!(researcher.request('/api/studies', { method: 'POST', body: JSON.stringify(STUDY) }), params({}));
  expect(created.status).toBe(201);
  const body = StudyCreatedSchema.parse(await created.json());
  expect(body.status).toBe('draft');
  const opened = await routes.study!.PATCH!(
    researcher.request(`/api/studies/${body.study_id}`, { method: 'PATCH', body: JSON.stringify({ status: 'open' }) }),
    params({ id: body.study_id }),
  );
  expect(opened.status).toBe(200);
  return { studyId: body.study_id, slug: body.join_url.replace('/join/s/', '') };
}

async function join(slug: string, body: object, cookie = ''): Promise<{ status: number; threadId: string; cookie: string; setCookie: string }> {
  const response = await routes.join!.POST!(asParticipant(cookie, `/api/join/${slug}`, { method: 'POST', body: JSON.stringify(body) }), params({ slug }));
  const setCookie = response.headers.get('set-cookie') ?? '';
  const json = (await response.json()) as { thread_id?: string };
  return { status: response.status, threadId: json.thread_id ?? '', cookie: setCookie.split(';')[0]!, setCookie };
}

beforeAll(async () => {
  // Test support: the studio reads its configuration from the environment through env.ts.
  process.env.DATABASE_URL = testDatabaseUrl();
  process.env.TRELLIS_DATA_DIR = path.join(tmpdir(), `trellis-studies-route-${randomUUID()}`);
  process.env.LOG_LEVEL = 'silent';
  routes = {
    studies: await import('./route'),
    study: await import('./[id]/route'),
    participants: await import('./[id]/participants/route'),
    participant: await import('./[id]/participants/[participant_id]/route'),
    export: await import('./[id]/export/route'),
    join: await import('@/app/api/join/[slug]/route'),
    finish: await import('@/app/api/join/[slug]/finish/route'),
    me: await import('@/app/api/join/[slug]/me/route'),
    conversations: await import('@/app/api/conversations/route'),
    conversation: await import('@/app/api/conversations/[id]/route'),
    workspace: await import('@/app/api/conversations/[id]/workspace/route'),
    branch: await import('@/app/api/conversations/[id]/branch/route'),
    tokens: await import('@/app/api/tokens/route'),
  };
  researcher = await signUp('Researcher');
  ctx = await (await import('@/server/context')).getContext();
}, 120_000);

describe('joining through the link', () => {
  it('answers 201 with the family and an HttpOnly session cookie; the same pid resumes the same family', async () => {
    const { slug } = await createOpenStudy();
    const first = await join(slug, { consent: true, pid: 'prolific-1' });
    expect(first.status).toBe(201);
    expect(first.setCookie).toMatch(/^trellis_participant=[A-Za-z0-9_-]{43};/);
    expect(first.setCookie).toMatch(/HttpOnly/i);
    const again = await join(slug, { consent: true, pid: 'prolific-1' });
    expect(again.threadId).toBe(first.threadId);
    // Without a pid, the cookie resumes.
    const anonymous = await join(slug, { consent: true });
    expect((await join(slug, { consent: true }, anonymous.cookie)).threadId).toBe(anonymous.threadId);
    const workspace = await routes.workspace!.GET!(asParticipant(first.cookie, `/api/conversations/${first.threadId}/workspace`), params({ id: first.threadId }));
    expect(workspace.status).toBe(200);
    expect(((await workspace.json()) as { objective: string }).objective).toBe('A short essay');
  });

  it('stores nothing without consent and admits no one new to a closed study', async () => {
    const { studyId, slug } = await createOpenStudy();
    const declined = await join(slug, { consent: false, pid: 'no' });
    expect(declined.status).toBe(422);
    expect(declined.setCookie).toBe('');
    const closed = await routes.study!.PATCH!(
      researcher.request(`/api/studies/${studyId}`, { method: 'PATCH', body: JSON.stringify({ status: 'closed' }) }),
      params({ id: studyId }),
    );
    expect(closed.status).toBe(200);
    const refused = await join(slug, { consent: true, pid: 'late' });
    expect(refused.status).toBe(403);
    const list = StudyParticipantListSchema.parse(await (await routes.participants!.GET!(researcher.request(`/api/studies/${studyId}/participants`), params({ id: studyId }))).json());
    expect(list.participants).toEqual([]);
  });
});

describe("a participant's session", () => {
  it('reaches its own family only: 404 elsewhere, 403 branching_disabled on a branch in the linear condition', async () => {
    const { studyId, slug } = await createOpenStudy();
    const a = await join(slug, { consent: true, pid: 'first' });
    const b = await join(slug, { consent: true, pid: 'second' });
    const stranger = await signUpWithConversation('Stranger');
    const own = await routes.conversation!.GET!(asParticipant(a.cookie, `/api/conversations/${a.threadId}`), params({ id: a.threadId }));
    expect(own.status).toBe(200);
    const refusals: [string, Promise<Response>][] = [
      ['conversation list', routes.conversations!.GET!(asParticipant(a.cookie, '/api/conversations'), params({}))],
      ['new conversation', routes.conversations!.POST!(asParticipant(a.cookie, '/api/conversations', { method: 'POST', body: '{}' }), params({}))],
      ['other participant', routes.conversation!.GET!(asParticipant(a.cookie, `/api/conversations/${b.threadId}`), params({ id: b.threadId }))],
      ['other workspace', routes.workspace!.GET!(asParticipant(a.cookie, `/api/conversations/${b.threadId}/workspace`), params({ id: b.threadId }))],
      ["someone's conversation", routes.conversation!.GET!(asParticipant(a.cookie, `/api/conversations/${stranger.threadId}`), params({ id: stranger.threadId }))],
      ['tokens', routes.tokens!.GET!(asParticipant(a.cookie, '/api/tokens'), params({}))],
      ['studies', routes.studies!.GET!(asParticipant(a.cookie, '/api/studies'), params({}))],
      ['study', routes.study!.GET!(asParticipant(a.cookie, `/api/studies/${studyId}`), params({ id: studyId }))],
      ['participants', routes.participants!.GET!(asParticipant(a.cookie, `/api/studies/${studyId}/participants`), params({ id: studyId }))],
      ['export', routes.export!.GET!(asParticipant(a.cookie, `/api/studies/${studyId}/export?format=dataset`), params({ id: studyId }))],
    ];
    for (const [what, pending] of refusals) expect((await pending).status, what).toBe(404);
    // The first participant is in the branching condition, the second in the linear one (1:1, in order).
    const linear = await routes.branch!.POST!(
      asParticipant(b.cookie, `/api/conversations/${b.threadId}/branch`, { method: 'POST', body: JSON.stringify({ from_turn: 0 }) }),
      params({ id: b.threadId }),
    );
    expect(linear.status).toBe(403);
    expect(await errorCode(linear)).toBe('branching_disabled');
    const branching = await routes.branch!.POST!(
      asParticipant(a.cookie, `/api/conversations/${a.threadId}/branch`, { method: 'POST', body: JSON.stringify({ from_turn: 0 }) }),
      params({ id: a.threadId }),
    );
    expect(branching.status).toBe(201);
  });

  it('stops writing once the time limit has passed, and the dashboard says timed_out', async () => {
    const { studyId, slug } = await createOpenStudy();
    const a = await join(slug, { consent: true, pid: 'slow' });
    const write = () =>
      routes.workspace!.PATCH!(
        asParticipant(a.cookie, `/api/conversations/${a.threadId}/workspace`, { method: 'PATCH', body: JSON.stringify({ objective: 'Mine' }) }),
        params({ id: a.threadId }),
      );
    expect((await write()).status).toBe(200);
    await ctx.deps.db.execute(sql`update study_participants set started_at = now() - interval '61 minutes' where thread_id = ${a.threadId}`);
    const late = await write();
    expect(late.status).toBe(403);
    const list = StudyParticipantListSchema.parse(await (await routes.participants!.GET!(researcher.request(`/api/studies/${studyId}/participants`), params({ id: studyId }))).json());
    expect(list.participants[0]!.status).toBe('timed_out');
    // Reading their own family still works.
    expect((await routes.workspace!.GET!(asParticipant(a.cookie, `/api/conversations/${a.threadId}/workspace`), params({ id: a.threadId }))).status).toBe(200);
  });

  it('finishes only after min_minutes, then answers the completion code', async () => {
    const { slug } = await createOpenStudy();
    const a = await join(slug, { consent: true, pid: 'finisher' });
    const finish = () => routes.finish!.POST!(asParticipant(a.cookie, `/api/join/${slug}/finish`, { method: 'POST' }), params({ slug }));
    const early = await finish();
    expect(early.status).toBe(409);
    await ctx.deps.db.execute(sql`update study_participants set started_at = now() - interval '11 minutes' where thread_id = ${a.threadId}`);
    const done = await finish();
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ code: 'THANKS-42', redirect_url: null });
    // Finished: the session no longer writes.
    const write = await routes.workspace!.PATCH!(
      asParticipant(a.cookie, `/api/conversations/${a.threadId}/workspace`, { method: 'PATCH', body: JSON.stringify({ objective: 'More' }) }),
      params({ id: a.threadId }),
    );
    expect(write.status).toBe(403);
    // A signed-in user has no Finish.
    expect((await routes.finish!.POST!(researcher.request(`/api/join/${slug}/finish`, { method: 'POST' }), params({ slug }))).status).toBe(404);
  });

  it('answers the same completion to a Finish called again, and nothing else is written', async () => {
    const { slug } = await createOpenStudy();
    const a = await join(slug, { consent: true, pid: 'twice' });
    await ctx.deps.db.execute(sql`update study_participants set started_at = now() - interval '11 minutes' where thread_id = ${a.threadId}`);
    const finish = () => routes.finish!.POST!(asParticipant(a.cookie, `/api/join/${slug}/finish`, { method: 'POST' }), params({ slug }));
    expect((await finish()).status).toBe(200);
    const again = await finish();
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ code: 'THANKS-42', redirect_url: null });
    const write = await routes.workspace!.PATCH!(
      asParticipant(a.cookie, `/api/conversations/${a.threadId}/workspace`, { method: 'PATCH', body: JSON.stringify({ objective: 'Later' }) }),
      params({ id: a.threadId }),
    );
    expect(write.status).toBe(403);
  });

  it('refuses Finish to a participant whose time ran out', async () => {
    const { slug } = await createOpenStudy();
    const a = await join(slug, { consent: true, pid: 'late-finisher' });
    await ctx.deps.db.execute(sql`update study_participants set started_at = now() - interval '61 minutes' where thread_id = ${a.threadId}`);
    const finish = await routes.finish!.POST!(asParticipant(a.cookie, `/api/join/${slug}/finish`, { method: 'POST' }), params({ slug }));
    expect(finish.status).toBe(403);
  });
});

describe("the participant's pages", () => {
  it('show the consent of an open or closed study, and 404 for a draft', async () => {
    const draft = StudyCreatedSchema.parse(
      await (await routes.studies!.POST!(researcher.request('/api/studies', { method: 'POST', body: JSON.stringify(STUDY) }), params({}))).json(),
    );
    const draftSlug = draft.join_url.replace('/join/s/', '');
    const hidden = await routes.join!.GET!(asParticipant('', `/api/join/${draftSlug}`), params({ slug: draftSlug }));
    expect(hidden.status).toBe(404);
    const { studyId, slug } = await createOpenStudy();
    const landing = await routes.join!.GET!(asParticipant('', `/api/join/${slug}`), params({ slug }));
    expect(StudyLandingSchema.parse(await landing.json())).toEqual({ title: 'Route study', consent: 'I agree.', status: 'open' });
    await routes.study!.PATCH!(
      researcher.request(`/api/studies/${studyId}`, { method: 'PATCH', body: JSON.stringify({ status: 'closed' }) }),
      params({ id: studyId }),
    );
    const closed = await routes.join!.GET!(asParticipant('', `/api/join/${slug}`), params({ slug }));
    expect(StudyLandingSchema.parse(await closed.json()).status).toBe('closed');
  });

  it("tell a participant's studio whether it may branch, never the condition, and the completion once finished", async () => {
    const { slug } = await createOpenStudy();
    const a = await join(slug, { consent: true, pid: 'me-branching' });
    const b = await join(slug, { consent: true, pid: 'me-linear' });
    const me = async (cookie: string, at = slug) => routes.me!.GET!(asParticipant(cookie, `/api/join/${at}/me`), params({ slug: at }));
    const first = await me(a.cookie);
    expect(first.status).toBe(200);
    const raw = await first.text();
    expect(raw).not.toContain('with branching');
    const viewA = ParticipantViewSchema.parse(JSON.parse(raw));
    expect(viewA).toMatchObject({
      thread_id: a.threadId,
      title: 'Route study',
      instructions: 'Write with the assistant.',
      status: 'consented',
      time_limit_minutes: 60,
      min_minutes: 10,
      branching: true,
      completion: null,
    });
    const viewB = ParticipantViewSchema.parse(await (await me(b.cookie)).json());
    expect([viewB.thread_id, viewB.branching]).toEqual([b.threadId, false]);
    // Another study's link, a signed-in user and no cookie at all: nothing to read.
    const other = await createOpenStudy();
    expect((await me(a.cookie, other.slug)).status).toBe(404);
    expect((await routes.me!.GET!(researcher.request(`/api/join/${slug}/me`), params({ slug }))).status).toBe(404);
    expect((await me('')).status).toBe(401);
    await ctx.deps.db.execute(sql`update study_participants set started_at = now() - interval '11 minutes' where thread_id = ${a.threadId}`);
    expect((await routes.finish!.POST!(asParticipant(a.cookie, `/api/join/${slug}/finish`, { method: 'POST' }), params({ slug }))).status).toBe(200);
    const finished = ParticipantViewSchema.parse(await (await me(a.cookie)).json());
    expect([finished.status, finished.completion]).toEqual(['finished', { code: 'THANKS-42', redirect_url: null }]);
  });
});

describe("the researcher's routes", () => {
  it('lists the participants, withdraws one (their family 404, the row withdrawn), and answers another researcher 404', async () => {
    const { studyId, slug } = await createOpenStudy();
    const a = await join(slug, { consent: true, pid: 'leaving' });
    const list = StudyParticipantListSchema.parse(await (await routes.participants!.GET!(researcher.request(`/api/studies/${studyId}/participants`), params({ id: studyId }))).json());
    expect(list.participants.map((p) => [p.thread_id, p.condition, p.status])).toEqual([[a.threadId, 'with branching', 'consented']]);
    const participantId = list.participants[0]!.participant_id;
    const other = await signUp('OtherResearcher');
    for (const response of [
      await routes.study!.GET!(other.request(`/api/studies/${studyId}`), params({ id: studyId })),
      await routes.participants!.GET!(other.request(`/api/studies/${studyId}/participants`), params({ id: studyId })),
      await routes.export!.GET!(other.request(`/api/studies/${studyId}/export?format=dataset`), params({ id: studyId })),
      await routes.participant!.DELETE!(other.request(`/api/studies/${studyId}/participants/${participantId}`, { method: 'DELETE' }), params({ id: studyId, participant_id: participantId })),
    ]) {
      expect(response.status).toBe(404);
    }
    const exported = await routes.export!.GET!(researcher.request(`/api/studies/${studyId}/export?format=dataset`), params({ id: studyId }));
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('application/zip');
    expect((await exported.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const withdrawn = await routes.participant!.DELETE!(
      researcher.request(`/api/studies/${studyId}/participants/${participantId}`, { method: 'DELETE' }),
      params({ id: studyId, participant_id: participantId }),
    );
    expect(withdrawn.status).toBe(204);
    expect((await routes.conversation!.GET!(researcher.request(`/api/conversations/${a.threadId}`), params({ id: a.threadId }))).status).toBe(404);
    // Their session is gone with the family.
    expect((await routes.conversation!.GET!(asParticipant(a.cookie, `/api/conversations/${a.threadId}`), params({ id: a.threadId }))).status).toBe(401);
    const after = StudyParticipantListSchema.parse(await (await routes.participants!.GET!(researcher.request(`/api/studies/${studyId}/participants`), params({ id: studyId }))).json());
    expect(after.participants.map((p) => [p.participant_id, p.status, p.thread_id])).toEqual([[participantId, 'withdrawn', null]]);
  });
});
