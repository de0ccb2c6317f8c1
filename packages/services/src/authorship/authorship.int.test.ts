import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeIdParamSchema, type Authorship } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { expectCode } from '../testing/expect-code';
import { createBranch } from '../branching/create-branch';
import { getRestoreView } from '../branching/get-restore-view';
import { applyItems } from '../apply/apply-items';
import { getWorkspace } from '../workspace/get-workspace';
import { patchWorkspace } from '../workspace/patch-workspace';
import { exportAuthorshipReport } from './export-authorship-report';
import { getAuthorship } from './get-authorship';
import { getStepChanges } from '../compare/step-changes';
import { createPreference } from '../workspace/create-preference';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

type Actor = { userId: string };

async function typeDocument(actor: Actor, threadId: string, content: string) {
  await patchWorkspace(h.deps, actor, { threadId, patch: { document: { content } } });
}

/** The spans as `author:text` over `text`, checking they cover it exactly, in order. */
function spansOf(authorship: Authorship, text: string): string[] {
  let at = 0;
  for (const span of authorship.spans) {
    expect(span.start).toBe(at);
    at = span.end;
  }
  expect(at).toBe(text.length);
  return authorship.spans.map(
    (s) => `${s.via === 'apply' ? 'apply/' : ''}${s.author}:${text.slice(s.start, s.end)}`,
  );
}

describe('GET …/authorship', () => {
  it('a person typing, the agent appending and the person editing the agent sentence give person, agent and agent_edited spans', async () => {
    const actor = await h.newUser();
    const thread = await h.newConversation(actor, 'Authors');
    await typeDocument(actor, thread, 'I wrote this.');
    await h.turn(actor, thread, 'append: The agent wrote that. And this too.');
    const afterAgent = (await getWorkspace(h.deps, actor, { threadId: thread })).document.content;
    expect(afterAgent).toBe('I wrote this.\n\nThe agent wrote that. And this too.');
    await typeDocument(actor, thread, afterAgent.replace('wrote that', 'wrote that well'));

    const live = await getWorkspace(h.deps, actor, { threadId: thread });
    const authorship = await getAuthorship(h.deps, actor, { threadId: thread });
    expect(authorship.version).toBe(live.document.version);
    expect(spansOf(authorship, live.document.content)).toEqual([
      'person:I wrote this.',
      'agent:\n\n',
      'agent_edited:The agent wrote that well.',
      'agent: And this too.',
    ]);
    // person 3 words, agent_edited 5, agent 3 ("And this too").
    expect(authorship.summary).toEqual({
      person_words: 3,
      agent_words: 3,
      agent_edited_words: 5,
      unknown_words: 0,
    });
    // The step each span came from: the person typed before turn 1 (step 0), the agent wrote in
    // turn 1, and the edit after it belongs to step 1.
    expect(authorship.spans.map((s) => s.turn)).toEqual([0, 1, 1, 1]);
    expect(authorship.steps).toEqual([
      { turn: 0, label: '0' },
      { turn: 1, label: '1' },
    ]);
    // What hovering says besides the step: when, and for the agent the tool call that wrote it.
    const bySeq = new Map(authorship.changes.map((c) => [c.seq, c]));
    expect(authorship.changes.map((c) => c.seq)).toEqual(
      [...new Set(authorship.spans.map((s) => s.seq))].sort((a, b) => a! - b!),
    );
    const [typed, agentSpan, edited] = authorship.spans;
    expect(bySeq.get(typed!.seq!)).toMatchObject({ turn: 0, actor: 'person', tool_call: null });
    expect(bySeq.get(agentSpan!.seq!)).toMatchObject({
      turn: 1,
      actor: 'agent',
      tool_call: { id: expect.any(String), name: 'write_document' },
    });
    expect(bySeq.get(edited!.seq!)).toMatchObject({ turn: 1, actor: 'person', tool_call: null });
    for (const change of authorship.changes)
      expect(Date.parse(change.at)).toBeGreaterThan(Date.now() - 600_000);
    // changes_after: only the named changes past that seq, for a reader that keeps the ones it saw.
    const afterTyped = await getAuthorship(h.deps, actor, { threadId: thread, changesAfter: typed!.seq! });
    expect(afterTyped.spans).toEqual(authorship.spans);
    expect(afterTyped.changes).toEqual(authorship.changes.filter((c) => c.seq > typed!.seq!));
    const lastSeq = Math.max(...authorship.changes.map((c) => c.seq));
    expect((await getAuthorship(h.deps, actor, { threadId: thread, changesAfter: lastSeq })).changes).toEqual(
      [],
    );

    // ?turn=0: the document after step 0 is the person's sentence alone.
    const atZero = await getAuthorship(h.deps, actor, { threadId: thread, turn: 0 });
    expect(spansOf(atZero, 'I wrote this.')).toEqual(['person:I wrote this.']);
    await expectCode(getAuthorship(h.deps, actor, { threadId: thread, turn: 2 }), 'not_found');
    const stranger = await h.newUser();
    await expectCode(getAuthorship(h.deps, stranger, { threadId: thread }), 'forbidden');
  });

  it('a step says who did what: the words each side left (the overlay of that step) and the items each side changed', async () => {
    const actor = await h.newUser();
    const thread = await h.newConversation(actor, 'Both sides');
    await typeDocument(actor, thread, 'I wrote this.');
    await h.turn(actor, thread, 'append: The agent wrote that. And this too.\nprefer: Agent rule');
    const afterAgent = (await getWorkspace(h.deps, actor, { threadId: thread })).document.content;
    // After turn 1, still step 1: the person edits the agent's first sentence, adds one and a preference.
    const edited = afterAgent.replace('wrote that', 'wrote that well');
    await typeDocument(actor, thread, edited);
    await typeDocument(actor, thread, `${edited}\n\nMine too.`);
    const mine = await createPreference(h.deps, actor, { threadId: thread, preference: { text: 'My rule' } });

    const step1 = await getStepChanges(h.deps, actor, { threadId: thread, turn: 1 });
    // Hand-computed: agent "And this too" (3), agent_edited "The agent wrote that well" (5), person
    // "Mine too" (2); "I wrote this" is step 0's.
    expect(step1.by_author.words).toEqual({
      person_words: 2,
      agent_words: 3,
      agent_edited_words: 5,
      unknown_words: 0,
    });
    const agentRule = (await getWorkspace(h.deps, actor, { threadId: thread })).preferences.find(
      (p) => p.text === 'Agent rule',
    )!;
    expect(step1.by_author.agent_items).toEqual([{ kind: 'preference', key: agentRule.key }]);
    expect(step1.by_author.person_items).toEqual([{ kind: 'preference', key: mine.key }]);
    // The same numbers as the overlay of the restored step 1 (its spans of step 1, counted by author).
    const atOne = await getAuthorship(h.deps, actor, { threadId: thread, turn: 1 });
    expect(atOne.summary).toEqual({
      person_words: 5,
      agent_words: 3,
      agent_edited_words: 5,
      unknown_words: 0,
    });
  });

  it('reads from the cache: a second read adds no row, an edit adds one and advances from the last', async () => {
    const actor = await h.newUser();
    const thread = await h.newConversation(actor);
    await typeDocument(actor, thread, 'One.');
    await typeDocument(actor, thread, 'One. Two.');
    const rows = async () =>
      (
        await h.deps.db.execute<{ seq: number }>(
          sql`select seq from authorship_cache where thread_id = ${thread} order by seq`,
        )
      ).map((r) => Number(r.seq));
    const first = await getAuthorship(h.deps, actor, { threadId: thread });
    expect(await rows()).toHaveLength(1);
    expect(await getAuthorship(h.deps, actor, { threadId: thread })).toEqual(first);
    expect(await rows()).toHaveLength(1);
    await h.turn(actor, thread, 'append: Three.');
    const third = await getAuthorship(h.deps, actor, { threadId: thread });
    expect(await rows()).toHaveLength(2);
    const text = (await getWorkspace(h.deps, actor, { threadId: thread })).document.content;
    // Each change is its own span (its own seq), even by the same author.
    expect(spansOf(third, text)).toEqual(['person:One.', 'person: Two.', 'agent:\n\nThree.']);
    // A later edit in the same step replaces that step's row: one row per step.
    await typeDocument(actor, thread, `${text} Four.`);
    await getAuthorship(h.deps, actor, { threadId: thread });
    expect(await rows()).toHaveLength(2);
  });

  it('a branch at k has its parent’s spans at k; the parent’s later edits stay out', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Root');
    await typeDocument(actor, root, 'Mine first.');
    await h.turn(actor, root, 'append: Agent at one.');
    await h.turn(actor, root, 'append: Agent at two.');
    await typeDocument(actor, root, 'Rewritten by me.');
    const atOne = await getAuthorship(h.deps, actor, { threadId: root, turn: 1 });
    const restored = (await getRestoreView(h.deps, actor, { threadId: root, turn: 1 })).workspace.document
      .content;
    expect(spansOf(atOne, restored)).toEqual(['person:Mine first.', 'agent:\n\nAgent at one.']);

    const branch = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
    const inherited = await getAuthorship(h.deps, actor, { threadId: branch });
    expect(inherited.spans).toEqual(atOne.spans);
    expect(inherited.summary).toEqual(atOne.summary);
    // The branch's own edit after its point: its spans go on from the parent's.
    const live = (await getWorkspace(h.deps, actor, { threadId: branch })).document.content;
    await typeDocument(actor, branch, `${live} Branch words.`);
    const own = await getAuthorship(h.deps, actor, { threadId: branch });
    expect(spansOf(own, `${live} Branch words.`)).toEqual([
      'person:Mine first.',
      'agent:\n\nAgent at one.',
      'person: Branch words.',
    ]);
    // Its change's seq is path-wide: after the parent's changes it inherited.
    const ownSeq = own.spans.at(-1)!.seq!;
    expect(ownSeq).toBeGreaterThan(Math.max(...atOne.spans.map((s) => s.seq!)));
  });

  it('an applied section keeps its author and says via apply from its source node', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Apply');
    await typeDocument(actor, root, '# Report\n\n## Intro\nMy intro.');
    const branch = (await createBranch(h.deps, actor, { threadId: root, from_turn: 0 })).thread_id;
    await h.turn(actor, branch, 'append: ## Findings\nThe agent found vines.');
    const source = NodeIdParamSchema.parse(`${branch}:1`);
    await applyItems(h.deps, actor, {
      threadId: root,
      source,
      items: [{ kind: 'section', heading: 'Findings' }],
    });
    const text = (await getWorkspace(h.deps, actor, { threadId: root })).document.content;
    expect(text).toContain('## Findings\nThe agent found vines.');
    const authorship = await getAuthorship(h.deps, actor, { threadId: root });
    const spans = spansOf(authorship, text);
    // The section the apply copied is the agent's; the blank line before it and the closing newline are the apply's own.
    expect(spans).toEqual([
      'person:# Report\n\n## Intro\nMy intro.',
      'apply/person:\n\n',
      'apply/agent:## Findings\nThe agent found vines.',
      'apply/person:\n',
    ]);
    const applied = authorship.spans.find((s) => s.via === 'apply' && s.author === 'agent')!;
    expect(applied).toMatchObject({ source: `${branch}:1`, thread_id: branch, turn: 1 });
    expect(authorship.summary.agent_words).toBe(5);
    expect(authorship.summary.person_words).toBe(4);
  });

  it('the authorship report counts what the overlay counts, names the agent’s step with its prompt and the applied source', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Disclosure');
    await typeDocument(actor, root, '# Paper\n\nI wrote the opening.');
    await h.turn(actor, root, 'append: ## Method\nThe agent describes the method here.');
    const branch = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
    await h.turn(actor, branch, 'append: ## Results\nVines grew fast.');
    await applyItems(h.deps, actor, {
      threadId: root,
      source: NodeIdParamSchema.parse(`${branch}:2`),
      items: [{ kind: 'section', heading: 'Results' }],
    });
    const overlay = await getAuthorship(h.deps, actor, { threadId: root });
    const file = await exportAuthorshipReport(h.deps, actor, {
      threadId: root,
      now: new Date('2026-12-02T12:00:00Z'),
    });
    expect(file.filename).toMatch(/authorship\.md$/);
    const report = String(file.body);
    const { person_words: p, agent_words: a, agent_edited_words: e, unknown_words: u } = overlay.summary;
    const all = p + a + e + u;
    // person: Paper, I, wrote, the, opening = 5; agent: Method + 6 = 7, applied: Results, Vines, grew, fast = 4.
    expect(overlay.summary).toEqual({
      person_words: 5,
      agent_words: 11,
      agent_edited_words: 0,
      unknown_words: 0,
    });
    expect(report).toContain(`| Person | ${p} (${((100 * p) / all).toFixed(1)}%) |`);
    expect(report).toContain(`| Agent | ${a} (${((100 * a) / all).toFixed(1)}%) |`);
    expect(report).toContain(`| Total | ${all} |`);
    expect(report).toContain('| Method | 0 | 7 (100.0%) | 0 | 0 | 7 |');
    expect(report).toContain(
      '- Step 1: 7 words — asked: “append: ## Method The agent describes the method here.”',
    );
    expect(report).toMatch(/- From step 2\S*: 4 words \(agent 4\)/);
    expect(report).toContain('Generated 2026-12-02');
  });
});
