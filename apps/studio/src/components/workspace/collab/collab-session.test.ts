import { history, undo } from '@codemirror/commands';
import { rebaseUpdates } from '@codemirror/collab';
import { ChangeSet, EditorSelection, EditorState, type Transaction } from '@codemirror/state';
import {
  applyDocPatch,
  changeSetJsonToDocPatch,
  docPatchToChangeSetJson,
  type ChangeSetJson,
  type DocumentUpdate,
  type DocumentUpdates,
  type PushDocumentUpdates,
} from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { CollabSession, type CollabHost } from './collab-session';

/** The server's ordering in memory: versions, rebasing of stale pushes, and its answers. */
class Authority {
  text = '';
  updates: DocumentUpdate[] = [];
  listeners: Array<(updates: DocumentUpdate[]) => void> = [];

  push(push: PushDocumentUpdates): DocumentUpdates {
    const since = this.updates.slice(push.version);
    let length = since[0]?.length ?? this.text.length;
    // The editor says its text's length at the version (the server's one-statement path checks it).
    expect(push.length, 'the length of the text at the version').toBe(length);
    let incoming = push.updates.map((u) => {
      const changes = ChangeSet.fromJSON(docPatchToChangeSetJson(u.patch, length));
      length = changes.newLength;
      return { changes, clientID: push.client_id };
    });
    incoming = [
      ...rebaseUpdates(
        incoming,
        since.map((u) => ({
          changes: ChangeSet.fromJSON(docPatchToChangeSetJson(u.patch, u.length)),
          clientID: u.client_id ?? '',
        })),
      ),
    ];
    const added = incoming.map((u) =>
      this.#append(changeSetJsonToDocPatch(u.changes.toJSON() as ChangeSetJson), push.client_id),
    );
    for (const listener of this.listeners) listener(added);
    return { version: this.updates.length, updates: this.updates.slice(push.version) };
  }

  /** The agent appends (no client id). */
  append(text: string): void {
    const added = [this.#append([{ r: this.text.length }, { i: text }], null)];
    for (const listener of this.listeners) listener(added);
  }

  pull(since: number): DocumentUpdates {
    return { version: this.updates.length, updates: this.updates.slice(since) };
  }

  #append(patch: DocumentUpdate['patch'], clientId: string | null): DocumentUpdate {
    const update = { version: this.updates.length + 1, client_id: clientId, length: this.text.length, patch };
    this.text = applyDocPatch(this.text, patch);
    this.updates.push(update);
    return update;
  }
}

class Host implements CollabHost {
  state: EditorState;
  constructor(state: EditorState) {
    this.state = state;
  }
  dispatch(transaction: Transaction): void {
    this.state = transaction.state;
  }
}

function editor(authority: Authority, id: string) {
  const session = new CollabSession(id, {
    push: async (push) => authority.push(push),
    pull: async (since) => authority.pull(since),
  });
  const host = new Host(
    EditorState.create({
      doc: authority.text,
      extensions: [history(), session.extension(authority.updates.length)],
    }),
  );
  session.attach(host);
  const type = (from: number, insert: string) => {
    host.dispatch(
      host.state.update({
        changes: { from, insert },
        selection: EditorSelection.cursor(from + insert.length),
        userEvent: 'input.type',
      }),
    );
    session.localEdit();
  };
  return { session, host, type };
}

describe('a live editor session', () => {
  it('two editors typing at once and the agent appending end on one text, each caret where its owner left it', async () => {
    const authority = new Authority();
    authority.append('First paragraph.\n\nSecond paragraph.\n\nThird paragraph.');
    const ana = editor(authority, 'editor-ana-0001');
    const ben = editor(authority, 'editor-ben-0002');
    await Promise.all([ana.session.pull(), ben.session.pull()]);
    authority.listeners.push((updates) => {
      ana.session.receive(updates);
      ben.session.receive(updates);
    });
    ana.type('First paragraph.'.length, ' Ana adds this.');
    ben.type('First paragraph.\n\nSecond paragraph.'.length, ' Ben adds that.');
    authority.append('\n\nThe agent’s paragraph.');
    await Promise.all([ana.session.flush(), ben.session.flush()]);
    const expected =
      'First paragraph. Ana adds this.\n\nSecond paragraph. Ben adds that.\n\nThird paragraph.\n\nThe agent’s paragraph.';
    expect(authority.text).toBe(expected);
    expect(ana.host.state.doc.toString()).toBe(expected);
    expect(ben.host.state.doc.toString()).toBe(expected);
    expect(ana.host.state.selection.main.head).toBe(
      expected.indexOf(' Ana adds this.') + ' Ana adds this.'.length,
    );
    expect(ben.host.state.selection.main.head).toBe(
      expected.indexOf(' Ben adds that.') + ' Ben adds that.'.length,
    );
  });

  it('keeps others’ changes out of the undo history: undo takes back only what this person typed', async () => {
    const authority = new Authority();
    const ana = editor(authority, 'editor-ana-0003');
    const ben = editor(authority, 'editor-ben-0004');
    authority.listeners.push((updates) => {
      ana.session.receive(updates);
      ben.session.receive(updates);
    });
    ana.type(0, 'Ana. ');
    await ana.session.flush();
    ben.type(ben.host.state.doc.length, 'Ben.');
    await ben.session.flush();
    expect(ana.host.state.doc.toString()).toBe('Ana. Ben.');
    undo({ state: ana.host.state, dispatch: (tr) => ana.host.dispatch(tr) });
    expect(ana.host.state.doc.toString()).toBe('Ben.');
    ana.session.localEdit();
    await ana.session.flush();
    expect(authority.text).toBe('Ben.');
    expect(ben.host.state.doc.toString()).toBe('Ben.');
  });

  it('reads the gap when an update arrives past a version it has not seen', async () => {
    const authority = new Authority();
    const ana = editor(authority, 'editor-ana-0005');
    authority.append('one');
    authority.append(' two');
    ana.session.receive([authority.updates[1]!]);
    await ana.session.pull();
    await ana.session.pull();
    expect(ana.host.state.doc.toString()).toBe('one two');
  });
});
