// The research dataset of a family with branches, an edit sibling, an apply, a discarded
// item and an interrupted reply, read back as a researcher would: unzip, parse each CSV, check it
// against the package's own schemas, rebuild the tree and the documents.
import { parse } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_TABLES, NodeIdParamSchema, applyDocPatch, validateDataset, type DocPatch } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { collect } from '../testing/test-harness';
import { applyItems } from '../apply/apply-items';
import { createBranch } from '../branching/create-branch';
import { getRestoreView } from '../branching/get-restore-view';
import { getFamilyGraph } from '../graph/get-family-graph';
import { editTurn } from '../siblings/edit-turn';
import { sendTurn } from '../turns/send-turn';
import { getWorkspace } from '../workspace/get-workspace';
import { exportDataset } from './export-dataset';
import { deleteConversation } from '../conversations/delete-conversation';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

type Tables = Record<string, Record<string, string>[]>;

async function readPackage(stream: ReadableStream<Uint8Array>): Promise<{ files: Record<string, Uint8Array>; tables: Tables }> {
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  const files = unzipSync(bytes);
  const tables: Tables = {};
  for (const table of DATASET_TABLES) {
    const text = strFromU8(files[`${table.name}.csv`]!);
    tables[table.name] = parse<Record<string, string>>(text, { columns: true, skip_empty_lines: true });
  }
  return { files, tables };
}

async function family() {
  const actor = await h.newUser();
  const root = await h.newConversation(actor, 'Review');
  await h.turn(actor, root, 'doc: # Review\n\n## Findings\nBees dance.\nprefer: Plain words\ntodo: Outline');
  await h.turn(actor, root, 'append: A second paragraph.\nprefer: Short sentences');
  const branch = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
  await h.turn(actor, branch, 'append: The branch says more.');
  const edited = (await editTurn(h.deps, actor, { threadId: root, turn: 2, content: 'append: An edited second step.' })).thread_id;
  await h.turn(actor, edited, 'append: An edited second step.');
  // The root's "Short sentences" preference discarded by the agent, then an apply from the branch.
  await h.turn(actor, root, 'done: Outline');
  const live = await getWorkspace(h.deps, actor, { threadId: root });
  await applyItems(h.deps, actor, {
    threadId: root,
    source: NodeIdParamSchema.parse(`${branch}:2`),
    items: [{ kind: 'document' }],
  });
  // An interrupted reply: the person stopped it before it began.
  const stop = new AbortController();
  stop.abort();
  await collect(await sendTurn(h.deps, actor, { threadId: root, content: 'stopped at once', signal: stop.signal }));
  return { actor, root, branch, edited, live };
}

describe('the research dataset', () => {
  it('has every table, valid against its own schemas, with foreign keys that resolve', async () => {
    const { actor, root } = await family();
    const dataset = await exportDataset(h.deps, actor, { threadId: root });
    expect(dataset.filename).toBe('Review dataset.zip');
    const { files, tables } = await readPackage(dataset.stream);
    const descriptor = JSON.parse(strFromU8(files['datapackage.json']!)) as { resources: { name: string; path: string; schema: { fields: { name: string }[] } }[] };
    expect(descriptor.resources.map((r) => r.name)).toEqual(DATASET_TABLES.map((t) => t.name));
    for (const resource of descriptor.resources) {
      const header = strFromU8(files[resource.path]!).split('\n')[0];
      expect(header).toBe(resource.schema.fields.map((f) => f.name).join(','));
    }
    expect(validateDataset(tables)).toEqual([]);
    for (const name of ['families', 'paths', 'steps', 'messages', 'tool_calls', 'changes', 'items', 'applies', 'edges']) {
      expect(tables[name]!.length, name).toBeGreaterThan(0);
    }
    expect(tables.messages!.some((m) => m.status === 'interrupted')).toBe(true);
    expect(tables.paths!.some((p) => p.reason === 'edit')).toBe(true);
    expect(tables.applies).toHaveLength(1);
    expect(tables.changes!.some((c) => c.actor === 'agent' && c.via === 'agent_tool')).toBe(true);
    expect(tables.steps!.some((s) => Number(s.agent_words) > 0)).toBe(true);
  });

  it('the tree rebuilt from steps.parent_step_id is the graph’s, and the change log replays to each path’s document', async () => {
    const { actor, root, branch, edited } = await family();
    const { tables } = await readPackage((await exportDataset(h.deps, actor, { threadId: root })).stream);
    const graph = await getFamilyGraph(h.deps, actor, { threadId: root });
    const treeEdges = graph.edges.filter((e) => e.kind === 'turn' || e.kind === 'branch').map((e) => `${e.source}->${e.target}`).sort();
    const rebuilt = tables.steps!.filter((s) => s.parent_step_id !== '').map((s) => `${s.parent_step_id}->${s.step_id}`).sort();
    expect(rebuilt).toEqual(treeEdges);
    // The edges table is the graph's edges: the tree's, then the apply's from its source.
    const edges = tables.edges!.map((e) => `${e.source_step_id}->${e.target_step_id}:${e.kind}`).sort();
    expect(edges).toEqual(graph.edges.map((e) => `${e.source}->${e.target}:${e.kind}`).sort());
    expect(tables.tool_calls!.every((t) => tables.messages!.some((m) => m.message_id === t.message_id && m.step_id === t.step_id))).toBe(true);
    expect(tables.steps!.map((s) => s.step_id).sort()).toEqual(graph.nodes.map((n) => n.id).sort());

    // Each path's document: its ancestors' document changes up to its branch point, then its own.
    const paths = new Map(tables.paths!.map((p) => [p.path_id, p]));
    for (const threadId of [root, branch, edited]) {
      const chain: { path: string; upTo: number }[] = [];
      for (let p = paths.get(threadId), upTo = Infinity; p; ) {
        chain.unshift({ path: p.path_id!, upTo });
        upTo = p.branch_point === '' ? Infinity : Number(p.branch_point);
        p = p.parent_path_id === '' ? undefined : paths.get(p.parent_path_id);
      }
      let text = '';
      for (const { path, upTo } of chain) {
        for (const change of tables.changes!.filter((c) => c.path_id === path && c.kind === 'document')) {
          const step = change.step_id ?? '';
          const turn = step === '' ? 0 : Number(step.slice(step.lastIndexOf(':') + 1));
          if (turn > upTo) continue;
          text = applyDocPatch(text, (JSON.parse(change.after!) as { patch: DocPatch }).patch);
        }
      }
      expect(text, threadId).toBe((await getWorkspace(h.deps, actor, { threadId })).document.content);
    }
    // A step's items are the restore view's after that step.
    const view = await getRestoreView(h.deps, actor, { threadId: root, turn: 1 });
    const items = tables.items!.filter((i) => i.step_id === `${root}:1` && i.kind === 'preference').map((i) => i.text);
    expect(items).toEqual(view.workspace.preferences.map((p) => p.text));
  });

  it('pseudonymised, holds no email and no user id; someone else’s family is refused', async () => {
    const { actor, root } = await family();
    const { files } = await readPackage((await exportDataset(h.deps, actor, { threadId: root, pseudonymize: true })).stream);
    const all = Object.values(files).map((bytes) => strFromU8(bytes)).join('\n');
    expect(all).not.toContain(actor.userId);
    expect(all).not.toMatch(/@example\.test/);
    const stranger = await h.newUser();
    await expect(exportDataset(h.deps, stranger, { threadId: root })).rejects.toMatchObject({ code: 'forbidden' });
    // The caller's own export of every family holds this one, and nothing of the stranger's.
    const mine = await readPackage((await exportDataset(h.deps, actor, {})).stream);
    expect(mine.tables.families!.map((f) => f.family_id)).toContain(root);
  });

  it('leaves deleted families out entirely, and a deleted branch too unless a live path inherits from it', async () => {
    const actor = await h.newUser();
    const kept = await h.newConversation(actor, 'Kept family');
    await h.turn(actor, kept, 'doc: # Kept\n\nKEPT-TEXT');
    const gone = await h.newConversation(actor, 'Deleted family');
    await h.turn(actor, gone, 'doc: # Gone\n\nDELETED-FAMILY-TEXT');
    const deletedBranch = (await createBranch(h.deps, actor, { threadId: kept, from_turn: 1 })).thread_id;
    await h.turn(actor, deletedBranch, 'append: DELETED-BRANCH-TEXT');
    // A deleted middle path that a live branch still inherits from stays (its turns are that branch's).
    const middle = (await createBranch(h.deps, actor, { threadId: kept, from_turn: 1 })).thread_id;
    await h.turn(actor, middle, 'append: INHERITED-TEXT');
    const child = (await createBranch(h.deps, actor, { threadId: middle, from_turn: 2 })).thread_id;
    await deleteConversation(h.deps, actor, { threadId: gone });
    await deleteConversation(h.deps, actor, { threadId: deletedBranch });
    await deleteConversation(h.deps, actor, { threadId: middle });
    for (const threadId of [undefined, kept]) {
      const { files, tables } = await readPackage((await exportDataset(h.deps, actor, threadId ? { threadId } : {})).stream);
      const all = Object.values(files).map((bytes) => strFromU8(bytes)).join('\n');
      expect(all).not.toContain(gone);
      expect(all).not.toContain('DELETED-FAMILY-TEXT');
      expect(all).not.toContain(deletedBranch);
      expect(all).not.toContain('DELETED-BRANCH-TEXT');
      expect(all).toContain('KEPT-TEXT');
      expect(all).toContain('INHERITED-TEXT');
      expect(tables.paths!.map((p) => p.path_id).sort()).toEqual([kept, middle, child].sort());
    }
  });
});
