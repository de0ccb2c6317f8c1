/**
 * The turns this tab started, kept in the tab's own session storage so they outlive a reload and
 * no other tab shares them. A reply the page follows is "answering in another tab" only when it is
 * not one of these: reloaded mid-reply, a tab follows the reply it sent itself.
 */

/** The part of the Web Storage API this needs (`window.sessionStorage` in the page). */
export type TurnMemory = Pick<Storage, 'getItem' | 'setItem'>;

const KEY = 'trellis.own-turns';
/** The newest this many are kept: a tab follows a reply only while it runs, so old ones never matter. */
const KEEP = 50;

function keyOf(threadId: string, turn: number, attempt: number): string {
  return `${threadId}:${turn}:${attempt}`;
}

function read(memory: TurnMemory): string[] {
  try {
    const parsed: unknown = JSON.parse(memory.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}

/** Notes that this tab started attempt `attempt` of turn `turn` on `threadId`. */
export function rememberOwnTurn(memory: TurnMemory, threadId: string, turn: number, attempt: number): void {
  const key = keyOf(threadId, turn, attempt);
  const kept = read(memory).filter((entry) => entry !== key);
  try {
    memory.setItem(KEY, JSON.stringify([...kept, key].slice(-KEEP)));
  } catch {
    // Storage full or refused (a private window): the tab then says "another tab" after a reload.
  }
}

/** Whether this tab started that attempt (before a reload, say). */
export function isOwnTurn(memory: TurnMemory, threadId: string, turn: number, attempt: number): boolean {
  return read(memory).includes(keyOf(threadId, turn, attempt));
}

/** The tab's session storage, or null where there is none (the server, a refusing browser). */
export function tabMemory(): TurnMemory | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
