// Two people typing in one document while the agent appends, through the collaboration path:
// each editor is a real CodeMirror state with the collab extension (as in the studio), pushing its
// unconfirmed updates and taking what the server answers; the agent writes with its document tool
// through the same write path. Whatever the interleaving, every confirmed edit of every party is in
// the final text, every editor ends on it, and it is what the change log replays to.
import { collab, getSyncedVersion, receiveUpdates, sendableUpdates } from '@codemirror/collab';
import { ChangeSet, EditorState } from '@codemirror/state';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyDocPatch,
  changeSetJsonToDocPatch,
  docPatchToChangeSetJson,
  type ChangeSetJson,
  type DocPatch,
  type DocumentUpdate,
  type DocumentUpdates,
} from '@trellis/domain';
import {
  connectAdmin,
  createStatementProbe,
  createTestDeps,
  newThread,
  newUser,
  prepareCheckpointer,
  type TestDeps,
} from '../testing/test-harness';
import { createDbWorkspacePort } from '../workspace/db-workspace-port';
import { acceptInvitation, createInvitation } from '../members/invitations';
import { patchWorkspace } from '../workspace/patch-workspace';
import { pullDocumentUpdates } from './pull-document-updates';
import { pushDocumentUpdates } from './push-document-updates';

const admin = connectAdmin();
let one: TestDeps;
let other: TestDeps;

beforeAll(async () => {
  await prepareCheckpointer();
  one = createTestDeps();
  other = createTestDeps();
});
afterAll(async () => {
  await Promise.all([one.close(), other.close()]);
  await admin.close();
});

/** One live editor as the studio runs it: a CodeMirror state, one push in flight at a time. */
class Editor {
  state: EditorState;
  inFlight: Promise<void> | null = null;
  constructor(
    readonly clientId: string,
    readonly deps: TestDeps,
    readonly actor: { userId: string },
    readonly threadId: string,
    doc: string,
    version: number,
    /** Says its text's length with each push, as the studio's editor does (the one-statement path). */
    readonly sendsLength = true,
  ) {
    this.state = EditorState.create({
      doc,
      extensions: [EditorState.lineSeparator.of('\n'), collab({ startVersion: version, clientID: clientId })],
    });
  }

  get text(): string {
    return this.state.doc.toString();
  }

  edit(changes: { from: number; to?: number; insert?: string }): void {
    this.state = this.state.update({ changes }).state;
  }

  receive(updates: readonly DocumentUpdate[]): void {
    const synced = getSyncedVersion(this.state);
    const fresh = updates.filter((u) => u.version > synced);
    if (fresh.length === 0) return;
    expect(fresh[0]!.version).toBe(synced + 1);
    this.state = receiveUpdates(
      this.state,
      fresh.map((u) => ({
        changes: ChangeSet.fromJSON(docPatchToChangeSetJson(u.patch, u.length)),
        clientID: u.client_id ?? '',
      })),
    ).state;
  }

  /** Starts a push of what is unconfirmed (unless one is in flight); the answer is taken when it comes. */
  push(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const sendable = sendableUpdates(this.state);
    if (sendable.length === 0) return Promise.resolve();
    const version = getSyncedVersion(this.state);
    const updates = sendable.map((u) => ({
      patch: changeSetJsonToDocPatch(u.changes.toJSON() as ChangeSetJson),
    }));
    this.inFlight = pushDocumentUpdates(this.deps, this.actor, {
      threadId: this.threadId,
      push: {
        version,
        client_id: this.clientId,
        ...(this.sendsLength && { length: sendable[0]!.changes.length }),
        updates,
      },
    }).then(
      (answer) => {
        this.inFlight = null;
        this.receive(answer.updates);
      },
      (error: unknown) => {
        this.inFlight = null;
        throw error;
      },
    );
    return this.inFlight;
  }

  async pull(): Promise<void> {
    const answer = await pullDocumentUpdates(this.deps, this.actor, {
      threadId: this.threadId,
      since: getSyncedVersion(this.state),
    });
    this.receive(answer.updates);
  }

  async settle(): Promise<void> {
    for (;;) {
      if (this.inFlight) await this.inFlight;
      if (sendableUpdates(this.state).length === 0) return;
      await this.push();
    }
  }
}

/** Where a token may go: the start, or right after a space or a line break (never inside a token). */
function boundaries(text: string): number[] {
  const out = [0];
  for (let i = 1; i <= text.length; i++) if (text[i - 1] === ' ' || text[i - 1] === '\n') out.push(i);
  return out;
}

/** The start of a whole token `token ` in the text, or -1. */
function tokenAt(text: string, token: string): number {
  for (let at = text.indexOf(`${token} `); at !== -1; at = text.indexOf(`${token} `, at + 1)) {
    if (at === 0 || text[at - 1] === ' ' || text[at - 1] === '\n') return at;
  }
  return -1;
}

async function replayLog(threadId: string): Promise<string> {
  const rows = await admin.db.execute<{ after: { patch: DocPatch } }>(
    sql`select after from workspace_changes where thread_id = ${threadId} and kind = 'document' order by seq`,
  );
  return rows.reduce((text, row) => applyDocPatch(text, row.after.patch), '');
}

/** The document as stored (a test's reference: read past every service). */
async function storedDocument(threadId: string): Promise<{ content: string; version: number } | undefined> {
  const [row] = await admin.db.execute<{ content: string; version: number }>(
    sql`select content, version from documents where thread_id = ${threadId}`,
  );
  return row;
}

type Command =
  | { kind: 'type'; who: 0 | 1; at: number }
  | { kind: 'delete'; who: 0 | 1; pick: number }
  | { kind: 'push'; who: 0 | 1 }
  | { kind: 'pull'; who: 0 | 1 }
  | { kind: 'agent' }
  | { kind: 'wait' };

const who = fc.constantFrom<0 | 1>(0, 1);
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('type' as const), who, at: fc.nat() }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), who, pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('push' as const), who }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('pull' as const), who }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'agent' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'wait' as const }), weight: 1 },
);

describe('two editors and the agent in one document', () => {
  it('keep every confirmed edit of every party, and the text is the change log’s replay', async () => {
    const ana = await newUser(admin);
    const ben = await newUser(admin);
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 5, maxLength: 30 }),
        fc.string({ maxLength: 12 }),
        async (commands, start) => {
          const seedText = start.replace(/[^a-z \n]/g, '');
          // Two people: the owner on one process and an editor she invited on the other; Ana's
          // editor says its text's length (pushes on the current version take one statement), Ben's
          // does not (every push takes the transaction path).
          const threadId = await newThread(one, ana);
          const invitation = await createInvitation(one.db, ana, { threadId, role: 'editor' });
          await acceptInvitation(other.db, ben, { token: invitation.url.split('/join/')[1]! });
          const seeded = await patchWorkspace(one, ana, {
            threadId,
            patch: { document: { content: seedText ? `${seedText} ` : '' } },
          });
          const editors = [
            new Editor(
              'editor-ana-0001',
              one,
              ana,
              threadId,
              seeded.document.content,
              seeded.document.version,
            ),
            new Editor(
              'editor-ben-0002',
              other,
              ben,
              threadId,
              seeded.document.content,
              seeded.document.version,
              false,
            ),
          ] as const;
          const agent = createDbWorkspacePort(one.db, { threadId, turnIndex: 0 });
          const written: string[][] = [[], []];
          const deleted = new Set<string>();
          const agentTokens: string[] = [];
          const running: Promise<void>[] = [];
          for (const c of commands) {
            if (c.kind === 'type') {
              const editor = editors[c.who];
              const spots = boundaries(editor.text);
              const token = `${c.who === 0 ? 'A' : 'B'}${written[c.who]!.length}`;
              editor.edit({ from: spots[c.at % spots.length]!, insert: `${token} ` });
              written[c.who]!.push(token);
            } else if (c.kind === 'delete') {
              const editor = editors[c.who];
              const mine = written[c.who]!.filter((t) => !deleted.has(t));
              const token = mine[c.pick % Math.max(mine.length, 1)];
              if (token === undefined) continue;
              const at = tokenAt(editor.text, token);
              expect(at).toBeGreaterThanOrEqual(0);
              editor.edit({ from: at, to: at + token.length + 1 });
              deleted.add(token);
            } else if (c.kind === 'push') {
              running.push(editors[c.who].push());
            } else if (c.kind === 'pull') {
              running.push(editors[c.who].pull());
            } else if (c.kind === 'agent') {
              const token = `G${agentTokens.length}`;
              agentTokens.push(token);
              running.push(agent.forToolCall!(`call_${token}`).appendDocument(`${token} `));
            } else {
              await Promise.all(running.splice(0));
            }
          }
          await Promise.all(running);
          for (const editor of editors) await editor.settle();
          for (const editor of editors) await editor.pull();

          const final = (await storedDocument(threadId))!;
          for (const editor of editors) {
            expect(editor.text).toBe(final.content);
            expect(getSyncedVersion(editor.state)).toBe(final.version);
          }
          const expected = [...written.flat(), ...agentTokens].filter((t) => !deleted.has(t));
          for (const token of expected)
            expect(
              tokenAt(final.content, token),
              `${token} in ${JSON.stringify(final.content)}`,
            ).toBeGreaterThanOrEqual(0);
          for (const token of deleted) expect(tokenAt(final.content, token)).toBe(-1);
          const tokens = final.content.split(/[ \n]+/).filter((t) => /^[ABG]\d+$/.test(t));
          expect(tokens.sort()).toEqual([...expected].sort());
          expect(await replayLog(threadId)).toBe(final.content);
        },
      ),
      { numRuns: 25 },
    );
  }, 240_000);

  it('drops the updates of a retried push that the server already accepted', async () => {
    const ana = await newUser(admin);
    const threadId = await newThread(one, ana);
    const push = {
      version: 0,
      client_id: 'editor-retry-01',
      updates: [{ patch: [{ i: 'Hello ' }] }, { patch: [{ r: 6 }, { i: 'world' }] }],
    };
    const first = await pushDocumentUpdates(one, ana, { threadId, push });
    expect(first.version).toBe(2);
    const again = await pushDocumentUpdates(other, ana, { threadId, push });
    expect(again.version).toBe(2);
    expect(again.updates.map((u) => u.version)).toEqual([1, 2]);
    expect(await replayLog(threadId)).toBe('Hello world');
    // The two updates of the push are one change of the log, spanning versions 0 → 2.
    const rows = await admin.db.execute<{ before: { version: number }; after: { version: number } }>(
      sql`select before, after from workspace_changes where thread_id = ${threadId} and kind = 'document'`,
    );
    expect(rows.map((r) => [r.before.version, r.after.version])).toEqual([[0, 2]]);
    // Read back, they are the two versions again: the whole patch first, then an empty one.
    const pulled = await pullDocumentUpdates(other, ana, { threadId, since: 0 });
    expect(pulled.updates).toEqual([
      { version: 1, client_id: 'editor-retry-01', length: 0, patch: [{ i: 'Hello world' }] },
      { version: 2, client_id: 'editor-retry-01', length: 11, patch: [] },
    ]);
  });

  it('takes updates on the current version in one statement, writing what the transaction path writes', async () => {
    const ana = await newUser(admin);
    const { probe, statementsOf } = await createStatementProbe(1);
    try {
      const seedText = 'First aim. Second aim. Third aim.';
      const [atOnce, inTransaction] = [await newThread(one, ana), await newThread(one, ana)];
      for (const threadId of [atOnce, inTransaction]) await patchWorkspace(one, ana, { threadId, patch: { document: { content: seedText } } });
      // A keystroke, a replacement with a deletion, two updates in one push, a deletion at the end.
      const pushes: { patches: DocPatch[] }[] = [
        { patches: [[{ r: 10 }, { i: ' Now' }]] },
        { patches: [[{ r: 15 }, { d: 6 }, { i: 'Next' }]] },
        { patches: [[{ i: '# Aims\n' }], [{ r: 7 }, { d: 5 }, { i: 'One' }]] },
        { patches: [[{ r: 36 }, { d: 3 }]] },
      ];
      const answers: Record<string, unknown[]> = { [atOnce]: [], [inTransaction]: [] };
      for (const threadId of [atOnce, inTransaction]) {
        let { content, version } = (await storedDocument(threadId))!;
        for (const { patches } of pushes) {
          let answer!: DocumentUpdates;
          const statements = await statementsOf(async () => {
            answer = await pushDocumentUpdates(probe, ana, {
              threadId,
              push: {
                version,
                client_id: 'editor-at-once-1',
                ...(threadId === atOnce && { length: content.length }),
                updates: patches.map((patch) => ({ patch })),
              },
            });
          });
          if (threadId === atOnce) expect(statements, 'one statement').toBe(1);
          else expect(statements).toBeGreaterThan(3);
          answers[threadId]!.push(answer);
          for (const patch of patches) content = applyDocPatch(content, patch);
          version = answer.version;
        }
      }
      expect(answers[atOnce]).toEqual(answers[inTransaction]);
      expect(await storedDocument(atOnce)).toEqual(await storedDocument(inTransaction));
      expect((await storedDocument(atOnce))!.content).toBe('# Aims\nOne aim. Now Next aim. Third .');
      const rows = async (threadId: string) =>
        admin.db.execute(sql`select seq, actor, actor_id, via, kind, key, op, before, after from workspace_changes
          where thread_id = ${threadId} order by seq`);
      expect(await rows(atOnce)).toEqual(await rows(inTransaction));
      expect(await replayLog(atOnce)).toBe((await storedDocument(atOnce))!.content);
      const events = async (threadId: string) =>
        admin.db.execute(sql`select kind, data from family_events where thread_id = ${threadId} order by id`);
      expect(await events(atOnce)).toEqual(await events(inTransaction));
    } finally {
      await probe.close();
    }
  });

  it('leaves to the transaction path what one statement cannot be sure of, and that path answers', async () => {
    const ana = await newUser(admin);
    const cleo = await newUser(admin);
    const { probe, statementsOf } = await createStatementProbe(2);
    try {
      const threadId = await newThread(one, ana);
      await patchWorkspace(one, ana, { threadId, patch: { document: { content: 'Plain text.' } } });
      const push = (version: number, length: number, patch: DocPatch, clientId = 'editor-decline-1') =>
        pushDocumentUpdates(probe, ana, { threadId, push: { version, client_id: clientId, length, updates: [{ patch }] } });
      // A length the document does not have: the transaction path takes the updates as they fit.
      expect(await statementsOf(() => push(1, 99, [{ r: 11 }, { i: ' More.' }]))).toBeGreaterThan(1);
      expect((await storedDocument(threadId))!.content).toBe('Plain text. More.');
      // A text with a character beyond the Basic Multilingual Plane (positions are UTF-16 units,
      // PostgreSQL counts code points): inserting one is sure, editing the text after it is not.
      expect(await statementsOf(() => push(2, 17, [{ r: 17 }, { i: ' 🌿' }]))).toBe(1);
      expect(await statementsOf(() => push(3, 20, [{ r: 20 }, { i: ' Leaf.' }]))).toBeGreaterThan(1);
      expect((await storedDocument(threadId))!.content).toBe('Plain text. More. 🌿 Leaf.');
      // … even when a client gives the length in code points, which PostgreSQL's count would match.
      expect(await statementsOf(() => push(4, 25, [{ i: 'So. ' }], 'editor-decline-5'))).toBeGreaterThan(1);
      expect((await storedDocument(threadId))!.content).toBe('So. Plain text. More. 🌿 Leaf.');
      // Another editor's push on an older version: rebased over what came since, by the transaction
      // path (at one place, the update accepted first comes first).
      expect(await statementsOf(() => push(3, 20, [{ i: 'Start. ' }], 'editor-decline-4'))).toBeGreaterThan(1);
      expect((await storedDocument(threadId))!.content).toBe('So. Start. Plain text. More. 🌿 Leaf.');
      // Someone who may not edit gets the transaction path's refusal, and nothing is written.
      const other = await newThread(one, ana);
      await expect(
        pushDocumentUpdates(probe, cleo, { threadId: other, push: { version: 0, client_id: 'editor-decline-2', length: 0, updates: [{ patch: [{ i: 'x' }] }] } }),
      ).rejects.toMatchObject({ code: 'forbidden' });
      expect((await storedDocument(other))!.version).toBe(0);
      // Another writer holding the thread's lock: the push waits for it instead of failing.
      const fresh = await newThread(one, ana);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = admin.sql.begin(async (tx) => {
        await tx`select 1 from conversations where thread_id = ${fresh} for no key update`;
        locked();
        await held;
        return { done: true };
      });
      await isLocked;
      let answered = false;
      const waiting = pushDocumentUpdates(probe, ana, {
        threadId: fresh,
        push: { version: 0, client_id: 'editor-decline-3', length: 0, updates: [{ patch: [{ i: 'Waited.' }] }] },
      }).then((answer) => ((answered = true), answer));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(answered).toBe(false);
      release();
      await holder;
      expect((await waiting).version).toBe(1);
      expect((await storedDocument(fresh))!.content).toBe('Waited.');
    } finally {
      await probe.close();
    }
  });

  it('hands a change’s updates to the live editors of another process without reading the log', async () => {
    const ana = await newUser(admin);
    const threadId = await newThread(one, ana);
    const subscription = await other.family.subscribe(threadId, null);
    const signals: unknown[] = [];
    subscription.onSignal((s) => signals.push(s));
    await pushDocumentUpdates(one, ana, {
      threadId,
      push: { version: 0, client_id: 'editor-signal-1', updates: [{ patch: [{ i: 'Hi' }] }] },
    });
    await expect.poll(() => signals.length, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(signals[0]).toEqual({
      event: 'document_updates',
      data: {
        thread_id: threadId,
        version: 1,
        updates: [{ version: 1, client_id: 'editor-signal-1', length: 0, patch: [{ i: 'Hi' }] }],
      },
    });
    subscription.end('closed');
  });
});
