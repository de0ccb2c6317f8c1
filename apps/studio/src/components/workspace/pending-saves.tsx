'use client';
import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';

type Flush = () => Promise<void>;

/**
 * Manual edits that have not reached the server yet: debounced editors
 * register a flush, mutations register their promise. A turn's snapshot is
 * taken from the live rows when the turn starts (docs/branching.md, "The restore rule"),
 * so the studio awaits `flushAll()` before every send.
 */
export class PendingSaves {
  private readonly flushes = new Set<Flush>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly dirty = new Set<symbol>();
  private readonly conflicts = new Set<symbol>();
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Number of edits not yet saved: in-flight requests plus editors with unsaved text. */
  getCount = () => this.inFlight.size + this.dirty.size;

  register(flush: Flush): () => void {
    this.flushes.add(flush);
    return () => this.flushes.delete(flush);
  }

  /** Marks an editor (identified by `key`) as holding unsaved text, or clean again. */
  setDirty(key: symbol, isDirty: boolean): void {
    const had = this.dirty.has(key);
    if (isDirty) this.dirty.add(key);
    else this.dirty.delete(key);
    if (had !== isDirty) this.emit();
  }

  /** Editors whose save the server refused as overlapping (a 409 waiting in a merge view). */
  getConflictCount = () => this.conflicts.size;

  /** Marks an editor as holding text the server refused as overlapping, or not any more. */
  setConflict(key: symbol, isConflict: boolean): void {
    const had = this.conflicts.has(key);
    if (isConflict) this.conflicts.add(key);
    else this.conflicts.delete(key);
    if (had !== isConflict) this.emit();
  }

  track<T>(promise: Promise<T>): Promise<T> {
    const settled = promise.finally(() => {
      this.inFlight.delete(settled);
      this.emit();
    });
    settled.catch(() => undefined);
    this.inFlight.add(settled);
    this.emit();
    return promise;
  }

  /** Resolves once every registered editor has saved and every tracked request has settled. */
  async flushAll(): Promise<void> {
    await Promise.allSettled([...this.flushes].map((flush) => flush()));
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

const PendingSavesContext = createContext<PendingSaves | null>(null);

export function PendingSavesProvider({ children }: { children: ReactNode }) {
  const [saves] = useState(() => new PendingSaves());
  const count = useSyncExternalStore(saves.subscribe, saves.getCount, () => 0);
  // Leaving with unsaved edits asks first; the browser shows its own wording.
  useEffect(() => {
    if (count === 0) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [count]);
  return <PendingSavesContext.Provider value={saves}>{children}</PendingSavesContext.Provider>;
}

export function usePendingSaves(): PendingSaves {
  const saves = useContext(PendingSavesContext);
  if (!saves) throw new Error('usePendingSaves needs a PendingSavesProvider');
  return saves;
}

export function usePendingSaveCount(): number {
  const saves = usePendingSaves();
  return useSyncExternalStore(saves.subscribe, saves.getCount, () => 0);
}

export function useConflictCount(): number {
  const saves = usePendingSaves();
  return useSyncExternalStore(saves.subscribe, saves.getConflictCount, () => 0);
}

/** Registers `flush` for the lifetime of the calling component (latest closure wins). */
export function useRegisterFlush(flush: Flush): void {
  const saves = usePendingSaves();
  const latest = useRef(flush);
  useEffect(() => {
    latest.current = flush;
  });
  useEffect(() => saves.register(() => latest.current()), [saves]);
}
