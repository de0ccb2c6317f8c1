import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { createBranch } from '../branching/create-branch';
import { updateConversation } from '../conversations/update-conversation';
import { patchWorkspace } from '../workspace/patch-workspace';
import { exportFamilyZip, exportPathMarkdown } from './export-markdown';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

describe('Markdown export', () => {
  it('has every step of the displayed path in order, with labels, then the final workspace', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'objective: A field guide to bees');
    await h.turn(actor, root, 'todo: outline\n  todo: intro\nprefer: short sentences');
    await h.turn(actor, root, 'This stays on the root only');
    const branch = (await createBranch(h.deps, actor, { threadId: root, from_turn: 2 })).thread_id;
    await h.turn(actor, branch, 'doc: # Bees\n\nThey dance.');
    await h.turn(actor, branch, 'done: outline');
    await patchWorkspace(h.deps, actor, { threadId: branch, patch: { document: { title: 'Bee guide' } } });

    const file = await exportPathMarkdown(h.deps, actor, { threadId: branch });
    expect(file.contentType).toBe('text/markdown; charset=utf-8');
    expect(file.filename).toBe('# Bees.md');
    const md = file.body as string;
    const headings = [...md.matchAll(/^## Step (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['1', '2', '3.1', '4.1']);
    expect(md).not.toContain('This stays on the root only');
    const order = ['> objective: A field guide to bees', '> todo: outline', '> doc: # Bees', '> done: outline', '## Final workspace'];
    const at = order.map((needle) => md.indexOf(needle));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(md).toMatch(/- Tool `set_objective`: .*A field guide to bees/);
    const workspace = md.slice(md.indexOf('## Final workspace'));
    expect(workspace).toContain('### Objective\n\nA field guide to bees');
    expect(workspace).toContain('### Document: Bee guide\n\n# Bees\n\nThey dance.');
    expect(workspace).toContain('- short sentences');
    expect(workspace).toContain('- [x] outline\n  - [ ] intro');
  });

  it('the family zip holds one Markdown file per path and the graph as Mermaid', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'Bees');
    await h.turn(actor, root, 'More bees');
    const one = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
    await h.turn(actor, one, 'Wasps instead');
    const two = (await createBranch(h.deps, actor, { threadId: root, from_turn: 0 })).thread_id;
    await h.turn(actor, two, 'Ants from the start');
    const archived = (await createBranch(h.deps, actor, { threadId: root, from_turn: 2 })).thread_id;
    await h.turn(actor, archived, 'Put away');
    await updateConversation(h.deps, actor, { threadId: archived, archived: true });

    const file = await exportFamilyZip(h.deps, actor, { threadId: one });
    expect(file.contentType).toBe('application/zip');
    expect(file.filename).toBe('Wasps instead family.zip');
    const entries = unzipSync(file.body as Uint8Array);
    expect(Object.keys(entries).sort()).toEqual(['01 Bees.md', '02 Wasps instead.md', '03 Ants from the start.md', 'family-graph.mmd']);
    expect(strFromU8(entries['02 Wasps instead.md']!)).toContain('## Step 2.1');
    expect(strFromU8(entries['family-graph.mmd']!)).toMatch(/^flowchart/);
  });

  it('someone else cannot export a path', async () => {
    const actor = await h.newUser();
    const stranger = await h.newUser();
    const root = await h.newConversation(actor);
    await expect(exportPathMarkdown(h.deps, stranger, { threadId: root })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(exportFamilyZip(h.deps, stranger, { threadId: root })).rejects.toMatchObject({ code: 'forbidden' });
  });
});
