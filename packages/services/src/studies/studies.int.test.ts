// Studies end to end at the service layer: a researcher's study and its conditions, participants
// joining through the open link (assignment by weight, resuming by pid or session), the linear
// condition's refusal to branch, Finish after min_minutes, the dashboard's rows and withdrawal.
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStudySchema, type CreateStudy } from '@trellis/domain';
import { OfflineChatModel } from '@trellis/agent';
import { createHarness, type Harness } from '../testing/harness';
import { expectCode } from '../testing/expect-code';
import { createBranch } from '../branching/create-branch';
import { getWorkspace } from '../workspace/get-workspace';
import { getConversation } from '../conversations/get-conversation';
import { listConversations } from '../conversations/list-conversations';
import { subscribeFamilyEvents } from '../live/subscribe-family-events';
import { editTurn } from '../siblings/edit-turn';
import { retryTurn } from '../turns/retry-turn';
import { sendTurn } from '../turns/send-turn';
import { createStudy, getStudy, listStudies, updateStudy } from './manage-studies';
import { joinStudy } from './join-study';
import { finishStudy, listStudyParticipants, withdrawParticipant } from './study-participants';
import { waitForLockWaiters } from '../testing/lock-waiters';
import { FAMILY_CHANNEL, familyEventStatement } from '../live/family-events';
import { patchWorkspace } from '../workspace/patch-workspace';
import { testDatabaseUrl } from '@trellis/db/testing';
import { createServiceDeps } from '../deps';
import { deleteConversation } from '../conversations/delete-conversation';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

const participantActor = async (participantId: string) => {
  const [row] = await h.deps.db.execute<{ user_id: string; thread_id: string }>(
    sql`select user_id, thread_id from study_participants where participant_id = ${participantId}`,
  );
  return { kind: 'participant' as const, userId: row!.user_id, familyId: row!.thread_id };
};

function studyInput(overrides: Partial<CreateStudy> = {}): CreateStudy {
  return CreateStudySchema.parse({
    title: 'Co-writing a cover letter',
    consent: 'You agree to take part.',
    instructions: 'Write a cover letter with the assistant.',
    seed: {
      objective: 'A one-page cover letter',
      document: { title: 'Cover letter', content: '# Cover letter\n\nDear hiring manager,' },
      preferences: [{ text: 'Formal tone', locked: true }],
      todos: [{ text: 'Name the role' }],
    },
    conditions: [
      { name: 'branching', model: 'offline', branching: true, weight: 1 },
      { name: 'linear', model: 'offline', branching: false, weight: 1, system_prompt: 'LINEAR-CONDITION: answer in one sentence.', tools: ['add_todo', 'complete_todo'] },
    ],
    min_minutes: 5,
    completion: { code: 'C0MPLETE', redirect_url: 'https://example.test/done' },
    ...overrides,
  });
}

async function openStudy(owner: { userId: string }, overrides: Partial<CreateStudy> = {}) {
  const created = await createStudy(h.deps, owner, studyInput(overrides));
  await updateStudy(h.deps, owner, { studyId: created.study_id, patch: { status: 'open' } });
  return { ...created, slug: created.join_url.replace('/join/s/', '') };
}

describe('a study', () => {
  it('is created as a draft with its join link, listed and read by its owner only', async () => {
    const owner = await h.newUser();
    const other = await h.newUser();
    const created = await createStudy(h.deps, owner, studyInput());
    expect(created.status).toBe('draft');
    expect(created.join_url).toMatch(/^\/join\/s\/[A-Za-z0-9_-]+$/);
    const study = await getStudy(h.deps, owner, { studyId: created.study_id });
    expect(study.conditions.map((c) => [c.name, c.branching, c.weight])).toEqual([
      ['branching', true, 1],
      ['linear', false, 1],
    ]);
    expect(study.conditions[1]!.tools).toEqual(['add_todo', 'complete_todo']);
    expect((await listStudies(h.deps, owner)).studies.map((s) => s.study_id)).toEqual([created.study_id]);
    expect((await listStudies(h.deps, other)).studies).toEqual([]);
    await expectCode(getStudy(h.deps, other, { studyId: created.study_id }), 'not_found');
    await expectCode(updateStudy(h.deps, other, { studyId: created.study_id, patch: { status: 'open' } }), 'not_found');
    await expectCode(listStudyParticipants(h.deps, other, { studyId: created.study_id }), 'not_found');
  });

  it('edits a draft, then moves draft → open → closed only, and an open study keeps its texts', async () => {
    const owner = await h.newUser();
    const { study_id } = await createStudy(h.deps, owner, studyInput());
    const edited = await updateStudy(h.deps, owner, { studyId: study_id, patch: { title: 'Renamed', min_minutes: null } });
    expect([edited.title, edited.min_minutes]).toEqual(['Renamed', null]);
    await expectCode(updateStudy(h.deps, owner, { studyId: study_id, patch: { status: 'closed' } }), 'conflict');
    expect((await updateStudy(h.deps, owner, { studyId: study_id, patch: { status: 'open' } })).status).toBe('open');
    await expectCode(updateStudy(h.deps, owner, { studyId: study_id, patch: { title: 'Too late' } }), 'conflict');
    expect((await updateStudy(h.deps, owner, { studyId: study_id, patch: { status: 'closed' } })).status).toBe('closed');
    await expectCode(updateStudy(h.deps, owner, { studyId: study_id, patch: { status: 'open' } }), 'conflict');
  });

  it('refuses a condition naming a model this server does not run', async () => {
    const owner = await h.newUser();
    const input = studyInput({ conditions: [{ name: 'x', model: 'gpt-unknown', branching: true, weight: 1 }] });
    await expectCode(createStudy(h.deps, owner, input), 'validation_failed');
  });
});

describe('joining', () => {
  it('balances 20 participants with pids 10/10 over two conditions weighted 1:1, and the same pid resumes its family', async () => {
    const owner = await h.newUser();
    const { study_id, slug } = await openStudy(owner);
    const joined = [];
    for (let i = 0; i < 20; i += 1) joined.push(await joinStudy(h.deps, { slug, join: { consent: true, pid: `pid-${i}` } }));
    expect(new Set(joined.map((j) => j.thread_id)).size).toBe(20);
    const { participants, counts } = await listStudyParticipants(h.deps, owner, { studyId: study_id });
    expect(counts).toEqual({ branching: 10, linear: 10 });
    expect(participants).toHaveLength(20);
    const again = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'pid-7' } });
    expect(again.thread_id).toBe(joined[7]!.thread_id);
    expect(again.participantId).toBe(joined[7]!.participantId);
    expect(again.sessionToken).not.toBe(joined[7]!.sessionToken);
    expect((await listStudyParticipants(h.deps, owner, { studyId: study_id })).participants).toHaveLength(20);
  });

  it('balances concurrent joins exactly, and the same pid joining at once gets one family', async () => {
    const owner = await h.newUser();
    const { study_id, slug } = await openStudy(owner);
    await Promise.all(Array.from({ length: 10 }, (_, i) => joinStudy(h.deps, { slug, join: { consent: true, pid: `crowd-${i}` } })));
    expect((await listStudyParticipants(h.deps, owner, { studyId: study_id })).counts).toEqual({ branching: 5, linear: 5 });
    const twins = await Promise.all(Array.from({ length: 4 }, () => joinStudy(h.deps, { slug, join: { consent: true, pid: 'twin' } })));
    expect(new Set(twins.map((t) => t.thread_id)).size).toBe(1);
    expect(new Set(twins.map((t) => t.participantId)).size).toBe(1);
    const [families] = await h.deps.db.execute<{ n: number }>(
      sql`select count(*)::int as n from conversations where user_id = ${owner.userId} and deleted_at is null`,
    );
    expect(families!.n).toBe(11);
  });

  it("holds the study's lock for no round trip: the whole assignment is on the wire while another transaction holds the lock", async () => {
    const sent: string[] = [];
    // One connection, its statements prepared by a first join (a statement's first run on a
    // connection waits for its description before it is sent whole).
    const probe = await createHarness({ poolSize: 1, onQuery: (query) => sent.push(query.replace(/\s+/g, ' ').trim()) });
    try {
      const owner = await probe.newUser();
      const { study_id, slug } = await openStudy(owner);
      await joinStudy(probe.deps, { slug, join: { consent: true, pid: 'first' } });
      const { join } = await h.deps.sql.begin(async (barrier) => {
        await barrier`select 1 from studies where id = ${study_id} for update`;
        const { pid } = (await barrier<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!;
        sent.length = 0;
        const join = joinStudy(probe.deps, { slug, join: { consent: true, pid: 'waits' } });
        await waitForLockWaiters(h.deps.sql, pid, 1);
        // Everything after the lock statement was sent before the lock was granted.
        const locking = sent.findIndex((q) => q.includes('"studies"') && q.endsWith('for update'));
        expect(locking).toBeGreaterThanOrEqual(0);
        const afterLock = sent.slice(locking + 1);
        expect(afterLock.some((q) => q.includes('insert into "study_participants"'))).toBe(true);
        expect(afterLock.at(-1)).toBe('commit');
        return { join };
      });
      const joined = await join;
      expect((await listStudyParticipants(h.deps, owner, { studyId: study_id })).participants.map((p) => p.thread_id)).toContain(joined.thread_id);
    } finally {
      await probe.deps.close();
    }
  });

  it("assigns the joins that arrive while the study's lock is held together, one transaction for them all, balanced by weight", async () => {
    const sent: string[] = [];
    const probe = await createHarness({ onQuery: (query) => sent.push(query.replace(/\s+/g, ' ').trim()) });
    try {
      const owner = await probe.newUser();
      const { study_id, slug } = await openStudy(owner, {
        conditions: [
          { name: 'heavy', model: 'offline', branching: true, weight: 2 },
          { name: 'light', model: 'offline', branching: true, weight: 1 },
        ],
      });
      const join = (pid: string) => joinStudy(probe.deps, { slug, join: { consent: true, pid } });
      const { first, crowd } = await h.deps.sql.begin(async (barrier) => {
        await barrier`select 1 from studies where id = ${study_id} for update`;
        const { pid } = (await barrier<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!;
        sent.length = 0;
        const first = join('p0');
        await waitForLockWaiters(h.deps.sql, pid, 1);
        // While the first waits for the lock, ten more arrive: seven new pids, one pid twice, and the first's again.
        const crowd = Promise.all(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'twin', 'twin', 'p0'].map(join));
        // Each has read the study (and found no participant yet) once the pool's sessions are idle or wait for the lock.
        for (let waited = 0; ; waited++) {
          const { busy } = (await h.deps.sql<{ busy: number }[]>`
            select count(*)::int as busy from pg_stat_activity
            where datname = current_database() and application_name = 'trellis' and state <> 'idle'
              and wait_event_type is distinct from 'Lock' and pid not in (pg_backend_pid(), ${pid})`)[0]!;
          if (sent.filter((q) => q.includes('from "studies" left join "study_participants"')).length === 11 && busy === 0) break;
          if (waited > 500) throw new Error('the crowd never read the study');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return { first, crowd };
      });
      const [p0, ...rest] = [await first, ...(await crowd)];
      // Two turns of the lock: the first join's, then the other ten together.
      expect(sent.filter((q) => q.includes('"studies"') && q.endsWith('for update'))).toHaveLength(2);
      expect((await listStudyParticipants(h.deps, owner, { studyId: study_id })).counts).toEqual({ heavy: 6, light: 3 });
      expect(rest[7]!.participantId).toBe(rest[8]!.participantId);
      expect(rest[7]!.thread_id).toBe(rest[8]!.thread_id);
      expect(rest[9]!.participantId).toBe(p0.participantId);
      expect(rest[9]!.thread_id).toBe(p0.thread_id);
      expect(new Set([p0, ...rest].map((j) => j.thread_id)).size).toBe(9);
    } finally {
      await probe.deps.close();
    }
  });

  it('balances by weight 2:1 and resumes by session without a pid', async () => {
    const owner = await h.newUser();
    const { study_id, slug } = await openStudy(owner, {
      conditions: [
        { name: 'heavy', model: 'offline', branching: true, weight: 2 },
        { name: 'light', model: 'offline', branching: true, weight: 1 },
      ],
    });
    const first = await joinStudy(h.deps, { slug, join: { consent: true } });
    for (let i = 0; i < 8; i += 1) await joinStudy(h.deps, { slug, join: { consent: true } });
    expect((await listStudyParticipants(h.deps, owner, { studyId: study_id })).counts).toEqual({ heavy: 6, light: 3 });
    const resumed = await joinStudy(h.deps, { slug, join: { consent: true }, sessionToken: first.sessionToken });
    expect(resumed.thread_id).toBe(first.thread_id);
    expect((await listStudyParticipants(h.deps, owner, { studyId: study_id })).participants).toHaveLength(9);
  });

  it("starts the participant's family from the study's seed workspace, owned by the researcher", async () => {
    const owner = await h.newUser();
    const { slug } = await openStudy(owner);
    const { thread_id, participantId } = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'seeded' } });
    const workspace = await getWorkspace(h.deps, await participantActor(participantId), { threadId: thread_id });
    expect(workspace.objective).toBe('A one-page cover letter');
    expect(workspace.document.content).toBe('# Cover letter\n\nDear hiring manager,');
    expect(workspace.preferences.map((p) => [p.text, p.locked])).toEqual([['Formal tone', true]]);
    expect(workspace.todos.map((t) => t.text)).toEqual(['Name the role']);
    expect((await getConversation(h.deps, owner, { threadId: thread_id })).title).toBe('Co-writing a cover letter');
  });

  it("seeds a new participant's family without a NOTIFY (nobody can listen to it yet), keeps the event row, and notifies its later writes", async () => {
    const owner = await h.newUser();
    const { slug } = await openStudy(owner);
    const heard: { family: string; kind: string; seq?: number; event?: number }[] = [];
    const listener = await h.deps.db.$client.listen(FAMILY_CHANNEL, (payload) => heard.push(JSON.parse(payload) as (typeof heard)[number]));
    try {
      const { thread_id, participantId } = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'quiet-seed' } });
      const seeded = await h.deps.db.execute<{ kind: string }>(sql`select kind from family_events where family_id = ${thread_id}`);
      expect(seeded.map((e) => e.kind)).toEqual(['workspace_changed']);
      // The participant's first write commits after the join: had the seeding notified, its payloads
      // would have arrived first (PostgreSQL delivers notifications in commit order).
      await patchWorkspace(h.deps, await participantActor(participantId), { threadId: thread_id, patch: { objective: 'Their own objective' } });
      const [last] = await h.deps.db.execute<{ seq: number; event: string }>(sql`
        select (select max(seq) from workspace_changes where thread_id = ${thread_id}) as seq,
               (select max(id)::text from family_events where family_id = ${thread_id}) as event`);
      await expect.poll(() => heard.some((n) => n.family === thread_id && n.kind === 'change' && n.seq === Number(last!.seq))).toBe(true);
      // Everything heard of the family is that write's: its change and its event, nothing of the seeding.
      expect(heard.filter((n) => n.family === thread_id).map((n) => (n.kind === 'change' ? `change ${n.seq}` : `${n.kind} ${n.event}`))).toEqual([
        `workspace_changed ${last!.event}`,
        `change ${last!.seq}`,
      ]);
    } finally {
      await listener.unlisten();
    }
  });

  it('stores nothing when consent is declined, admits no one to a draft or a closed study, but resumes a known pid', async () => {
    const owner = await h.newUser();
    const draft = await createStudy(h.deps, owner, studyInput());
    await expectCode(joinStudy(h.deps, { slug: draft.join_url.replace('/join/s/', ''), join: { consent: true } }), 'not_found');
    const { study_id, slug } = await openStudy(owner);
    await expectCode(joinStudy(h.deps, { slug, join: { consent: false, pid: 'declines' } }), 'validation_failed');
    expect((await listStudyParticipants(h.deps, owner, { studyId: study_id })).participants).toEqual([]);
    const known = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'known' } });
    await updateStudy(h.deps, owner, { studyId: study_id, patch: { status: 'closed' } });
    await expectCode(joinStudy(h.deps, { slug, join: { consent: true, pid: 'newcomer' } }), 'forbidden');
    await expectCode(joinStudy(h.deps, { slug, join: { consent: true } }), 'forbidden');
    expect((await joinStudy(h.deps, { slug, join: { consent: true, pid: 'known' } })).thread_id).toBe(known.thread_id);
    expect((await listStudyParticipants(h.deps, owner, { studyId: study_id })).participants).toHaveLength(1);
  });
});

describe("a participant's family", () => {
  it('refuses a branch in the linear condition with branching_disabled, and allows one in the branching condition', async () => {
    const owner = await h.newUser();
    const { slug } = await openStudy(owner);
    const a = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'a' } });
    const b = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'b' } });
    const branching = await participantActor(a.participantId);
    const linear = await participantActor(b.participantId);
    await h.turn(branching, a.thread_id, 'append: A first paragraph.');
    await h.turn(linear, b.thread_id, 'append: A first paragraph.');
    await expectCode(createBranch(h.deps, linear, { threadId: b.thread_id, from_turn: 1 }), 'branching_disabled');
    await expectCode(editTurn(h.deps, linear, { threadId: b.thread_id, turn: 1, content: 'Again' }), 'branching_disabled');
    // The researcher may not fork a linear family either: the condition belongs to the family.
    await expectCode(createBranch(h.deps, owner, { threadId: b.thread_id, from_turn: 1 }), 'branching_disabled');
    const branch = await createBranch(h.deps, branching, { threadId: a.thread_id, from_turn: 1 });
    expect(branch.parent_thread_id).toBe(a.thread_id);
  });

  it("gives the model the condition's system prompt and tools on every turn, and the other condition's never", async () => {
    const owner = await h.newUser();
    const { slug } = await openStudy(owner);
    const a = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'model-a' } });
    const b = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'model-b' } });
    const branching = await participantActor(a.participantId);
    const linear = await participantActor(b.participantId);
    const systemOfLastCall = () => h.model.received.at(-1)![0]!.text;

    await h.turn(linear, b.thread_id, 'append: LINEAR-WORDS\ntodo: Name the company');
    expect(systemOfLastCall()).toContain('LINEAR-CONDITION: answer in one sentence.');
    const linearWorkspace = await getWorkspace(h.deps, linear, { threadId: b.thread_id });
    // write_document is not among the condition's tools: the document stays as seeded; add_todo is.
    expect(linearWorkspace.document.content).not.toContain('LINEAR-WORDS');
    expect(linearWorkspace.todos.map((t) => t.text)).toContain('Name the company');

    await h.turn(branching, a.thread_id, 'append: BRANCHING-WORDS');
    expect(systemOfLastCall()).not.toContain('LINEAR-CONDITION');
    expect((await getWorkspace(h.deps, branching, { threadId: a.thread_id })).document.content).toContain('BRANCHING-WORDS');

    // The researcher's own turn in the linear family runs under the condition too.
    await h.turn(owner, b.thread_id, 'append: OWNER-WORDS');
    expect(systemOfLastCall()).toContain('LINEAR-CONDITION');
    expect((await getWorkspace(h.deps, owner, { threadId: b.thread_id })).document.content).not.toContain('OWNER-WORDS');

    // A retry in place of a stopped reply runs under it as well (the retry opens the turn again).
    const stop = new AbortController();
    stop.abort();
    const stopped = await sendTurn(h.deps, linear, { threadId: b.thread_id, content: 'todo: Asked again', signal: stop.signal });
    for await (const event of stopped) void event;
    expect(await stopped.settled).toMatchObject({ status: 'interrupted' });
    const calls = h.model.received.length;
    const retried = await retryTurn(h.deps, linear, { threadId: b.thread_id, turn: stopped.turnIndex });
    for await (const event of retried) void event;
    expect(await retried.settled).toMatchObject({ status: 'complete' });
    const retryCalls = h.model.received.slice(calls).map((input) => input[0]!.text);
    expect(retryCalls.length).toBeGreaterThan(0);
    for (const system of retryCalls) expect(system).toContain('LINEAR-CONDITION');
  });

  it('answers a condition that names the offline model with it, beside a configured provider', async () => {
    // The recording model stands for the provider's model of that name.
    const provider = new OfflineChatModel();
    const served = await createHarness({ model: { instance: provider, name: 'provider-model' } });
    try {
      const owner = await served.newUser();
      const created = await createStudy(
        served.deps,
        owner,
        studyInput({
          conditions: [
            { name: 'with the provider', model: 'provider-model', branching: true, weight: 1 },
            { name: 'offline', model: 'offline', branching: true, weight: 1 },
          ],
        }),
      );
      await updateStudy(served.deps, owner, { studyId: created.study_id, patch: { status: 'open' } });
      const slug = created.join_url.replace('/join/s/', '');
      const first = await joinStudy(served.deps, { slug, join: { consent: true, pid: 'm-1' } });
      const second = await joinStudy(served.deps, { slug, join: { consent: true, pid: 'm-2' } });
      const { participants } = await listStudyParticipants(served.deps, owner, { studyId: created.study_id });
      const conditionOf = (id: string) => participants.find((p) => p.participant_id === id)!.condition;
      const [offline, withProvider] = conditionOf(first.participantId) === 'offline' ? [first, second] : [second, first];
      expect(conditionOf(withProvider.participantId)).toBe('with the provider');

      await served.turn(await participantActor(offline.participantId), offline.thread_id, 'append: OFFLINE-WORDS');
      expect(provider.received).toHaveLength(0);
      expect((await getWorkspace(served.deps, owner, { threadId: offline.thread_id })).document.content).toContain('OFFLINE-WORDS');

      await served.turn(await participantActor(withProvider.participantId), withProvider.thread_id, 'append: PROVIDER-WORDS');
      expect(provider.received.length).toBeGreaterThan(0);
    } finally {
      await served.deps.close();
    }
  });

  it("is out of reach of another participant: reads and turns answer 404", async () => {
    const owner = await h.newUser();
    const { slug } = await openStudy(owner);
    const a = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'one' } });
    const b = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'two' } });
    const first = await participantActor(a.participantId);
    await expectCode(getWorkspace(h.deps, first, { threadId: b.thread_id }), 'not_found');
    await expectCode(h.turn(first, b.thread_id, 'hello'), 'not_found');
  });
});

describe('the dashboard, Finish and withdrawal', () => {
  it('counts steps, paths and words per participant', async () => {
    const owner = await h.newUser();
    const { study_id, slug } = await openStudy(owner);
    const a = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'writer' } });
    const actor = await participantActor(a.participantId);
    await h.turn(actor, a.thread_id, 'append: Three more words.');
    await h.turn(actor, a.thread_id, 'append: And four more words.');
    await createBranch(h.deps, actor, { threadId: a.thread_id, from_turn: 1 });
    const [row] = (await listStudyParticipants(h.deps, owner, { studyId: study_id })).participants;
    expect(row).toMatchObject({ participant_id: a.participantId, thread_id: a.thread_id, condition: 'branching', steps: 2, paths: 2, finished: null });
    expect(row!.words.agent).toBeGreaterThan(0);
    expect(row!.words.agent + row!.words.participant + row!.words.agent_edited).toBeGreaterThan(0);

    // Polled again after more writing, the words follow the family (a summary remembered from the
    // last read is used only while no document change came after it), and a poll with nothing new
    // answers the same words.
    await h.turn(actor, a.thread_id, 'append: Five more words for the dashboard.');
    const [later] = (await listStudyParticipants(h.deps, owner, { studyId: study_id })).participants;
    expect(later!.words.agent).toBeGreaterThan(row!.words.agent);
    expect(later!.steps).toBe(3);
    const [again] = (await listStudyParticipants(h.deps, owner, { studyId: study_id })).participants;
    expect(again!.words).toEqual(later!.words);

    // The family is the researcher's, read from the dashboard: their conversation list, whole or
    // paged, holds their own conversations only, and the family still opens by id.
    const own = await h.newConversation(owner);
    for (const listed of [await listConversations(h.deps, owner), await listConversations(h.deps, owner, { limit: 10 })])
      expect(new Set(listed.conversations.map((c) => c.root_thread_id))).toEqual(new Set([own]));
    expect((await getConversation(h.deps, owner, { threadId: a.thread_id })).thread_id).toBe(a.thread_id);
  });

  it("moves a participant's activity_version with every change to their row or family, and every poll, on any process, shows the change", async () => {
    const owner = await h.newUser();
    const { study_id, slug } = await openStudy(owner);
    const a = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'mover' } });
    const b = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'still' } });
    const actorA = await participantActor(a.participantId);
    const versions = async () =>
      Object.fromEntries(
        (await h.deps.db.execute<{ participant_id: string; v: number }>(
          sql`select participant_id, activity_version as v from study_participants where study_id = ${study_id}`,
        )).map((r) => [r.participant_id, Number(r.v)]),
      );
    // A second studio process over the same database, which remembers its own last poll.
    const other = createServiceDeps({ databaseUrl: testDatabaseUrl(), model: { provider: 'offline' } });
    try {
      const poll = async (deps: { db: typeof h.deps.db }) =>
        Object.fromEntries((await listStudyParticipants(deps, owner, { studyId: study_id })).participants.map((p) => [p.participant_id, p]));
      await poll(h.deps);
      await poll(other);
      let before = await versions();
      const moved = async (what: string) => {
        const after = await versions();
        expect(after[a.participantId], what).toBeGreaterThan(before[a.participantId]!);
        expect(after[b.participantId], what).toBe(before[b.participantId]);
        before = after;
      };

      await h.turn(actorA, a.thread_id, 'append: Three more words.');
      await moved('a turn');
      for (const deps of [h.deps, other]) expect((await poll(deps))[a.participantId]).toMatchObject({ steps: 1, paths: 1 });

      const { document } = await getWorkspace(h.deps, actorA, { threadId: a.thread_id });
      await patchWorkspace(h.deps, actorA, { threadId: a.thread_id, patch: { document: { content: `${document.content}\n\nA paragraph of my own.`, base_version: document.version } } });
      await moved('a document edit');
      for (const deps of [other, h.deps]) expect((await poll(deps))[a.participantId]!.words.participant).toBe(5);

      const branch = await createBranch(h.deps, actorA, { threadId: a.thread_id, from_turn: 1 });
      await h.turn(actorA, branch.thread_id, 'append: On the branch.');
      await moved('a branch and its first turn');
      for (const deps of [h.deps, other]) expect((await poll(deps))[a.participantId]).toMatchObject({ steps: 2, paths: 2 });

      // A participant may not delete a path (an editor cannot); the researcher, who owns the family, may.
      expect((await expectCode(deleteConversation(h.deps, actorA, { threadId: branch.thread_id }), 'forbidden')).message).toBe(
        'An editor of this conversation cannot do this',
      );
      await deleteConversation(h.deps, owner, { threadId: branch.thread_id });
      await moved('a path deleted');
      for (const deps of [other, h.deps]) expect((await poll(deps))[a.participantId]).toMatchObject({ paths: 1 });

      await h.deps.db.execute(sql`update study_participants set started_at = now() - interval '6 minutes' where participant_id = ${a.participantId}`);
      await finishStudy(h.deps, { participantId: a.participantId, studyId: study_id });
      await moved('Finish');
      for (const deps of [h.deps, other]) expect((await poll(deps))[a.participantId]).toMatchObject({ status: 'finished' });

      await withdrawParticipant(h.deps, owner, { studyId: study_id, participantId: a.participantId });
      await moved('withdrawal');
      for (const deps of [other, h.deps]) expect((await poll(deps))[a.participantId]).toMatchObject({ status: 'withdrawn', thread_id: null, steps: 0, paths: 0 });
      expect((await poll(other))[b.participantId]).toMatchObject({ status: 'consented', steps: 0, paths: 1 });
    } finally {
      await other.close();
    }
  });

  it("withdraws while a write in the family holds its thread: the write's event and the withdrawal both go through, no deadlock", async () => {
    const owner = await h.newUser();
    const { study_id, slug } = await openStudy(owner);
    const a = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'racer' } });
    // A write as the write path makes it: the thread's row lock first, then the family's event, which
    // moves the participant's version. The withdrawal starts between the two.
    // Its own connection: the services' pool serves the withdrawal and the lock probe meanwhile.
    const own = postgres(testDatabaseUrl(), { max: 1, onnotice: () => {} });
    const { withdrawal } = await own.begin(async (writer) => {
      await writer`select 1 from conversations where thread_id = ${a.thread_id} for no key update`;
      const { pid } = (await writer<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!;
      const withdrawal = withdrawParticipant(h.deps, owner, { studyId: study_id, participantId: a.participantId }).then(
        () => 'withdrawn',
        (error: unknown) => error,
      );
      await waitForLockWaiters(h.deps.sql, pid, 1);
      const event = new PgDialect().sqlToQuery(familyEventStatement({ threadId: a.thread_id, kind: 'workspace_changed', data: { seq: 1 } }));
      await writer.unsafe(event.sql, event.params as never[]);
      return { withdrawal };
    }).finally(() => own.end());
    expect(await withdrawal).toBe('withdrawn');
    const [row] = (await listStudyParticipants(h.deps, owner, { studyId: study_id })).participants;
    expect(row).toMatchObject({ status: 'withdrawn', thread_id: null });
  });

  it('refuses Finish before min_minutes and answers the completion after it', async () => {
    const owner = await h.newUser();
    const { study_id, slug } = await openStudy(owner);
    const a = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'finisher' } });
    const self = { participantId: a.participantId, studyId: study_id };
    const early = await expectCode(finishStudy(h.deps, self), 'conflict');
    expect(early.details).toMatchObject({ min_minutes: 5 });
    await h.deps.db.execute(sql`update study_participants set started_at = now() - interval '6 minutes' where participant_id = ${a.participantId}`);
    expect(await finishStudy(h.deps, self)).toEqual({ code: 'C0MPLETE', redirect_url: 'https://example.test/done' });
    const [row] = (await listStudyParticipants(h.deps, owner, { studyId: study_id })).participants;
    expect(row!.status).toBe('finished');
    expect(row!.finished).not.toBeNull();
  });

  it('withdraws a participant: the family is deleted, the row stays withdrawn with no content', async () => {
    const owner = await h.newUser();
    const other = await h.newUser();
    const { study_id, slug } = await openStudy(owner);
    const a = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'leaver' } });
    const stays = await joinStudy(h.deps, { slug, join: { consent: true, pid: 'stayer' } });
    const leaver = await participantActor(a.participantId);
    await h.turn(leaver, a.thread_id, 'append: Words to be withdrawn.');
    const open = await subscribeFamilyEvents(h.deps, leaver, { threadId: a.thread_id, lastEventId: null });
    const staying = await subscribeFamilyEvents(h.deps, await participantActor(stays.participantId), { threadId: stays.thread_id, lastEventId: null });
    await expectCode(withdrawParticipant(h.deps, other, { studyId: study_id, participantId: a.participantId }), 'not_found');
    await withdrawParticipant(h.deps, owner, { studyId: study_id, participantId: a.participantId });
    // The leaver's open tab stops hearing the family; the other participant's does not.
    expect(open.ended).toBe('access_removed');
    expect(staying.ended).toBeNull();
    await staying.return();
    await expectCode(getConversation(h.deps, owner, { threadId: a.thread_id }), 'not_found');
    const [left] = await h.deps.db.execute<{ n: number }>(sql`
      select (select count(*) from conversations where root_thread_id = ${a.thread_id})
           + (select count(*) from messages where thread_id = ${a.thread_id})
           + (select count(*) from workspace_changes where thread_id = ${a.thread_id})
           + (select count(*) from family_events where family_id = ${a.thread_id})
           + (select count(*) from study_sessions where participant_id = ${a.participantId}) as n`);
    expect(Number(left!.n)).toBe(0);
    const { participants, counts } = await listStudyParticipants(h.deps, owner, { studyId: study_id });
    expect(participants.find((p) => p.participant_id === a.participantId)).toMatchObject({ status: 'withdrawn', thread_id: null, steps: 0 });
    expect(participants.find((p) => p.participant_id === stays.participantId)?.thread_id).toBe(stays.thread_id);
    expect(Object.values(counts).reduce((x, y) => x + y, 0)).toBe(1);
    await expectCode(joinStudy(h.deps, { slug, join: { consent: true, pid: 'leaver' } }), 'forbidden');
  });
});
