import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, NodeIdParamSchema, type ApplyItem, type Workspace } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { expectCode } from '../testing/expect-code';
import { collect } from '../testing/test-harness';
import { createBranch } from '../branching/create-branch';
import { getRestoreView } from '../branching/get-restore-view';
import { compareSteps } from '../compare/compare-steps';
import { getFamilyGraph } from '../graph/get-family-graph';
import { listMessages } from '../lineage/list-messages';
import { sendTurn } from '../turns/send-turn';
import { updateTodo } from '../workspace/update-todo';
import { getWorkspace } from '../workspace/get-workspace';
import { patchWorkspace } from '../workspace/patch-workspace';
import { updatePreference } from '../workspace/update-preference';
import { applyItems } from './apply-items';
import { summarizePath } from './summarize-path';
import { searchHistory } from '../search/search-history';
import { exportFamilyZip, exportPathMarkdown } from '../export/export-markdown';
import { strFromU8, unzipSync } from 'fflate';
import { waitForLockWaiters } from '../testing/lock-waiters';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

type Actor = { userId: string };
const node = (threadId: string, turn: number) => NodeIdParamSchema.parse(`${threadId}:${turn}`);

const SOURCE_DOC = '# Report\n\n## Intro\nHello from the source.\n\n## Findings\nVines climb trellises.\n\n### Detail\nSlowly.\n';

/**
 * A root with one shared step, then a branch B at 1 (the target). The root's step 2 is the source:
 * it changes what B also holds (the objective, the document's Intro, "Cite sources" — now locked —,
 * the "Outline" todo tree and the "Notes" artifact) and adds what B lacks (the Findings section,
 * "Short sentences", the "Review" todo tree and the "Sources" artifact).
 */
async function family(actor: Actor) {
  const root = await h.newConversation(actor, 'Report');
  await h.turn(actor, root, 'objective: Draft\ndoc: # Report\n\n## Intro\nHello.\nprefer: Cite sources\ntodo: Outline\n  todo: Intro\nartifact: Notes | v1');
  const branch = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
  await h.turn(
    actor,
    root,
    'objective: Final report\nprefer: Short sentences\ntodo: Review\n  todo: Spelling\n    todo: Commas\nartifact: Sources | a, b',
  );
  const live = await getWorkspace(h.deps, actor, { threadId: root });
  await patchWorkspace(h.deps, actor, { threadId: root, patch: { document: { content: SOURCE_DOC } } });
  const cite = live.preferences.find((p) => p.text === 'Cite sources')!;
  await updatePreference(h.deps, actor, { threadId: root, preferenceId: cite.id, patch: { text: 'Cite every source', locked: true } });
  // The source step is root:2 read live (its tip); a third turn would freeze it into snapshot 3.
  await h.turn(actor, root, 'append: Closing words.');
  return { root, branch, source: node(root, 2), sourceWorkspace: await readStep(actor, root, 2) };
}

async function readStep(actor: Actor, threadId: string, turn: number): Promise<Workspace> {
  return (await getRestoreView(h.deps, actor, { threadId, turn })).workspace;
}

const keyOf = (list: readonly { key: string | null; text: string }[], text: string) => list.find((x) => x.text === text)!.key!;

/** What a failed apply must leave untouched. */
async function footprint(threadId: string) {
  const [row] = await h.deps.db.execute<Record<string, unknown>>(sql`
    select c.turn_index, c.message_count, c.lease_owner,
      (select count(*)::int from workspace_snapshots s where s.thread_id = c.thread_id) as snapshots,
      (select count(*)::int from messages m where m.thread_id = c.thread_id) as messages
    from conversations c where c.thread_id = ${threadId}`);
  return { row, workspace: await h.deps.db.execute(sql`
    select (select jsonb_agg(p order by p.position) from (select text, locked, key, position from preferences where thread_id = ${threadId}) p) as prefs,
      (select jsonb_agg(t order by t.position) from (select text, done, depth, key, position from todos where thread_id = ${threadId}) t) as todos,
      (select jsonb_agg(a order by a.id) from (select id, title, content, key from artifacts where thread_id = ${threadId}) a) as artifacts,
      (select content from documents where thread_id = ${threadId}) as doc,
      (select objective from conversations where thread_id = ${threadId}) as objective`) };
}

describe('apply', () => {
  it('brings each kind of item onto a target that holds it (replaced in place, same key) and one that lacks it (added with its key)', async () => {
    const actor = await h.newUser();
    const { branch, source, sourceWorkspace: src } = await family(actor);
    const mine = (await getWorkspace(h.deps, actor, { threadId: branch })).todos.find((t) => t.text === 'Intro')!;
    await updateTodo(h.deps, actor, { threadId: branch, todoId: mine.id, patch: { text: 'Intro (mine)' } });
    const before = await getWorkspace(h.deps, actor, { threadId: branch });
    const items: ApplyItem[] = [
      { kind: 'objective' },
      { kind: 'section', heading: 'Intro' },
      { kind: 'section', heading: 'Findings' },
      { kind: 'preference', key: keyOf(src.preferences, 'Cite every source') },
      { kind: 'preference', key: keyOf(src.preferences, 'Short sentences') },
      { kind: 'todo', key: keyOf(src.todos, 'Outline') },
      { kind: 'todo', key: keyOf(src.todos, 'Review') },
      { kind: 'artifact', key: src.artifacts.find((a) => a.title === 'Sources')!.key! },
    ];
    const result = await applyItems(h.deps, actor, { threadId: branch, source, items });
    expect(result.turn_index).toBe(2);
    expect(result.source).toEqual({ node_id: source.thread_id + ':2', label: '2' });
    expect(result.applied.map((a) => [a.description, a.effect])).toEqual([
      ['objective', 'replaced'],
      ['section Intro', 'replaced'],
      ['section Findings', 'added'],
      ["preference 'Cite every source' (locked)", 'replaced'],
      ["preference 'Short sentences'", 'added'],
      ["todo 'Outline' with 1 nested", 'replaced'],
      ["todo 'Review' with 2 nested", 'added'],
      ["artifact 'Sources'", 'added'],
    ]);
    const after = await getWorkspace(h.deps, actor, { threadId: branch });
    expect(after.objective).toBe('Final report');
    expect(after.document.content).toBe('# Report\n\n## Intro\nHello from the source.\n\n## Findings\nVines climb trellises.\n\n### Detail\nSlowly.\n');
    // In place: the row the target had keeps its id; the new one carries the source's key.
    const cite = after.preferences.find((p) => p.key === keyOf(src.preferences, 'Cite every source'))!;
    expect(cite).toMatchObject({ id: before.preferences[0]!.id, text: 'Cite every source', locked: true });
    expect(after.preferences.map((p) => p.key)).toEqual(src.preferences.map((p) => p.key));
    expect(after.todos.map((t) => [t.text, t.depth, t.key])).toEqual(src.todos.map((t) => [t.text, t.depth, t.key]));
    const outline = after.todos.find((t) => t.text === 'Outline')!;
    expect(outline.id).toBe(before.todos.find((t) => t.text === 'Outline')!.id);

    // The artifact a target already holds is rewritten in place, the source's body and number kept.
    const notes = src.artifacts.find((a) => a.title === 'Notes')!;
    await h.deps.db.execute(sql`update artifacts set content = 'edited on the source' where thread_id = ${source.thread_id} and key = ${notes.key}`);
    const again = await applyItems(h.deps, actor, { threadId: branch, source, items: [{ kind: 'artifact', key: notes.key! }, { kind: 'document' }] });
    expect(again.applied.map((a) => a.effect)).toEqual(['replaced', 'unchanged']);
    const final = await getWorkspace(h.deps, actor, { threadId: branch });
    expect(final.artifacts.filter((a) => a.key === notes.key)).toEqual([
      expect.objectContaining({ content: 'edited on the source', number: notes.number, id: before.artifacts[0]!.id }),
    ]);
    expect(final.artifacts.find((a) => a.title === 'Sources')!.number).toBe(src.artifacts.find((a) => a.title === 'Sources')!.number);
    // Same text and title; the version is each path's own count.
    expect({ ...final.document, version: 0 }).toEqual({ ...src.document, version: 0 });
  });

  it('keeps the lock of a locked preference it brings, and a later compare of source and target shows the applied items unchanged', async () => {
    const actor = await h.newUser();
    const { root, branch, source, sourceWorkspace: src } = await family(actor);
    const items: ApplyItem[] = [
      { kind: 'preference', key: keyOf(src.preferences, 'Cite every source') },
      { kind: 'todo', key: keyOf(src.todos, 'Review') },
      { kind: 'artifact', key: src.artifacts.find((a) => a.title === 'Sources')!.key! },
      { kind: 'objective' },
    ];
    const result = await applyItems(h.deps, actor, { threadId: branch, source, items });
    const live = await getWorkspace(h.deps, actor, { threadId: branch });
    expect(live.preferences.find((p) => p.text === 'Cite every source')!.locked).toBe(true);

    const c = await compareSteps(h.deps, actor, { threadId: root, a: source, b: node(branch, result.turn_index) });
    expect(c.preferences.find((p) => p.key === keyOf(src.preferences, 'Cite every source'))).toMatchObject({ status: 'unchanged' });
    for (const text of ['Review', 'Spelling', 'Commas']) {
      expect(c.todos.find((t) => t.key === keyOf(src.todos, text))!.changes.filter((x) => x !== 'position')).toEqual([]);
    }
    expect(c.artifacts.find((a) => a.b?.title === 'Sources')!.status).toBe('unchanged');
    expect(c.objective.changed).toBe(false);
  });

  it('refuses (409 conflict) an item that would change a preference locked on the target, and writes nothing', async () => {
    const actor = await h.newUser();
    const { branch, source, sourceWorkspace: src } = await family(actor);
    const mine = (await getWorkspace(h.deps, actor, { threadId: branch })).preferences[0]!;
    await updatePreference(h.deps, actor, { threadId: branch, preferenceId: mine.id, patch: { locked: true } });
    const before = await footprint(branch);
    await expectCode(
      applyItems(h.deps, actor, {
        threadId: branch,
        source,
        items: [{ kind: 'objective' }, { kind: 'preference', key: keyOf(src.preferences, 'Cite every source') }],
      }),
      'conflict',
    );
    expect(await footprint(branch)).toEqual(before);
  });

  it('captures the step before first: restoring it gives the pre-apply workspace, and the apply step is an ordinary restorable step', async () => {
    const actor = await h.newUser();
    const { branch, source } = await family(actor);
    await patchWorkspace(h.deps, actor, { threadId: branch, patch: { document: { content: '# Mine\n\nManual edit after the branch.\n' } } });
    const pre = await getWorkspace(h.deps, actor, { threadId: branch });
    const result = await applyItems(h.deps, actor, { threadId: branch, source, items: [{ kind: 'section', heading: 'Findings' }] });
    const restored = await readStep(actor, branch, result.turn_index - 1);
    // A restored step has no versions (they belong to live rows).
    expect({ ...restored, artifacts: [] }).toEqual({
      ...pre,
      document: { title: pre.document.title, content: pre.document.content },
      artifacts: [],
      preferences: pre.preferences.map(({ version: _version, ...p }) => ({ ...p, id: expect.any(String) })),
      todos: pre.todos.map(({ version: _version, ...t }) => ({ ...t, id: expect.any(String) })),
    });
    const step = await readStep(actor, branch, result.turn_index);
    expect(step.document.content).toBe('# Mine\n\nManual edit after the branch.\n\n## Findings\nVines climb trellises.\n\n### Detail\nSlowly.\n');
  });

  it('writes a system entry of kind apply naming the source label and the items, with its provenance, and no model call', async () => {
    const actor = await h.newUser();
    const { branch, source, sourceWorkspace: src } = await family(actor);
    const calls = h.model.received.length;
    const result = await applyItems(h.deps, actor, {
      threadId: branch,
      source,
      items: [{ kind: 'section', heading: 'Findings' }, { kind: 'preference', key: keyOf(src.preferences, 'Cite every source') }],
      note: 'the better findings',
    });
    expect(h.model.received.length).toBe(calls);
    const { messages } = await listMessages(h.deps, actor, { threadId: branch, limit_turns: 10 });
    const entry = messages.filter((m) => m.turn_index === result.turn_index);
    expect(entry).toEqual([
      expect.objectContaining({
        role: 'system',
        kind: 'apply',
        content: "Applied from 2: section Findings, preference 'Cite every source' (locked)\n\nthe better findings",
        provenance: {
          source_node_id: `${source.thread_id}:2`,
          source_label: '2',
          items: ['section Findings', "preference 'Cite every source' (locked)"],
          note: 'the better findings',
        },
      }),
    ]);
    // A branch from the apply step does not feed the entry to the model as a turn.
    const child = await createBranch(h.deps, actor, { threadId: branch, from_turn: result.turn_index });
    await h.turn(actor, child.thread_id, 'hello');
    const seen = h.model.received.at(-1)!.map((m) => m.text);
    expect(seen.some((text) => text.includes('Applied from'))).toBe(false);
    expect(seen.filter((text) => text === 'hello')).toHaveLength(1);
  });

  it('is in the exports: the path Markdown writes the entry, the family graph draws the apply edge', async () => {
    const actor = await h.newUser();
    const { branch, source } = await family(actor);
    await applyItems(h.deps, actor, { threadId: branch, source, items: [{ kind: 'section', heading: 'Findings' }] });
    const markdown = (await exportPathMarkdown(h.deps, actor, { threadId: branch })).body as string;
    expect(markdown).toMatch(/### Step 2\.\d+\n\n_Applied from 2: section Findings_\n\n## Workspace/);
    const zip = unzipSync(new Uint8Array(await new Response((await exportFamilyZip(h.deps, actor, { threadId: branch })).stream).arrayBuffer()));
    expect(strFromU8(zip['family-graph.mmd']!)).toMatch(/ ==>\|"section Findings"\| /);
  });

  it('is found by search as the message that opened its step', async () => {
    const actor = await h.newUser();
    const { branch, source } = await family(actor);
    const note = `pangolin${Date.now().toString(36)}`;
    const result = await applyItems(h.deps, actor, { threadId: branch, source, items: [{ kind: 'objective' }], note });
    const { hits } = await searchHistory(h.deps, actor, { q: note, family: branch, page: 1 });
    expect(hits.map((hit) => [hit.thread_id, hit.turn_index, hit.kind])).toEqual([[branch, result.turn_index, 'message']]);
  });

  it('labels the source by the path it is on, and names the applied step by its own label', async () => {
    const actor = await h.newUser();
    const { root, branch, source } = await family(actor);
    await h.turn(actor, branch, 'append: branch text');
    const result = await applyItems(h.deps, actor, { threadId: root, source: node(branch, 2), items: [{ kind: 'document' }] });
    const graph = await getFamilyGraph(h.deps, actor, { threadId: root });
    const branchLabel = graph.nodes.find((n) => n.id === `${branch}:2`)!.label;
    expect(result.source.label).toBe(branchLabel);
    expect(result.label).toBe(String(result.turn_index));
    expect(result.thread_id).toBe(root);
    expect(source.thread_id).toBe(root);
  });

  it('dry run: answers the compare of the target now against after, and writes nothing', async () => {
    const actor = await h.newUser();
    const { branch, source, sourceWorkspace: src } = await family(actor);
    const before = await footprint(branch);
    const dry = await applyItems(h.deps, actor, {
      threadId: branch,
      source,
      dryRun: true,
      items: [{ kind: 'section', heading: 'Findings' }, { kind: 'preference', key: keyOf(src.preferences, 'Short sentences') }],
    });
    expect(dry.dry_run).toBe(true);
    expect(dry.applied.map((a) => a.effect)).toEqual(['added', 'added']);
    expect(dry.document.changed).toBe(true);
    expect(dry.preferences.map((p) => [p.status, p.b?.text])).toEqual([
      ['unchanged', 'Cite sources'],
      ['added', 'Short sentences'],
    ]);
    expect(await footprint(branch)).toEqual(before);
  });

  it('refuses (422) an item that is not in the source, and a source outside the family; 404 / 403 for the target', async () => {
    const actor = await h.newUser();
    const { branch, source } = await family(actor);
    const missing = await expectCode(
      applyItems(h.deps, actor, { threadId: branch, source, items: [{ kind: 'section', heading: 'Nowhere' }] }),
      'validation_failed',
    );
    expect(JSON.stringify(missing.details)).toContain('items.0');
    await expectCode(
      applyItems(h.deps, actor, { threadId: branch, source, items: [{ kind: 'preference', key: '00000000-0000-4000-8000-000000000000' }] }),
      'validation_failed',
    );
    const stranger = await h.newConversation(actor, 'Other family');
    await h.turn(actor, stranger, 'objective: elsewhere');
    const outside = await expectCode(
      applyItems(h.deps, actor, { threadId: branch, source: node(stranger, 1), items: [{ kind: 'objective' }] }),
      'validation_failed',
    );
    expect(JSON.stringify(outside.details)).toContain('source');
    await expectCode(applyItems(h.deps, actor, { threadId: branch, source: node(source.thread_id, 99), items: [{ kind: 'document' }] }), 'validation_failed');
    await expectCode(
      applyItems(h.deps, actor, { threadId: branch, source: node(`th_${'0'.repeat(32)}`, 1), items: [{ kind: 'document' }] }),
      'validation_failed',
    );
    await expectCode(applyItems(h.deps, actor, { threadId: `th_${'f'.repeat(32)}`, source, items: [{ kind: 'document' }] }), 'not_found');
    const other = await h.newUser();
    await expectCode(applyItems(h.deps, other, { threadId: branch, source, items: [{ kind: 'document' }] }), 'forbidden');
    await expectCode(applyItems(h.deps, actor, { threadId: branch, source, items: [{ kind: 'summary' }] }), 'validation_failed');
  });

  it('draws an apply edge from the source node to the apply step, and no dangling edge', async () => {
    const actor = await h.newUser();
    const { root, branch, source } = await family(actor);
    const result = await applyItems(h.deps, actor, { threadId: branch, source, items: [{ kind: 'section', heading: 'Findings' }, { kind: 'objective' }] });
    const graph = await getFamilyGraph(h.deps, actor, { threadId: branch });
    const target = `${branch}:${result.turn_index}`;
    const apply = graph.edges.filter((e) => e.kind === 'apply');
    expect(apply).toEqual([
      { id: `apply:${source.thread_id}:2->${target}`, source: `${root}:2`, target, kind: 'apply', reason: 'section Findings, objective' },
    ]);
    const ids = new Set(graph.nodes.map((n) => n.id));
    expect(graph.edges.every((e) => ids.has(e.source) && ids.has(e.target))).toBe(true);
    expect(new Set(graph.edges.map((e) => e.id)).size).toBe(graph.edges.length);
    // The step is an ordinary node: its tree edge (the branch's first own step), the entry as its message, a change summary.
    expect(graph.edges.filter((e) => e.target === target).map((e) => e.kind).sort()).toEqual(['apply', 'branch']);
    const step = graph.nodes.find((n) => n.id === target)!;
    expect(step.user_message).toBe('Applied from 2: section Findings, objective');
    expect(step.reply_status).toBe('complete');
    expect(step.change_summary).toMatchObject({ items_edited: 1 });
    expect(step.change_summary!.words_added).toBeGreaterThan(0);

    // Capped so that the source node is dropped: the apply edge goes with it.
    const small = await getFamilyGraph(h.deps, actor, { threadId: branch, maxNodes: 1 });
    expect(small.nodes.map((n) => n.id)).toEqual([target]);
    expect(small.edges).toEqual([]);
  });

  it('an apply racing a turn on the target: exactly one of them is refused with 409, and nothing is torn', async () => {
    const actor = await h.newUser();
    const { branch, source } = await family(actor);
    for (let round = 0; round < 3; round++) {
      const turnBefore = (await footprint(branch)).row!.turn_index as number;
      // Hold the target's row so both reach their lease statement before either runs it.
      const outcome = await h.deps.sql.begin(async (barrier) => {
        await barrier`select 1 from conversations where thread_id = ${branch} for update`;
        const { pid } = (await barrier<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!;
        const turn = sendTurn(h.deps, actor, { threadId: branch, content: `append: round ${round}` }).then(collect);
        const apply = applyItems(h.deps, actor, { threadId: branch, source, items: [{ kind: 'section', heading: 'Findings' }] });
        const settled = Promise.allSettled([turn, apply]);
        // Both waiting on the barrier, or queued behind the one that waits on it.
        await waitForLockWaiters(h.deps.sql, pid, 2);
        return { settled };
      });
      const [turn, apply] = await outcome.settled;
      const refused = [turn, apply].filter((r) => r.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
      expect(((refused[0] as PromiseRejectedResult).reason as AppError).code).toBe('turn_in_progress');
      // Nothing torn (the branch owns the turns after its branch point 1): one new turn, its snapshot, its messages (a user message and a reply, or the entry).
      const after = await footprint(branch);
      expect(after.row).toMatchObject({ turn_index: turnBefore + 1, lease_owner: null, snapshots: turnBefore });
      const rows = await h.deps.db.execute<{ role: string }>(sql`
        select role from messages where thread_id = ${branch} and turn_index = ${turnBefore + 1} order by seq`);
      expect(rows.map((r) => r.role)).toEqual(turn.status === 'fulfilled' ? ['user', 'assistant'] : ['system']);
    }
  });

  it('summary: one agent turn on the target, prompted with the source path, streamed, its reply filed as "Summary of path 2" with an apply edge', async () => {
    const actor = await h.newUser();
    const { root, branch, source } = await family(actor);
    const before = await getWorkspace(h.deps, actor, { threadId: branch });
    const stream = await summarizePath(h.deps, actor, { threadId: branch, source, note: 'for the record' });
    const events = await collect(stream);
    expect(events[0]).toEqual({ event: 'turn', data: { turn_index: 2, thread_id: branch } });
    expect(events.at(-1)!.event).toBe('done');
    const streamed = events.flatMap((e) => (e.event === 'token' ? [e.data.text] : [])).join('');
    expect(streamed).toMatch(/^Path 2 has 2 steps: \d+ words added/);

    // The model was asked the source path's steps, never the entry; it touched no tool.
    const asked = h.model.received.at(-1)!.at(-1)!.text;
    expect(asked).toMatch(/^Summarise path 2:/);
    expect(asked).toContain('- Step 1: ');
    expect(asked).toContain('- Step 2: ');
    expect(events.some((e) => e.event === 'tool')).toBe(false);

    const after = await getWorkspace(h.deps, actor, { threadId: branch });
    const added = after.artifacts.filter((a) => !before.artifacts.some((b) => b.id === a.id));
    expect(added).toEqual([expect.objectContaining({ title: 'Summary of path 2', kind: 'summary', content: streamed, turn_index: 2 })]);
    const { messages } = await listMessages(h.deps, actor, { threadId: branch, limit_turns: 1 });
    expect(messages.map((m) => [m.role, m.kind ?? null])).toEqual([
      ['system', 'apply'],
      ['assistant', null],
    ]);
    expect(messages[0]!.content).toBe('Applied from 2: summary\n\nfor the record');
    const graph = await getFamilyGraph(h.deps, actor, { threadId: branch });
    expect(graph.edges.filter((e) => e.kind === 'apply')).toEqual([
      expect.objectContaining({ source: `${root}:2`, target: `${branch}:2`, reason: 'summary' }),
    ]);
    expect(graph.nodes.find((n) => n.id === `${branch}:2`)).toMatchObject({ reply_status: 'complete', artifact_count: 1 });
    // The target's ownership rule, as everywhere.
    await expectCode(summarizePath(h.deps, { userId: 'nobody' }, { threadId: branch, source }), 'forbidden');
  });
});

