// What `read_path` answers: a referenced step by the restore rule — its document, its items and the
// transcript up to it — bounded. Document and items come first, the messages last; whatever does not
// fit the byte budget is cut from the end of that order (the oldest messages first), and the answer
// says what was cut and how to read more.
import type { PathRef, ReadPathPart } from './contracts';

/** At most this many bytes of UTF-8 text per call. */
export const READ_PATH_MAX_BYTES = 24 * 1024;

export interface ReadPathSource {
  ref: PathRef;
  /** The path's name. */
  title: string;
  workspace: {
    objective: string | null;
    document: { title: string; content: string };
    preferences: readonly { text: string; locked: boolean }[];
    todos: readonly { text: string; done: boolean; depth: number }[];
    artifacts: readonly { number: number; kind: string; title: string; content?: string | undefined }[];
  };
  messages: readonly { turn_index: number; role: string; content: string }[];
}

/** The parsed answer (the tool's result is its JSON). */
export interface ReadPathAnswer {
  path: string;
  thread_id: string;
  turn: number;
  title: string;
  document?: { title: string; content: string };
  objective?: string | null;
  preferences?: { text: string; locked: boolean }[];
  todos?: { text: string; done: boolean; depth: number }[];
  artifacts?: { number: number; kind: string; title: string; content: string }[];
  messages?: { turn: number; role: string; content: string }[];
  /** Present when something was left out: what, and how to read it. */
  truncated?: string;
}

export function readPathAnswer(source: ReadPathSource, part: ReadPathPart | undefined): string {
  const parts = new Set<ReadPathPart>(part === undefined ? ['document', 'items', 'messages'] : [part]);
  const { ref, workspace } = source;
  const answer: ReadPathAnswer = { path: ref.label, thread_id: ref.thread_id, turn: ref.turn, title: source.title };
  if (parts.has('document')) answer.document = { title: workspace.document.title, content: workspace.document.content };
  if (parts.has('items')) {
    answer.objective = workspace.objective;
    answer.preferences = workspace.preferences.map(({ text, locked }) => ({ text, locked }));
    answer.todos = workspace.todos.map(({ text, done, depth }) => ({ text, done, depth }));
    answer.artifacts = workspace.artifacts.map(({ number, kind, title, content }) => ({ number, kind, title, content: content ?? '' }));
  }
  if (parts.has('messages')) {
    answer.messages = source.messages.map((m) => ({ turn: m.turn_index, role: m.role, content: m.content }));
  }
  const fits = (a: ReadPathAnswer) => utf8Length(JSON.stringify(a)) <= READ_PATH_MAX_BYTES;
  if (fits(answer)) return JSON.stringify(answer);

  // Cut from the end of the order until it fits; each cut keeps as much as it can (a binary search).
  const cuts: string[] = [];
  const withNote = (a: ReadPathAnswer): ReadPathAnswer => ({ ...a, truncated: note(cuts) });
  // A note long enough for every cut, so adding the real one later never overflows.
  const reserve: ReadPathAnswer = { ...answer, truncated: 'x'.repeat(400) };
  let current = reserve;
  const messages = answer.messages;
  if (messages !== undefined && !fits(current)) {
    const kept = largest(messages.length, (n) => fits({ ...current, messages: messages.slice(messages.length - n) }));
    current = { ...current, messages: messages.slice(messages.length - kept) };
    cuts.push(`${messages.length - kept} of ${messages.length} messages left out (the oldest)`);
  }
  const artifacts = answer.artifacts;
  if (artifacts !== undefined && !fits(current)) {
    current = { ...current, artifacts: artifacts.map((a) => ({ ...a, content: '' })) };
    cuts.push('artifact contents left out');
  }
  for (const list of ['todos', 'preferences'] as const) {
    const items = answer[list];
    if (items === undefined || fits(current)) continue;
    const kept = largest(items.length, (n) => fits({ ...current, [list]: items.slice(0, n) }));
    current = { ...current, [list]: items.slice(0, kept) };
    cuts.push(`${items.length - kept} of ${items.length} ${list} left out (the last)`);
  }
  const document = answer.document;
  if (document !== undefined && !fits(current)) {
    const kept = largest(document.content.length, (n) => fits({ ...current, document: { ...document, content: cut(document.content, n) } }));
    current = { ...current, document: { ...document, content: cut(document.content, kept) } };
    cuts.push(`the document is cut after ${kept} of ${document.content.length} characters`);
  }
  return JSON.stringify(withNote({ ...current, truncated: undefined }));
}

function note(cuts: readonly string[]): string {
  return `This answer is cut to ${READ_PATH_MAX_BYTES / 1024} KB: ${cuts.join('; ')}. Ask for one part at a time (part: "document", "items" or "messages") to read more.`;
}

/** The largest n in [0, max] with `ok(n)`, for a monotone `ok` (true at 0 is assumed). */
function largest(max: number, ok: (n: number) => boolean): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The first `n` UTF-16 units, never ending inside a surrogate pair. */
function cut(text: string, n: number): string {
  const code = text.charCodeAt(n - 1);
  return n > 0 && n < text.length && code >= 0xd800 && code <= 0xdbff ? text.slice(0, n - 1) : text.slice(0, n);
}

export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
