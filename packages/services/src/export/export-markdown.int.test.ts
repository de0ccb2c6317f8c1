import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { createBranch } from '../branching/create-branch';
import { updateConversation } from '../conversations/update-conversation';
import { patchWorkspace } from '../workspace/patch-workspace';
import { exportFamilyZip, exportPathMarkdown } from './export-markdown';
import { exportDocument } from './export-document';
import mammoth from 'mammoth';
import { getRestoreView } from '../branching/get-restore-view';
import { getWorkspace } from '../workspace/get-workspace';
import { readDocumentPieces } from '../workspace/read-document-pieces';
import { documentToMarkdown } from '@trellis/domain';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe('Markdown export', () => {
  it('opens with the document, then every step of the displayed path in order, with labels, then the workspace', async () => {
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
    expect(file.filename).toBe('Bees.md');
    const md = file.body as string;
    expect(md.startsWith('# Bees\n\nThey dance.\n\n## How this document was made\n')).toBe(true);
    const headings = [...md.matchAll(/^### Step (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['1', '2', '3.1', '4.1']);
    expect(md).not.toContain('This stays on the root only');
    const order = ['## How this document was made', '> objective: A field guide to bees', '> todo: outline', '> doc: # Bees', '> done: outline', '## Workspace'];
    const at = order.map((needle) => md.indexOf(needle));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(md).toMatch(/- Tool `set_objective`: .*A field guide to bees/);
    const workspace = md.slice(md.indexOf('## Workspace'));
    expect(workspace).toContain('### Objective\n\nA field guide to bees');
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
    const entries = unzipSync(await bytesOf(file.stream));
    expect(Object.keys(entries).sort()).toEqual(['Ants from the start.md', 'Bees.md', 'Wasps instead.md', 'family-graph.mmd']);
    expect(strFromU8(entries['Wasps instead.md']!)).toContain('### Step 2.1');
    expect(strFromU8(entries['Wasps instead.md']!).startsWith('# Wasps instead\n')).toBe(true);
    expect(strFromU8(entries['family-graph.mmd']!)).toMatch(/^flowchart/);
  });

  it('writes a large document, read in pieces, as the whole would be written: characters and a code fence across the pieces', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Large');
    // Two-, three- and four-byte characters in every line, so the pieces' byte boundaries fall inside
    // characters; a fence opened in one piece hides a heading in the next; headings to nest throughout.
    const lines = Array.from({ length: 3000 }, (_, i) => (i % 400 === 0 ? `# Part ${i}` : `Line ${i}: é 証拠 😀 ${'word '.repeat(8)}`));
    lines.splice(1480, 0, '```', ...Array.from({ length: 300 }, (_, i) => (i === 150 ? '# inside the fence' : `code ${i} 証`)), '```');
    const content = `\n${lines.join('\n')}\n\n`;
    const bytesBefore = (text: string) => Buffer.byteLength(content.slice(0, content.indexOf(text)));
    expect(bytesBefore('```')).toBeLessThan(3 * 32 * 1024);
    expect(bytesBefore('# inside the fence')).toBeGreaterThan(3 * 32 * 1024);
    await patchWorkspace(h.deps, actor, { threadId: root, patch: { document: { content } } });

    const pieces = await readDocumentPieces(h.deps.db, root);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join('')).toBe((await getWorkspace(h.deps, actor, { threadId: root })).document.content);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(32 * 1024);

    const entries = unzipSync(await bytesOf((await exportFamilyZip(h.deps, actor, { threadId: root })).stream));
    const whole = documentToMarkdown({ pathTitle: 'Large', document: { title: '', content } }).trimEnd();
    expect(whole).toContain('## Part 400');
    expect(whole).toContain('\n# inside the fence\n');
    expect(strFromU8(entries['Large.md']!).startsWith(`${whole}\n\n## How this document was made\n`)).toBe(true);
    expect(strFromU8(entries['Large.md']!)).toBe((await exportPathMarkdown(h.deps, actor, { threadId: root })).body);
  });

  it('reads a document that opens with a byte order mark with the mark, and no pieces for an empty one', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    expect(await readDocumentPieces(h.deps.db, root)).toEqual([]);
    await patchWorkspace(h.deps, actor, { threadId: root, patch: { document: { content: '\uFEFFText' } } });
    expect(await readDocumentPieces(h.deps.db, root)).toEqual(['\uFEFFText']);
  });

  it('names zip entries uniquely when paths share a title', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, '## 3. Findings on the same thing');
    const a = (await createBranch(h.deps, actor, { threadId: root, from_turn: 0 })).thread_id;
    await h.turn(actor, a, '## 3. Findings on the same thing');
    const entries = Object.keys(unzipSync(await bytesOf((await exportFamilyZip(h.deps, actor, { threadId: root })).stream))).sort();
    expect(entries).toEqual(['3. Findings on the same thing (2).md', '3. Findings on the same thing.md', 'family-graph.mmd']);
  });

  it('someone else cannot export a path', async () => {
    const actor = await h.newUser();
    const stranger = await h.newUser();
    const root = await h.newConversation(actor);
    await expect(exportPathMarkdown(h.deps, stranger, { threadId: root })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(exportFamilyZip(h.deps, stranger, { threadId: root })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(exportDocument(h.deps, stranger, { threadId: root, format: 'docx' })).rejects.toMatchObject({ code: 'forbidden' });
  });
});

describe('Document export', () => {
  const body = '# Review\n\n## 1. Scope\n\nWe read **twelve** studies.\n\n- design\n  - sample size\n- measures\n\n| Study | N |\n| --- | --- |\n| A | 40 |\n';

  it('part=document is the live document and nothing else; turn=k is the restore view\'s document', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, `doc: ${body}`);
    await h.turn(actor, root, 'append: A later paragraph.');
    const live = await exportDocument(h.deps, actor, { threadId: root, format: 'markdown' });
    const workspace = await getWorkspace(h.deps, actor, { threadId: root });
    expect(live.body).toBe(`${workspace.document.content.trim()}\n`);
    expect(live.filename).toBe('Review.md');
    const first = await exportDocument(h.deps, actor, { threadId: root, format: 'markdown', turn: 1 });
    const view = await getRestoreView(h.deps, actor, { threadId: root, turn: 1 });
    expect(first.body).toBe(`${view.workspace.document.content.trim()}\n`);
    expect(first.body).not.toContain('A later paragraph');
    await expect(exportDocument(h.deps, actor, { threadId: root, format: 'markdown', turn: 9 })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('format=docx is a Word file whose headings, list nesting and table cells match the Markdown', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor);
    await h.turn(actor, root, `doc: ${body}`);
    const file = await exportDocument(h.deps, actor, { threadId: root, format: 'docx' });
    expect(file.filename).toBe('Review.docx');
    expect(file.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    if (!('stream' in file)) throw new Error('a Word export streams');
    const { value, messages } = await mammoth.convertToHtml({ buffer: Buffer.from(await bytesOf(file.stream)) });
    expect(messages).toEqual([]);
    expect(value).toContain('<h1>Review</h1><h2>1. Scope</h2><p>We read <strong>twelve</strong> studies.</p>');
    expect(value).toContain('<ul><li>design<ul><li>sample size</li></ul></li><li>measures</li></ul>');
    expect(value).toContain('<td><p>A</p></td><td><p>40</p></td>');
  });
});
