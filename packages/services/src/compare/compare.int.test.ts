import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeIdParamSchema } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { createBranch } from '../branching/create-branch';
import { getRestoreView } from '../branching/get-restore-view';
import { getWorkspace } from '../workspace/get-workspace';
import { updatePreference } from '../workspace/update-preference';
import { deletePreference } from '../workspace/delete-preference';
import { deleteTodo } from '../workspace/delete-todo';
import { getFamilyGraph } from '../graph/get-family-graph';
import { compareSteps } from './compare-steps';
import { getStepChanges } from './step-changes';
import { expectCode } from '../testing/expect-code';
import { collect } from '../testing/test-harness';
import { sendTurn } from '../turns/send-turn';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

const node = (threadId: string, turn: number) => NodeIdParamSchema.parse(`${threadId}:${turn}`);

/** Two turns on the root, then a branch at 1 with one turn of its own. */
async function twoPaths(actor: { userId: string }) {
  const root = await h.newConversation(actor, 'Essay');
  await h.turn(
    actor,
    root,
    'doc: # Draft\n\nTrellises hold vines.\nprefer: Cite sources\ntodo: Outline\ntodo: Intro',
  );
  await h.turn(actor, root, 'append: They are wooden.\nartifact: Notes | turn two notes');
  const branch = await createBranch(h.deps, actor, { threadId: root, from_turn: 1 });
  return { root, branch: branch.thread_id };
}

describe('compare of two steps', () => {
  it('reads a lock set on a branch as edited ["locked"], not removed + added; a todo ticked on one path as edited ["done"]', async () => {
    const actor = await h.newUser();
    const { root, branch } = await twoPaths(actor);
    const pref = (await getWorkspace(h.deps, actor, { threadId: branch })).preferences[0]!;
    await updatePreference(h.deps, actor, {
      threadId: branch,
      preferenceId: pref.id,
      patch: { locked: true },
    });
    await h.turn(actor, branch, 'done: Outline\nappend: Steel works too.');

    const c = await compareSteps(h.deps, actor, { threadId: root, a: node(root, 2), b: node(branch, 2) });
    expect(c.fork).toEqual({ node_id: `${root}:1`, label: '1' });
    expect(c.a).toEqual({ node_id: `${root}:2`, label: '2' });
    expect(c.b.node_id).toBe(`${branch}:2`);
    expect(c.b.label).toMatch(/^2\.\d+$/);
    expect(c.preferences).toEqual([
      {
        key: pref.key,
        status: 'edited',
        changes: ['locked'],
        a: { text: 'Cite sources', locked: false },
        b: { text: 'Cite sources', locked: true },
        removed_at: null,
        removed_by: null,
      },
    ]);
    const outline = c.todos.find((t) => (t.a ?? t.b)!.text === 'Outline')!;
    expect([outline.status, outline.changes]).toEqual(['edited', ['done']]);
    expect(c.todos.find((t) => (t.a ?? t.b)!.text === 'Intro')!.status).toBe('unchanged');
    expect(c.document.changed).toBe(true);
    expect(c.document.words_removed).toBeGreaterThan(0);
    expect(c.document.words_added).toBeGreaterThan(0);
    expect(c.artifacts.map((x) => [x.status, x.a?.title ?? null, x.b?.title ?? null])).toEqual([
      ['removed', 'Notes', null],
    ]);

    // The keys are the ones the workspace API and the restore view expose.
    const view = await getRestoreView(h.deps, actor, { threadId: root, turn: 1 });
    expect(view.workspace.preferences[0]!.key).toBe(pref.key);
    const live = await getWorkspace(h.deps, actor, { threadId: root });
    expect(live.artifacts[0]!.key).toEqual(expect.any(String));
  });

  it('is all unchanged for a step against itself and against its copy on a fresh branch', async () => {
    const actor = await h.newUser();
    const { root, branch } = await twoPaths(actor);
    for (const c of [
      await compareSteps(h.deps, actor, { threadId: root, a: node(root, 1), b: node(root, 1) }),
      await compareSteps(h.deps, actor, { threadId: branch, a: node(root, 1), b: node(branch, 1) }),
    ]) {
      expect([...c.preferences, ...c.todos, ...c.artifacts].every((e) => e.status === 'unchanged')).toBe(
        true,
      );
      expect(c.document.changed).toBe(false);
    }
  });

  it('a deleted preference is removed, and appears in the discarded list of the step it follows', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'prefer: Cite sources\nprefer: Short sentences');
    await h.turn(actor, root, 'append: More.');
    const [cite] = (await getWorkspace(h.deps, actor, { threadId: root })).preferences;
    // A manual deletion between turns 2 and 3 belongs to step 2.
    await deletePreference(h.deps, actor, { threadId: root, preferenceId: cite!.id });
    await h.turn(actor, root, 'append: Even more.');

    const step2 = await getStepChanges(h.deps, actor, { threadId: root, turn: 2 });
    expect(step2.preferences.find((p) => p.key === cite!.key)).toMatchObject({
      status: 'removed',
      a: { text: 'Cite sources', locked: false },
      b: null,
    });
    expect(step2.discarded).toEqual([
      { kind: 'preference', key: cite!.key, text: 'Cite sources', locked: false, by: 'person' },
    ]);
    const step3 = await getStepChanges(h.deps, actor, { threadId: root, turn: 3 });
    expect(step3.discarded).toEqual([]);
    expect(step3.preferences.every((p) => p.status === 'unchanged')).toBe(true);

    // The live workspace, snapshots and the restore rule are unchanged: step 1 still has it.
    const step1 = await getRestoreView(h.deps, actor, { threadId: root, turn: 1 });
    expect(step1.workspace.preferences.map((p) => p.text)).toEqual(['Cite sources', 'Short sentences']);

    const graph = await getFamilyGraph(h.deps, actor, { threadId: root });
    const byTurn = new Map(graph.nodes.map((n) => [n.turn_index, n]));
    expect(byTurn.get(2)!.discarded_count).toBe(1);
    expect(byTurn.get(2)!.change_summary).toMatchObject({ items_removed: 1 });
    expect(byTurn.get(1)!.change_summary).toEqual({
      words_added: 0,
      words_removed: 0,
      items_added: 2,
      items_removed: 0,
      items_edited: 0,
    });
  });

  it('names, for each removed item, the step of the other path that deleted it (null when that path never held it)', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'prefer: Cite sources\nprefer: Short sentences\ntodo: Outline\ntodo: Intro');
    await h.turn(actor, root, 'todo: Root only');
    const { thread_id: branch } = await createBranch(h.deps, actor, { threadId: root, from_turn: 1 });
    await h.turn(actor, branch, 'append: Branch text.');
    const onBranch = await getWorkspace(h.deps, actor, { threadId: branch });
    const cite = onBranch.preferences.find((p) => p.text === 'Cite sources')!;
    const intro = onBranch.todos.find((t) => t.text === 'Intro')!;
    // Deleted by hand: "Cite sources" after the branch's step 2, "Intro" after its step 3.
    await deletePreference(h.deps, actor, { threadId: branch, preferenceId: cite.id });
    await h.turn(actor, branch, 'append: More.');
    await deleteTodo(h.deps, actor, { threadId: branch, todoId: intro.id });
    // The root deletes its own copy of "Short sentences" after its step 2.
    const short = (await getWorkspace(h.deps, actor, { threadId: root })).preferences.find(
      (p) => p.text === 'Short sentences',
    )!;
    await deletePreference(h.deps, actor, { threadId: root, preferenceId: short.id });

    const c = await compareSteps(h.deps, actor, { threadId: root, a: node(root, 2), b: node(branch, 3) });
    const step2 = { node_id: `${branch}:2`, label: c.b.label.replace(/^3/, '2') };
    expect(c.b).toEqual({ node_id: `${branch}:3`, label: expect.stringMatching(/^3\.\d+$/) });
    expect(c.preferences.map((p) => [p.a?.text ?? p.b?.text, p.status, p.removed_at, p.removed_by])).toEqual([
      ['Cite sources', 'removed', step2, 'person'],
      ['Short sentences', 'added', null, null],
    ]);
    expect(c.todos.map((t) => [t.a?.text ?? t.b?.text, t.status, t.removed_at, t.removed_by])).toEqual([
      ['Outline', 'unchanged', null, null],
      ['Intro', 'removed', c.b, 'person'],
      // Added on the root after the fork: the branch never held it, so nothing of the branch removed it.
      ['Root only', 'removed', null, null],
    ]);
    // The other way round, the root's own deletion is named, and the branch's are not removals.
    const back = await compareSteps(h.deps, actor, {
      threadId: branch,
      a: node(branch, 3),
      b: node(root, 2),
    });
    expect(
      back.preferences.filter((p) => p.status === 'removed').map((p) => [p.a!.text, p.removed_at]),
    ).toEqual([['Short sentences', { node_id: `${root}:2`, label: '2' }]]);
    expect(back.todos.every((t) => t.removed_at === null)).toBe(true);
    // An earlier step of the branch, before the deletions, holds both items: nothing removed.
    const early = await compareSteps(h.deps, actor, { threadId: root, a: node(root, 1), b: node(branch, 2) });
    expect(early.preferences.find((p) => p.key === cite.key)).toMatchObject({
      status: 'removed',
      removed_at: step2,
    });
    expect(early.todos.find((t) => t.key === intro.key)).toMatchObject({
      status: 'unchanged',
      removed_at: null,
    });
    // "What changed" at the deleting step names that same step.
    const changes = await getStepChanges(h.deps, actor, { threadId: branch, turn: 2 });
    expect(changes.preferences.find((p) => p.key === cite.key)!.removed_at).toEqual(step2);
  });

  it('counts manual edits between turns toward the step they follow', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'prefer: Cite sources');
    const [pref] = (await getWorkspace(h.deps, actor, { threadId: root })).preferences;
    await updatePreference(h.deps, actor, {
      threadId: root,
      preferenceId: pref!.id,
      patch: { text: 'Cite every source' },
    });
    // At the tip, step 1 already shows the edit (live rows)...
    const tip = await getStepChanges(h.deps, actor, { threadId: root, turn: 1 });
    expect(tip.preferences).toMatchObject([{ status: 'added', b: { text: 'Cite every source' } }]);
    await h.turn(actor, root, 'append: Text.');
    // ...and after the next turn (snapshot 2 absorbed it), step 1 still does and step 2 does not.
    const step1 = await getStepChanges(h.deps, actor, { threadId: root, turn: 1 });
    expect(step1.preferences).toMatchObject([{ status: 'added', b: { text: 'Cite every source' } }]);
    const step2 = await getStepChanges(h.deps, actor, { threadId: root, turn: 2 });
    expect(step2.preferences).toMatchObject([{ status: 'unchanged' }]);
  });

  it('still compares old snapshots without keys, matching their items by text', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'prefer: Cite sources\ntodo: Outline');
    await h.turn(actor, root, 'done: Outline');
    await h.turn(actor, root, 'append: x');
    // Snapshot 2 (the state after step 1) as written before item keys existed.
    await h.deps.db.execute(sql`
      update workspace_snapshots set preferences = '[{"text":"Cite sources","locked":false}]'::jsonb,
        todos = '[{"text":"Outline","done":false}]'::jsonb
      where thread_id = ${root} and turn_index = 2`);
    const c = await compareSteps(h.deps, actor, { threadId: root, a: node(root, 1), b: node(root, 3) });
    const live = await getWorkspace(h.deps, actor, { threadId: root });
    expect(c.preferences).toEqual([
      {
        key: live.preferences[0]!.key,
        status: 'unchanged',
        changes: [],
        a: { text: 'Cite sources', locked: false },
        b: { text: 'Cite sources', locked: false },
        removed_at: null,
        removed_by: null,
      },
    ]);
    expect(c.todos).toMatchObject([{ key: live.todos[0]!.key, status: 'edited', changes: ['done'] }]);
    const view = await getRestoreView(h.deps, actor, { threadId: root, turn: 1 });
    expect(view.workspace.preferences[0]!.key).toBeNull();
  });

  it('404 for a node outside the family or beyond its thread, 403 for someone else’s family, 422 for a malformed node id', async () => {
    const owner = await h.newUser();
    const stranger = await h.newUser();
    const { root } = await twoPaths(owner);
    const other = await h.newConversation(owner);
    await expectCode(
      compareSteps(h.deps, owner, { threadId: root, a: node(root, 1), b: node(other, 0) }),
      'not_found',
    );
    await expectCode(
      compareSteps(h.deps, owner, { threadId: root, a: node(root, 1), b: node(root, 9) }),
      'not_found',
    );
    await expectCode(
      compareSteps(h.deps, owner, { threadId: root, a: node('th_' + 'f'.repeat(32), 0), b: node(root, 1) }),
      'not_found',
    );
    await expectCode(
      compareSteps(h.deps, stranger, { threadId: root, a: node(root, 1), b: node(root, 2) }),
      'forbidden',
    );
    for (const bad of ['', 'x', `${root}`, `${root}:-1`, `${root}:a`])
      expect(NodeIdParamSchema.safeParse(bad).success).toBe(false);
    await expectCode(getStepChanges(h.deps, owner, { threadId: root, turn: 0 }), 'not_found');
    await expectCode(getStepChanges(h.deps, stranger, { threadId: root, turn: 1 }), 'forbidden');
  });
});

describe('the step change summary', () => {
  it('is stored after the turn answers, and a graph read the moment `done` arrives already shows it', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    const events = await collect(
      await sendTurn(h.deps, actor, {
        threadId: root,
        content: 'doc: # Bees\n\nBees dance to point at flowers.',
      }),
    );
    expect(events.at(-1)?.event).toBe('done');
    // No wait for the summary here: the graph of this process waits for the one it is still storing.
    const graph = await getFamilyGraph(h.deps, actor, { threadId: root });
    expect(graph.nodes.find((n) => n.turn_index === 1)!.change_summary).toMatchObject({
      words_added: 8,
      words_removed: 0,
    });
    const [stored] = await h.deps.db.execute<{ words_added: number }>(
      sql`select words_added from step_changes where thread_id = ${root} and turn_index = 1`,
    );
    expect(stored?.words_added).toBe(8);
  });
});
