// Unsent text: what the user typed that exists nowhere else yet — an edited message, a draft in a
// restored view, a restored step's edited workspace. Every way out of it asks first ("Keep
// editing" / "Discard"), so nothing typed is lost without the user saying so. Editors register
// what they hold; the studio's navigations go through `guard`. Framework-free: the React glue is
// components/studio/use-unsent-text.ts and unsent-text-dialog.tsx.

export interface UnsentSource {
  /** What would be lost, as the question names it ("your edit of a message"). */
  what: () => string;
  /** Whether it holds text nothing else has, now. */
  hasUnsent: () => boolean;
  /** Throws the text away (closes the editor, empties the draft) once the user chose "Discard". */
  discard?: () => void;
  /** Puts the cursor back in it after "Keep editing". */
  focus?: () => void;
}

/** A way out waiting for the user's answer, and what taking it would lose. */
export interface LeaveQuestion {
  what: readonly string[];
}

export class UnsentText {
  private readonly sources = new Map<symbol, UnsentSource>();
  private pending: (LeaveQuestion & { leave: () => void }) | null = null;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Adds an editor's text to what every way out checks; the returned function removes it. */
  register(source: UnsentSource): () => void {
    const key = Symbol('unsent');
    this.sources.set(key, source);
    return () => {
      this.sources.delete(key);
    };
  }

  /** What leaving now would lose, in registration order; empty when nothing. */
  unsent(): string[] {
    return this.holding().map((source) => source.what());
  }

  hasUnsent = (): boolean => this.holding().length > 0;

  /** Takes `leave` now when it loses nothing; else holds it until the user answers the question. */
  guard = (leave: () => void): void => {
    const what = this.unsent();
    if (what.length === 0) {
      leave();
      return;
    }
    this.pending = { what, leave };
    this.emit();
  };

  /** The open question, or null (the same object until it is answered). */
  getQuestion = (): LeaveQuestion | null => this.pending;

  /** "Discard": every unsent text is thrown away, then the way out is taken. */
  discard = (): void => {
    const pending = this.pending;
    if (pending === null) return;
    this.pending = null;
    for (const source of this.holding()) source.discard?.();
    this.emit();
    pending.leave();
  };

  /** "Keep editing": the way out is not taken; the cursor goes back to the first unsent text. */
  keepEditing = (): void => {
    if (this.pending === null) return;
    this.pending = null;
    this.emit();
  };

  /** Focuses the first editor holding unsent text; false when none can take the focus. */
  focusUnsent = (): boolean => {
    const source = this.holding().find((s) => s.focus !== undefined);
    source?.focus?.();
    return source !== undefined;
  };

  private holding(): UnsentSource[] {
    return [...this.sources.values()].filter((source) => source.hasUnsent());
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The page's one store: every editor and every way out of the studio share it. */
export const unsentText = new UnsentText();
