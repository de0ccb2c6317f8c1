// One write path, versions (no lost edit) and the change log, against a real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDocPatch, type ChangesPage, type DocPatch, type DocumentConflictDetails } from '@trellis/domain';
import { createBranch } from '../branching/create-branch';
import { listChanges } from '../changes/list-changes';
import { expectCode } from '../testing/expect-code';
import { collect, connectAdmin, createStatementProbe, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';
import { sendTurn } from '../turns/send-turn';
import { createPreference } from './create-preference';
import { createDbWorkspacePort } from './db-workspace-port';
import { getWorkspace } from './get-workspace';
import { patchWorkspace } from './patch-workspace';
import { updatePreference } from './update-preference';
import { FAMILY_CHANNEL } from './publish-change';
import type { WorkspacePort } from '@trellis/agent';
import { writeWorkspace, type DocumentToolEdit } from './write-workspace';

const admin = connectAdmin();
let deps: TestDeps;

beforeAll(async () => {
  await prepareCheckpointer();
  deps = createTestDeps();
});
afterAll(async () => {
  await deps.close();
  await admin.close();
});

async function setUp() {
  const actor = await newUser(admin);
  const threadId = await newThread(deps, actor);
  return { actor, threadId };
}

async function changeRows(threadId: string) {
  return admin.sql<{ seq: number; actor: string; actor_id: string | null; via: string; kind: string; op: string; after: { version?: number; patch?: DocPatch } | null; turn: number }[]>`
    select seq, actor, actor_id, via, kind, op, after, turn from workspace_changes where thread_id = ${threadId} order by seq`;
}

/** The document a path's change log replays to, from empty. */
async function replayPath(actor: { userId: string }, threadId: string): Promise<string> {
  let text = '';
  let afterSeq = 0;
  for (;;) {
    const page: ChangesPage = await listChanges(deps, actor, { threadId, afterSeq, limit: 7 });
    for (const change of page.changes) {
      expect(change.seq).toBe(afterSeq + 1);
      afterSeq = change.seq;
      if (change.kind === 'document') text = applyDocPatch(text, (change.after as { patch: DocPatch }).patch);
    }
    if (!page.has_more) return text;
  }
}

describe('no lost edit', () => {
  it('the stale-copy repro: the agent appends in a turn, a save from the earlier copy merges (both kept)', async () => {
    const { actor, threadId } = await setUp();
    await patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'An opening paragraph by the person.' } } });
    const copy = await getWorkspace(deps, actor, { threadId });
    expect(copy.document.version).toBe(1);
    await collect(await sendTurn(deps, actor, { threadId, content: 'append: A paragraph the agent wrote.' }));
    const afterTurn = await getWorkspace(deps, actor, { threadId });
    expect(afterTurn.document.content).toBe('An opening paragraph by the person.\n\nA paragraph the agent wrote.');

    const saved = await patchWorkspace(deps, actor, {
      threadId,
      patch: { document: { content: 'An opening paragraph, edited by the person.', base_version: copy.document.version } },
    });
    expect(saved.document.content).toBe('An opening paragraph, edited by the person.\n\nA paragraph the agent wrote.');
    expect(saved.document.version).toBe(afterTurn.document.version! + 1);
    expect(await replayPath(actor, threadId)).toBe(saved.document.content);
  });

  it('two tabs edit the same words: the second save is a 409 with the current text and version, and nothing is overwritten', async () => {
    const { actor, threadId } = await setUp();
    const first = await patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'The cat sat on the mat.' } } });
    const base = first.document.version;
    await patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'The dog sat on the mat.', base_version: base } } });
    const error = await expectCode(
      patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'The bird sat on the mat.', base_version: base } } }),
      'conflict',
    );
    expect((error.details as DocumentConflictDetails).document).toEqual({ title: '', content: 'The dog sat on the mat.', version: base + 1 });
    // The merge view names who made the overlapped change: here the same person, in their other tab.
    expect((error.details as DocumentConflictDetails).changed_by).toEqual([{ kind: 'person', user_id: actor.userId, name: expect.any(String) }]);
    expect((await getWorkspace(deps, actor, { threadId })).document.content).toBe('The dog sat on the mat.');
    // Merged by hand and saved on the version the 409 named: accepted.
    const resolved = await patchWorkspace(deps, actor, {
      threadId,
      patch: { document: { content: 'The dog and the bird sat on the mat.', base_version: base + 1 } },
    });
    expect(resolved.document.content).toBe('The dog and the bird sat on the mat.');
  });

  it('a save overlapping the agent’s rewrite is a 409 naming the agent as the one who changed it', async () => {
    const { actor, threadId } = await setUp();
    await patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'First aim.' } } });
    const copy = await getWorkspace(deps, actor, { threadId });
    await collect(await sendTurn(deps, actor, { threadId, content: 'doc: First aim, rewritten.' }));
    const error = await expectCode(
      patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'First aim, by the person.', base_version: copy.document.version } } }),
      'conflict',
    );
    expect((error.details as DocumentConflictDetails).changed_by).toEqual([{ kind: 'agent', user_id: null, name: null }]);
  });

  it('an agent append during a person’s edit keeps both, whichever commits first', async () => {
    for (const order of ['agent first', 'person first', 'together'] as const) {
      const { actor, threadId } = await setUp();
      await patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'First line.' } } });
      const copy = await getWorkspace(deps, actor, { threadId });
      const port = createDbWorkspacePort(deps.db, { threadId, turnIndex: 0 }).forToolCall!('call_1');
      const person = () =>
        patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'First line, typed by the person.', base_version: copy.document.version } } });
      const agent = () => port.appendDocument('Appended by the agent.');
      if (order === 'agent first') await agent().then(person);
      else if (order === 'person first') await person().then(agent);
      else await Promise.all([person(), agent()]);
      const live = await getWorkspace(deps, actor, { threadId });
      expect(live.document.content, order).toBe('First line, typed by the person.\n\nAppended by the agent.');
      const rows = await changeRows(threadId);
      expect(rows.find((r) => r.actor === 'agent')).toMatchObject({ actor_id: 'call_1', via: 'agent_tool', kind: 'document', op: 'patch' });
    }
  });

  it('the agent’s document tools on the text its turn knows are one statement each, writing what the transaction path writes', async () => {
    const { probe, statementsOf } = await createStatementProbe(1);
    try {
      const { actor, threadId: atOnce } = await setUp();
      const inTransaction = await newThread(deps, actor);
      for (const threadId of [atOnce, inTransaction]) {
        await patchWorkspace(deps, actor, { threadId, patch: { document: { title: 'Brief', content: '# Aims\nFirst aim.\n\n# Notes\nA note.\n' } } });
      }
      // The turn's opening read, as a turn hands it to the port; the other thread takes the same
      // edits through the transaction path itself.
      const opening = await getWorkspace(deps, actor, { threadId: atOnce });
      const port = createDbWorkspacePort(probe.db, { threadId: atOnce, turnIndex: 0 }, { opening });
      const tools: [(port: WorkspacePort) => Promise<unknown>, DocumentToolEdit][] = [
        [(p) => p.appendDocument('Appended by the agent.'), { kind: 'document_append', text: 'Appended by the agent.' }],
        [(p) => p.replaceSection({ heading: 'Notes', content: 'A better note.' }), { kind: 'document_section', heading: 'Notes', content: 'A better note.' }],
        [(p) => p.replaceSection({ heading: 'Sources', content: 'A new section.' }), { kind: 'document_section', heading: 'Sources', content: 'A new section.' }],
        [(p) => p.replaceDocument({ title: 'Brief', content: '# Aims\nOne aim 🌿, rewritten.\n' }), { kind: 'document', title: 'Brief', content: '# Aims\nOne aim 🌿, rewritten.\n' }],
        // After a character beyond the Basic Multilingual Plane one statement cannot be sure of
        // positions: the transaction path writes it.
        [(p) => p.appendDocument('After the leaf.'), { kind: 'document_append', text: 'After the leaf.' }],
        // A title change is a second change row: the transaction path too.
        [(p) => p.replaceDocument({ title: 'Brief, retitled', content: 'Plain again.' }), { kind: 'document', title: 'Brief, retitled', content: 'Plain again.' }],
        [(p) => p.appendDocument('Known once more.'), { kind: 'document_append', text: 'Known once more.' }],
      ];
      const counts: number[] = [];
      for (const [i, [tool, edit]] of tools.entries()) {
        const callId = `call_${i + 1}`;
        counts.push(await statementsOf(() => tool(port.forToolCall!(callId))));
        const author = { actor: 'agent', actorId: callId, via: 'agent_tool' } as const;
        await writeWorkspace({ db: probe.db }, { threadId: inTransaction, author, edits: [edit] });
      }
      expect(counts.map((n) => (n > 3 ? 'transaction' : n)), 'one statement on the text it knows').toEqual([1, 1, 1, 1, 'transaction', 'transaction', 1]);

      const stored = async (threadId: string) => {
        const [document] = await admin.sql`select title, content, version from documents where thread_id = ${threadId}`;
        const changes = await admin.sql`select seq, turn, actor, actor_id, via, via_source, kind, key, op, before, after
          from workspace_changes where thread_id = ${threadId} order by seq`;
        const events = await admin.sql`select kind, data from family_events where thread_id = ${threadId} order by id`;
        return { document, changes, events };
      };
      const written = await stored(atOnce);
      expect(written).toEqual(await stored(inTransaction));
      expect(written.document).toMatchObject({ title: 'Brief, retitled', content: 'Plain again.\n\nKnown once more.' });
      expect(await replayPath(actor, atOnce)).toBe(written.document!.content);

      // A person's edit lands between two tool calls: the port's text is stale, the statement
      // declines (writing nothing), the transaction path appends after the person's text.
      await patchWorkspace(deps, actor, { threadId: atOnce, patch: { document: { content: 'The person rewrote it.' } } });
      expect(await statementsOf(() => port.appendDocument('The agent, after the person.'))).toBeGreaterThan(3);
      expect((await getWorkspace(deps, actor, { threadId: atOnce })).document.content).toBe('The person rewrote it.\n\nThe agent, after the person.');
    } finally {
      await probe.close();
    }
  });

  it('a stale item edit applies when its fields were not changed since (field-level merge), else 409', async () => {
    const { actor, threadId } = await setUp();
    const pref = await createPreference(deps, actor, { threadId, preference: { text: 'Short sentences' } });
    expect(pref.version).toBe(1);
    const locked = await updatePreference(deps, actor, { threadId, preferenceId: pref.id, patch: { locked: true, base_version: 1 } });
    expect(locked.version).toBe(2);
    const reworded = await updatePreference(deps, actor, { threadId, preferenceId: pref.id, patch: { text: 'Very short sentences', base_version: 1 } });
    expect(reworded).toMatchObject({ text: 'Very short sentences', locked: true, version: 3 });
    const error = await expectCode(
      updatePreference(deps, actor, { threadId, preferenceId: pref.id, patch: { text: 'Long sentences', base_version: 2 } }),
      'conflict',
    );
    expect(error.details).toMatchObject({ item: { id: pref.id, text: 'Very short sentences', version: 3 } });
  });
});

describe('the change log', () => {
  it('20 concurrent writers on one thread leave a gapless seq and a document equal to replaying the log', async () => {
    const { actor, threadId } = await setUp();
    await patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'Start.' } } });
    const stale = await getWorkspace(deps, actor, { threadId });
    const port = createDbWorkspacePort(deps.db, { threadId, turnIndex: 0 });
    const writers = Array.from({ length: 20 }, (_, i) => {
      if (i % 4 === 0) return port.forToolCall!(`call_${i}`).appendDocument(`Agent paragraph ${i}.`);
      if (i % 4 === 1) return createPreference(deps, actor, { threadId, preference: { text: `Preference ${i}` } });
      if (i % 4 === 2) return port.addTodo({ text: `Todo ${i}`, depth: 0 });
      // A person saving from the stale copy: merged onto whatever landed, or refused — never lost.
      return patchWorkspace(deps, actor, {
        threadId,
        patch: { document: { content: `Start. Person sentence ${i}.`, base_version: stale.document.version } },
      }).catch((error: unknown) => error);
    });
    await Promise.all(writers);
    const rows = await changeRows(threadId);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    const live = await getWorkspace(deps, actor, { threadId });
    expect(await replayPath(actor, threadId)).toBe(live.document.content);
    for (const i of [0, 4, 8, 12, 16]) expect(live.document.content).toContain(`Agent paragraph ${i}.`);
    const bodyChanges = rows.filter((r) => r.kind === 'document');
    expect(live.document.version).toBe(bodyChanges.at(-1)!.after!.version);
    expect(live.preferences).toHaveLength(5);
    expect(live.todos).toHaveLength(5);
  });

  it('attributes each change: the step it belongs to, who made it and through what', async () => {
    const { actor, threadId } = await setUp();
    await patchWorkspace(deps, actor, { threadId, patch: { objective: 'Write a brief', document: { title: 'Brief' } } });
    await collect(await sendTurn(deps, actor, { threadId, content: 'append: Agent text.\ntodo: Check sources' }));
    await patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'Person text.' } } });
    const rows = await changeRows(threadId);
    expect(rows.map((r) => [r.turn, r.actor, r.via, r.kind, r.op])).toEqual([
      [0, 'person', 'editor', 'objective', 'set'],
      [0, 'person', 'editor', 'document_title', 'set'],
      [1, 'agent', 'agent_tool', 'document', 'patch'],
      [1, 'agent', 'agent_tool', 'todo', 'create'],
      [1, 'person', 'editor', 'document', 'patch'],
    ]);
    expect(rows[0]!.actor_id).toBe(actor.userId);
    expect(rows[2]!.actor_id).toEqual(expect.any(String));
  });

  it('a branch inherits its parent’s log up to its branch point, never later edits; its preview edits are its own', async () => {
    const { actor, threadId: parent } = await setUp();
    await collect(await sendTurn(deps, actor, { threadId: parent, content: 'doc: Parent text at step one.' }));
    await collect(await sendTurn(deps, actor, { threadId: parent, content: 'append: Step two text.' }));
    const branch = await createBranch(deps, actor, {
      threadId: parent,
      from_turn: 1,
      workspace: { document: { content: 'Parent text at step one, edited in the preview.' } },
    });
    // A later edit of the parent at a step ≤ 1 cannot exist; a later one at the tip must not leak in.
    await patchWorkspace(deps, actor, { threadId: parent, patch: { document: { content: 'Parent rewritten later.' } } });
    const child = branch.thread_id;
    const page = await listChanges(deps, actor, { threadId: child, limit: 100 });
    expect(page.changes.map((c) => [c.seq, c.thread_id === parent ? 'parent' : 'child', c.via])).toEqual([
      [1, 'parent', 'agent_tool'],
      [2, 'child', 'preview_edit'],
    ]);
    expect(page.changes[1]!.thread_seq).toBe(1);
    const live = await getWorkspace(deps, actor, { threadId: child });
    expect(live.document.content).toBe('Parent text at step one, edited in the preview.');
    expect(await replayPath(actor, child)).toBe(live.document.content);
    // The child's versions continue the path's count, so a save on the inherited version merges.
    expect(live.document.version).toBe(2);
    const merged = await patchWorkspace(deps, actor, {
      threadId: child,
      patch: { document: { content: 'Parent text at step one.\n\nA new paragraph.', base_version: 1 } },
    });
    expect(merged.document.content).toBe('Parent text at step one, edited in the preview.\n\nA new paragraph.');
    // Paging: a cursor past the inherited part reads only the child's own.
    const rest = await listChanges(deps, actor, { threadId: child, afterSeq: 1, limit: 1 });
    expect(rest).toMatchObject({ has_more: true, changes: [{ seq: 2 }] });
  });

  it('publishes each committed write on the family channel (and nothing for a refused one)', async () => {
    const { actor, threadId } = await setUp();
    const received: unknown[] = [];
    const listener = await admin.sql.listen(FAMILY_CHANNEL, (payload) => received.push(JSON.parse(payload)));
    try {
      await patchWorkspace(deps, actor, { threadId, patch: { objective: 'One', document: { content: 'Two' } } });
      await expectCode(patchWorkspace(deps, actor, { threadId, patch: { document: { content: 'x', base_version: 99 } } }), 'validation_failed');
      const ofThread = () => received.filter((p) => (p as { thread: string }).thread === threadId) as { kind: string }[];
      // The write path's own payload (with the document's new version for live editors), and the
      // family event the live stream replays by id.
      await expect.poll(() => ofThread().filter((p) => p.kind === 'change')).toEqual([
        {
          family: threadId,
          thread: threadId,
          seq: 2,
          kind: 'change',
          doc: { version: 1, updates: [{ version: 1, client_id: null, length: 0, patch: [{ i: 'Two' }] }] },
        },
      ]);
      await expect.poll(() => ofThread().filter((p) => p.kind === 'workspace_changed')).toHaveLength(1);
    } finally {
      await listener.unlisten();
    }
  });

  it('answers 404/403 for the changes of a thread that is not the caller’s', async () => {
    const { threadId } = await setUp();
    const stranger = await newUser(admin);
    await expectCode(listChanges(deps, stranger, { threadId }), 'forbidden');
    await expectCode(listChanges(deps, stranger, { threadId: 'th_00000000000000000000000000000000' }), 'not_found');
  });
});

describe('random interleavings (fast-check, real PostgreSQL)', () => {
  it('person saves on random stale bases, agent appends and section rewrites, item edits: the log replays to the document, seqs stay gapless, no clean merge loses an agent paragraph', async () => {
    const { default: fc } = await import('fast-check');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('person' as const), staleBy: fc.nat(3), word: fc.stringMatching(/^[a-z]{3,8}$/) }),
      fc.record({ kind: fc.constant('agent' as const), word: fc.stringMatching(/^[a-z]{3,8}$/) }),
      fc.record({ kind: fc.constant('section' as const), word: fc.stringMatching(/^[a-z]{3,8}$/) }),
      fc.record({ kind: fc.constant('item' as const), word: fc.stringMatching(/^[a-z]{3,8}$/) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 8 }), async (ops) => {
        const { actor, threadId } = await setUp();
        const port = createDbWorkspacePort(deps.db, { threadId, turnIndex: 0 });
        const seen: { version: number; content: string }[] = [{ version: 0, content: '' }];
        const agentParagraphs: string[] = [];
        for (const [i, step] of ops.entries()) {
          if (step.kind === 'person') {
            const base = seen[Math.max(0, seen.length - 1 - step.staleBy)]!;
            const content = `${base.content}${base.content ? ' ' : ''}Person ${step.word}${i}.`;
            try {
              const saved = await patchWorkspace(deps, actor, { threadId, patch: { document: { content, base_version: base.version } } });
              seen.push({ version: saved.document.version, content: saved.document.content });
            } catch (error) {
              expect((error as { code?: string }).code).toBe('conflict');
            }
          } else if (step.kind === 'agent') {
            const paragraph = `Agent ${step.word}${i}.`;
            agentParagraphs.push(paragraph);
            await port.forToolCall!(`call_${i}`).appendDocument(paragraph);
          } else if (step.kind === 'section') {
            await port.replaceSection({ heading: 'Notes', content: `Notes ${step.word}${i}.` });
          } else {
            await createPreference(deps, actor, { threadId, preference: { text: `Pref ${step.word}${i}` } });
          }
          const live = await getWorkspace(deps, actor, { threadId });
          seen.push({ version: live.document.version!, content: live.document.content });
        }
        const live = await getWorkspace(deps, actor, { threadId });
        const rows = await changeRows(threadId);
        expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
        expect(await replayPath(actor, threadId)).toBe(live.document.content);
        // A section rewrite may replace what was under its heading; appended paragraphs before the first one are kept.
        const firstSection = ops.findIndex((s) => s.kind === 'section');
        for (const paragraph of agentParagraphs.filter((p) => firstSection === -1 || Number(/\d+\.$/.exec(p)![0].slice(0, -1)) < firstSection)) {
          expect(live.document.content).toContain(paragraph);
        }
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
