import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDocPatch, makeDocPatch } from '../changes/doc-patch';
import { advanceAuthorship, computeAuthorship } from './advance';
import { coarsenPatch } from './coarsen';
import { sameOrigin } from './spans';
import { summarizeAuthorship, wordRegExp, wordStarts } from './summary';
import type { AuthorshipState, DocumentBodyChange } from './types';

const PIECES = ['a', 'bc', 'Word', ' ', '. ', '.', '!', '\n', '\r\n', '😀', 'é', '# ', '- ', '| ', ' |', '你好。', 'x y z'];

const editArb = fc.record({
  kind: fc.constantFrom('person', 'agent', 'apply', 'system'),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.nat({ max: 12 }),
  insert: fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((p) => p.join('')),
  attribution: fc.array(
    fc.record({ from: fc.nat({ max: 40 }), length: fc.nat({ max: 20 }), author: fc.constantFrom('person', 'agent', 'agent_edited') }),
    { maxLength: 3 },
  ),
});

/** Snaps an offset back to a code point boundary, as an editor's cursor would be. */
function snap(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

type Edit = typeof editArb extends fc.Arbitrary<infer T> ? T : never;

function buildLog(edits: Edit[]): { changes: DocumentBodyChange[]; text: string } {
  let text = '';
  const changes: DocumentBodyChange[] = [];
  edits.forEach((edit, n) => {
    const start = snap(text, Math.floor(edit.at * text.length));
    const end = snap(text, Math.min(text.length, start + edit.remove));
    const next = text.slice(0, start) + edit.insert + text.slice(end);
    if (next === text) return;
    const patch = makeDocPatch(text, next);
    const insertedLength = patch.reduce((sum, op) => sum + ('i' in op ? op.i.length : 0), 0);
    const isApply = edit.kind === 'apply';
    changes.push({
      seq: n + 1,
      turn: Math.floor(n / 3),
      actor: isApply ? 'person' : (edit.kind as 'person' | 'agent' | 'system'),
      via: isApply ? 'apply' : edit.kind === 'person' ? 'editor' : edit.kind === 'agent' ? 'agent_tool' : 'migration',
      via_source: isApply ? 'other:1' : null,
      after: {
        version: changes.length + 1,
        patch,
        ...(isApply
          ? {
              attribution: edit.attribution
                .map((a) => ({ start: Math.min(a.from, insertedLength), end: Math.min(a.from + a.length, insertedLength), author: a.author, turn: 0, seq: 99 }))
                .filter((a) => a.end > a.start),
            }
          : {}),
      },
    });
    text = next;
  });
  return { changes, text };
}

function expectWellFormed(state: AuthorshipState): void {
  let at = 0;
  state.spans.forEach((span, i) => {
    expect(span.start).toBe(at);
    expect(span.end).toBeGreaterThan(span.start);
    const previous = state.spans[i - 1];
    if (previous) expect(sameOrigin(previous, span)).toBe(false);
    at = span.end;
  });
  expect(at).toBe(state.text.length);
}

describe('authorship over random interleavings of person, agent, apply and system changes', () => {
  it('spans cover the text exactly with no overlap; replaying the log gives the document; caching changes nothing', () => {
    fc.assert(
      fc.property(fc.array(editArb, { minLength: 1, maxLength: 30 }), fc.double({ min: 0, max: 1, noNaN: true }), (edits, cut) => {
        const { changes, text } = buildLog(edits);
        const replayed = changes.reduce((body, c) => {
          const next = applyDocPatch(body, c.after.patch);
          // The coarsened patch the spans follow makes the same text.
          expect(applyDocPatch(body, coarsenPatch(body, c.after.patch))).toBe(next);
          return next;
        }, '');
        expect(replayed).toBe(text);
        const state = computeAuthorship(changes);
        expect(state.text).toBe(text);
        expectWellFormed(state);
        const split = Math.floor(cut * changes.length);
        expect(advanceAuthorship(computeAuthorship(changes.slice(0, split)), changes.slice(split))).toEqual(state);
        // No span boundary falls inside a word: a word has one author, the one its count credits.
        const boundaries = new Set(state.spans.slice(1).map((s) => s.start));
        for (const word of text.matchAll(wordRegExp())) {
          for (let at = word.index + 1; at < word.index + word[0].length; at++) expect(boundaries.has(at)).toBe(false);
        }
        const summary = summarizeAuthorship(state.text, state.spans);
        const words = wordStarts(text).length;
        expect(summary.person_words + summary.agent_words + summary.agent_edited_words + summary.unknown_words).toBe(words);
        if (!changes.some((c) => c.actor === 'person')) {
          expect(state.spans.every((s) => s.author !== 'agent_edited' && s.author !== 'person')).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
