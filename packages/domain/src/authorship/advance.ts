// Authorship from the change log, incrementally: the spans at version v plus the
// document-body changes after v give the spans at the new version. Each change costs its patch, the
// span list and the lines it touched — never a replay of earlier edits — so a cache of the last
// state keeps reads flat however long the history grows.
import { applyDocPatch, patchBaseLength } from '../changes/doc-patch';
import type { ChangeActor } from '../changes/change';
import { coarsenPatch } from './coarsen';
import { alignSpansToWords, carrySpans, paintSpans, spansIn, type PatchMark } from './spans';
import { summarizeStep, wordRegExp } from './summary';
import {
  isAuthor,
  type Author,
  type AuthorshipSpan,
  type AuthorshipState,
  type AuthorshipSummary,
  type DocumentBodyChange,
} from './types';
import { isLineBreak, unitAt, unitsAround, type TextUnit } from './units';

export const EMPTY_AUTHORSHIP: AuthorshipState = { version: 0, text: '', spans: [] };

/** Inserted text's author by actor: the system (the `migration` change, imports) never guesses. */
export function authorOfActor(actor: ChangeActor): Author {
  return actor === 'person' ? 'person' : actor === 'agent' ? 'agent' : 'unknown';
}

/** The spans after every change of `changes` (in log order, a branch's inherited ones first). */
export function computeAuthorship(changes: readonly DocumentBodyChange[]): AuthorshipState {
  return advanceAuthorship(EMPTY_AUTHORSHIP, changes);
}

/** `state` advanced by `changes`, the document-body changes that follow it, in log order. */
export function advanceAuthorship(state: AuthorshipState, changes: readonly DocumentBodyChange[]): AuthorshipState {
  let current = state;
  for (const change of changes) current = applyChange(current, change);
  return current;
}

/**
 * What each step wrote, by author, along `changes` (from `state`, in log order): for each step after
 * `afterTurn` that has a document change, `summarizeStep` of the document right after the step's last
 * change — the same spans and the same count the overlay of that restored step gives.
 */
export function stepSummaries(
  state: AuthorshipState,
  changes: readonly DocumentBodyChange[],
  afterTurn: number,
): Map<number, AuthorshipSummary> {
  const out = new Map<number, AuthorshipSummary>();
  let current = state;
  changes.forEach((change, i) => {
    current = applyChange(current, change);
    const next = changes[i + 1];
    if (change.turn > afterTurn && (!next || next.turn !== change.turn)) {
      out.set(change.turn, summarizeStep(current.text, current.spans, change.turn));
    }
  });
  return out;
}

function applyChange(state: AuthorshipState, change: DocumentBodyChange): AuthorshipState {
  if (patchBaseLength(change.after.patch) > state.text.length) {
    throw new RangeError(`change ${change.seq} does not fit the document at version ${state.version}`);
  }
  const text = applyDocPatch(state.text, change.after.patch);
  // An apply's attribution names offsets into its own patch's inserts: that patch is used as stored.
  const patch = change.via === 'apply' ? change.after.patch : coarsenPatch(state.text, change.after.patch);
  const isApply = change.via === 'apply';
  // An agent's write that names a source copied text from a cited step: its own, with where it came from.
  const isCited = change.via === 'agent_tool' && typeof change.via_source === 'string' && change.via_source !== '';
  // Each person is told apart by the user id of their changes; an apply keeps its source's authors.
  const person = change.actor === 'person' && change.actor_id ? { user_id: change.actor_id } : {};
  const base: Omit<AuthorshipSpan, 'start' | 'end'> = {
    author: authorOfActor(change.actor),
    turn: change.turn,
    seq: change.seq,
    ...(isApply ? {} : person),
    ...(isApply ? { via: 'apply' as const, ...(change.via_source ? { source: change.via_source } : {}) } : {}),
    ...(isCited ? { via: 'cite' as const, source: change.via_source as string } : {}),
  };
  const attribution = isApply ? change.after.attribution ?? [] : [];
  const { spans, marks } = carrySpans(state.spans, state.text.length, patch, (offset, inserted, at) =>
    insertedSpans(base, attribution, offset, inserted.length, at),
  );
  // A person's own edit (not an apply, which only moves text) inside agent text makes the unit agent_edited.
  if (change.actor === 'person' && !isApply) {
    const origin: Omit<AuthorshipSpan, 'start' | 'end'> = { author: 'agent_edited', turn: change.turn, seq: change.seq, ...person };
    for (const unit of editedUnits(state.text, text, marks)) {
      if (spansIn(spans, unit.start, unit.end).some((s) => s.author === 'agent' || s.author === 'agent_edited')) {
        paintSpans(spans, unit.start, unit.end, origin);
      }
    }
  }
  const touched = marks.map((m) => (m.kind === 'insert' ? { start: m.start, end: m.end } : { start: m.at, end: m.at }));
  return { version: change.after.version, text, spans: alignSpansToWords(text, spans, WORD, touched) };
}

const WORD = wordRegExp();

/**
 * Spans for `length` inserted units starting at `offset` of the patch's inserted text, placed at `at`:
 * the apply's attribution where it covers them (the text's original author, step and change), the
 * change's own origin elsewhere.
 */
function insertedSpans(
  base: Omit<AuthorshipSpan, 'start' | 'end'>,
  attribution: NonNullable<DocumentBodyChange['after']['attribution']>,
  offset: number,
  length: number,
  at: number,
): AuthorshipSpan[] {
  const out: AuthorshipSpan[] = [];
  let pos = offset;
  const end = offset + length;
  const covering = attribution
    .filter((a) => a.end > offset && a.start < end && a.end > a.start)
    .sort((a, b) => a.start - b.start);
  for (const a of covering) {
    const s = Math.max(a.start, pos);
    const e = Math.min(a.end, end);
    if (e <= s) continue;
    if (s > pos) out.push({ ...base, start: at + pos - offset, end: at + s - offset });
    out.push({
      ...base,
      author: isAuthor(a.author) ? a.author : 'unknown',
      turn: a.turn,
      seq: a.seq,
      ...(a.thread_id ? { thread_id: a.thread_id } : {}),
      ...(a.user_id ? { user_id: a.user_id } : {}),
      start: at + s - offset,
      end: at + e - offset,
    });
    pos = e;
  }
  if (pos < end) out.push({ ...base, start: at + pos - offset, end: at + end - offset });
  return out;
}

/**
 * The units of the new text that a patch edited: those whose core gains a non-blank inserted
 * character, and those that lost part (not all) of their core to a removal of non-blank text. A
 * removal of whole units (a deleted sentence) edits neither neighbour; whitespace-only edits edit none.
 */
function editedUnits(oldText: string, newText: string, marks: readonly PatchMark[]): TextUnit[] {
  const found = new Map<number, TextUnit>();
  const add = (unit: TextUnit | undefined): void => {
    if (unit) found.set(unit.start, unit);
  };
  for (const mark of marks) {
    if (mark.kind === 'insert') {
      for (const unit of unitsAround(newText, mark.start, mark.end)) {
        const s = Math.max(unit.start, mark.start);
        const e = Math.min(unit.end, mark.end);
        if (s < e && /\S/.test(newText.slice(s, e))) add(unit);
      }
    } else {
      if (!/\S/.test(oldText.slice(mark.oldStart, mark.oldEnd))) continue;
      const cutAtStart = unitAt(oldText, mark.oldStart);
      if (cutAtStart && cutAtStart.start < mark.oldStart) add(unitBefore(newText, mark.at));
      const cutAtEnd = unitAt(oldText, mark.oldEnd - 1);
      if (cutAtEnd && mark.oldEnd < cutAtEnd.end) add(unitAfter(newText, mark.at));
    }
  }
  return [...found.values()];
}

/** The unit holding the last non-blank character before `at` on its line (what survived before a cut). */
function unitBefore(text: string, at: number): TextUnit | undefined {
  let i = at - 1;
  while (i >= 0 && !isLineBreak(text.charCodeAt(i)) && /\s/.test(text[i] as string)) i--;
  return i >= 0 && !isLineBreak(text.charCodeAt(i)) ? unitAt(text, i) : undefined;
}

/** The unit holding the first non-blank character from `at` on its line (what survived after a cut). */
function unitAfter(text: string, at: number): TextUnit | undefined {
  let i = at;
  while (i < text.length && !isLineBreak(text.charCodeAt(i)) && /\s/.test(text[i] as string)) i++;
  return i < text.length && !isLineBreak(text.charCodeAt(i)) ? unitAt(text, i) : undefined;
}
