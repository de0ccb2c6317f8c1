// One live editor of a thread's document in CodeMirror's collaboration model (docs/architecture.md,
// "Two people in one document"): the server orders the document's versions; this editor sends its
// unconfirmed updates (one request in flight at a time), and takes every update the server answers
// or the family stream signals, in version order — its own confirm what it sent, everyone else's
// are applied with its unconfirmed typing rebased over them, outside its undo history, its caret
// mapped through them. Framework-free: the component owns the EditorView, this owns the protocol.
import { collab, getSyncedVersion, receiveUpdates, sendableUpdates } from '@codemirror/collab';
import { ChangeSet, EditorState, Transaction, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import {
  changeSetJsonToDocPatch,
  docPatchToChangeSetJson,
  type ChangeSetJson,
  type DocumentUpdate,
  type DocumentUpdates,
  type PushDocumentUpdates,
} from '@trellis/domain';

export type CollabStatus = 'saved' | 'unsaved' | 'saving' | 'error';

export interface CollabTransport {
  push(push: PushDocumentUpdates): Promise<DocumentUpdates>;
  pull(since: number): Promise<DocumentUpdates>;
}

/** What the session drives: an EditorView, or anything holding a state and taking transactions. */
export interface CollabHost {
  readonly state: EditorState;
  dispatch(transaction: Transaction): void;
}

export interface CollabCallbacks {
  onStatus?: (status: CollabStatus) => void;
  /** The person typed (not a remote change): presence says they are typing. */
  onLocalEdit?: () => void;
  /** A title change arrived with the updates. */
  onTitle?: (title: string) => void;
}

/**
 * Typing is sent when it pauses this long, and at the latest this long after its first unsent
 * keystroke: others see it within a second, and a burst of typing is one change of the log (one
 * request), not one per keystroke.
 */
const PUSH_PAUSE_MS = 250;
const PUSH_MAX_WAIT_MS = 800;
/** The API takes at most this many updates per request; the rest go in the next. */
const MAX_UPDATES_PER_PUSH = 500;
const RETRY_MS = { first: 500, max: 8_000 };

export class CollabSession {
  readonly clientId: string;
  readonly #transport: CollabTransport;
  readonly #callbacks: CollabCallbacks;
  #host: CollabHost | null = null;
  #inFlight: Promise<void> | null = null;
  #pulling: Promise<void> | null = null;
  #isPullAgain = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest unsent keystroke was typed (null: nothing waits). */
  #waitingSince: number | null = null;
  #retries = 0;
  #status: CollabStatus = 'saved';
  #isDestroyed = false;

  constructor(clientId: string, transport: CollabTransport, callbacks: CollabCallbacks = {}) {
    this.clientId = clientId;
    this.#transport = transport;
    this.#callbacks = callbacks;
  }

  /** The editor's extensions for a document loaded at `startVersion`. */
  extension(startVersion: number): Extension {
    return [
      // Only "\n" breaks lines, so a "\r" in the stored text stays a character and lengths agree with the server's.
      EditorState.lineSeparator.of('\n'),
      collab({ startVersion, clientID: this.clientId }),
      EditorView.updateListener.of((update) => {
        if (update.transactions.some((tr) => tr.docChanged && !tr.annotation(Transaction.remote)))
          this.localEdit();
      }),
    ];
  }

  attach(host: CollabHost): void {
    this.#host = host;
    // The text it was loaded with may already be behind: read what came since.
    void this.pull();
  }

  get status(): CollabStatus {
    return this.#status;
  }

  get hasUnconfirmed(): boolean {
    return this.#host !== null && sendableUpdates(this.#host.state).length > 0;
  }

  /** The person changed the text: send it shortly. */
  localEdit(): void {
    this.#callbacks.onLocalEdit?.();
    if (this.#status !== 'saving') this.#setStatus('unsaved');
    if (this.#inFlight || this.#isDestroyed) return;
    const now = Date.now();
    this.#waitingSince ??= now;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#schedule(Math.max(0, Math.min(PUSH_PAUSE_MS, this.#waitingSince + PUSH_MAX_WAIT_MS - now)));
  }

  /**
   * Takes updates in version order; an update past a gap makes the session read the gap first.
   * Versions it already has are skipped, so a push's answer and the stream's signal may overlap.
   */
  receive(updates: readonly DocumentUpdate[]): void {
    const host = this.#host;
    if (!host || this.#isDestroyed) return;
    const synced = getSyncedVersion(host.state);
    const fresh = updates.filter((u) => u.version > synced);
    if (fresh.length === 0) return;
    if (fresh.some((u, i) => u.version !== synced + 1 + i)) {
      void this.pull();
      return;
    }
    host.dispatch(
      receiveUpdates(
        host.state,
        fresh.map((u) => ({
          changes: ChangeSet.fromJSON(docPatchToChangeSetJson(u.patch, u.length)),
          clientID: u.client_id ?? '',
        })),
      ),
    );
    for (const u of fresh) if (u.title !== undefined) this.#callbacks.onTitle?.(u.title);
  }

  /** Someone says the document reached `version`: read the updates when this editor is behind. */
  announce(version: number): void {
    if (this.#host && version > getSyncedVersion(this.#host.state)) void this.pull();
  }

  /**
   * Reads the updates after this editor's version, one read at a time; asked again while one is
   * running (it may have been answered before what prompted this), it reads once more after it.
   */
  pull(): Promise<void> {
    if (!this.#host || this.#isDestroyed) return Promise.resolve();
    if (this.#pulling) {
      this.#isPullAgain = true;
      return this.#pulling;
    }
    const run = async (): Promise<void> => {
      do {
        this.#isPullAgain = false;
        const host = this.#host;
        if (!host || this.#isDestroyed) return;
        try {
          this.receive((await this.#transport.pull(getSyncedVersion(host.state))).updates);
        } catch {
          // The stream's next signal, or the next push's answer, brings what this read missed.
          return;
        }
      } while (this.#isPullAgain);
    };
    this.#pulling = run().finally(() => {
      this.#pulling = null;
    });
    return this.#pulling;
  }

  /** Sends until the server holds every update; resolves then (a turn waits for it before it starts). */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (let attempts = 0; attempts < 20 && !this.#isDestroyed; attempts++) {
      if (this.#inFlight) {
        await this.#inFlight;
        continue;
      }
      if (!this.hasUnconfirmed) return;
      await this.#push();
      if (this.#status === 'error') return;
    }
  }

  destroy(): void {
    this.#isDestroyed = true;
    clearTimeout(this.#timer);
  }

  #schedule(delay: number): void {
    if (this.#timer !== undefined || this.#inFlight || this.#isDestroyed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#push();
    }, delay);
  }

  #push(): Promise<void> {
    const host = this.#host;
    if (!host || this.#inFlight || this.#isDestroyed) return this.#inFlight ?? Promise.resolve();
    const sendable = sendableUpdates(host.state).slice(0, MAX_UPDATES_PER_PUSH);
    if (sendable.length === 0) {
      this.#setStatus('saved');
      return Promise.resolve();
    }
    this.#setStatus('saving');
    this.#waitingSince = null;
    const request: PushDocumentUpdates = {
      version: getSyncedVersion(host.state),
      client_id: this.clientId,
      length: sendable[0]!.changes.length,
      updates: sendable.map((u) => ({ patch: changeSetJsonToDocPatch(u.changes.toJSON() as ChangeSetJson) })),
    };
    this.#inFlight = this.#transport.push(request).then(
      (answer) => {
        this.#inFlight = null;
        this.#retries = 0;
        this.receive(answer.updates);
        if (this.hasUnconfirmed) {
          // Typed while this was in flight: sent on the same terms as any typing.
          this.#waitingSince ??= Date.now();
          this.#schedule(PUSH_PAUSE_MS);
        } else this.#setStatus('saved');
      },
      () => {
        this.#inFlight = null;
        this.#setStatus('error');
        // Kept and sent again: the server drops whatever of it was accepted before the failure.
        this.#schedule(Math.min(RETRY_MS.max, RETRY_MS.first * 2 ** this.#retries++));
      },
    );
    return this.#inFlight;
  }

  #setStatus(status: CollabStatus): void {
    if (this.#status === status) return;
    this.#status = status;
    this.#callbacks.onStatus?.(status);
  }
}
