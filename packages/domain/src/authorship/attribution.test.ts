import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDocPatch } from '../changes/doc-patch';
import { advanceAuthorship, computeAuthorship } from './advance';
import { applyDocumentChange, copiedRuns } from './attribution';
import type { AuthorshipSpan } from './types';

describe('applyDocumentChange', () => {
  // Source: "Mine. Agent section text here." — person [0,6), agent [6,30) at step 2, change 5.
  const source = 'Mine. Agent section text here.';
  const spans: AuthorshipSpan[] = [
    { start: 0, end: 6, author: 'person', turn: 1, seq: 3 },
    { start: 6, end: 30, author: 'agent', turn: 2, seq: 5 },
  ];

  it('a copied run takes the source’s authors, offsets into the inserted text; the apply’s own text gets none', () => {
    const next = 'Old.\nAgent section text here.';
    const { patch, attribution } = applyDocumentChange('Old.', next, [{ at: 5, length: 24, src: 6 }], spans, 'src');
    expect(applyDocPatch('Old.', patch)).toBe(next);
    // The patch inserts "\nAgent section text here." (25 units): the newline is the apply's own.
    expect(attribution).toEqual([{ start: 1, end: 25, author: 'agent', turn: 2, seq: 5, thread_id: 'src' }]);
  });

  it('a run crossing two source spans is split', () => {
    const { attribution } = applyDocumentChange('', `X ${source}`, [{ at: 2, length: 30, src: 0 }], spans, 'src');
    expect(attribution).toEqual([
      { start: 2, end: 8, author: 'person', turn: 1, seq: 3, thread_id: 'src' },
      { start: 8, end: 32, author: 'agent', turn: 2, seq: 5, thread_id: 'src' },
    ]);
  });

  it('keeps the first author of text the source had itself applied', () => {
    const applied: AuthorshipSpan[] = [{ start: 0, end: 30, author: 'agent', turn: 4, seq: 9, via: 'apply', source: 'x:4', thread_id: 'x' }];
    expect(applyDocumentChange('', source, [{ at: 0, length: 30, src: 0 }], applied, 'src').attribution).toEqual([
      { start: 0, end: 30, author: 'agent', turn: 4, seq: 9, thread_id: 'x' },
    ]);
  });

  it('a replaced section is inserted whole: no letter of the old section keeps its old author', () => {
    // The person's "## Evidence map" section is replaced by the agent's of the same heading: a
    // character diff would keep the heading and letters the two bodies share as the person's.
    const agentSource = '# R\n\n## Evidence map\nThe agent mapped every claim to a source.\n';
    const sourceSpans: AuthorshipSpan[] = [
      { start: 0, end: 5, author: 'person', turn: 0, seq: 1 },
      { start: 5, end: agentSource.length, author: 'agent', turn: 4, seq: 7 },
    ];
    const target = '# R\n\n## Evidence map\nMy notes, not mapped yet.\n\n## End\nBye.\n';
    const next = '# R\n\n## Evidence map\nThe agent mapped every claim to a source.\n\n## End\nBye.\n';
    const runs = copiedRuns(agentSource, next, [{ kind: 'section', heading: 'Evidence map' }]);
    expect(runs).toEqual([{ at: 5, length: '## Evidence map\nThe agent mapped every claim to a source.'.length, src: 5 }]);
    const { patch, attribution } = applyDocumentChange(target, next, runs, sourceSpans, 'src');
    expect(applyDocPatch(target, patch)).toBe(next);
    const before = computeAuthorship([
      { seq: 1, turn: 0, actor: 'person', via: 'editor', after: { version: 1, patch: [{ i: target }] } },
    ]);
    const after = advanceAuthorship(before, [
      { seq: 2, turn: 1, actor: 'person', via: 'apply', via_source: 'src:4', after: { version: 2, patch, attribution } },
    ]);
    const section = after.spans.filter((s) => s.start < runs[0]!.at + runs[0]!.length && s.end > runs[0]!.at);
    expect(section.map((s) => [s.author, s.via, s.turn, s.thread_id])).toEqual([['agent', 'apply', 4, 'src']]);
    expect(after.text).toBe(next);
  });

  it('names no run where the texts differ, and the whole document for a document item', () => {
    expect(copiedRuns('## A\nx', '## A\ny', [{ kind: 'section', heading: 'A' }])).toEqual([]);
    expect(copiedRuns('Doc.', 'Doc.', [{ kind: 'document' }])).toEqual([{ at: 0, length: 4, src: 0 }]);
  });

  it('a section placed next to a similar one leaves that one as it was (no re-inserted neighbour)', () => {
    const a3 = '## A3\nThe agent drafted claim 3 with evidence.';
    const a4 = '## A4\nThe agent drafted claim 4 with evidence.';
    const old = `## A2\nBody.\n\n${a3}`;
    const next = `## A2\nBody.\n\n${a4}\n\n${a3}`;
    const { patch } = applyDocumentChange(old, next, [{ at: old.indexOf(a3), length: a4.length, src: 0 }], [], 'src');
    expect(applyDocPatch(old, patch)).toBe(next);
    // Only the copied section and the blank line after it are inserted: A3 is kept as it was.
    expect(patch.filter((op) => 'i' in op)).toEqual([{ i: `${a4}\n\n` }]);
  });

  it('for any texts and runs, the patch makes the new text and inserts every run whole', () => {
    const piece = fc.constantFrom('a', 'b', ' ', '\n', '## ', 'ab.', 'x');
    const textArb = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(textArb, fc.array(fc.tuple(textArb, textArb), { maxLength: 3 }), textArb, (old, parts, tail) => {
        let next = '';
        const runs: { at: number; length: number; src: number }[] = [];
        for (const [plain, copied] of parts) {
          next += plain;
          if (copied.length > 0) runs.push({ at: next.length, length: copied.length, src: 0 });
          next += copied;
        }
        next += tail;
        // Adjacent runs are one copied run for the check below.
        const { patch } = applyDocumentChange(old, next, runs, [], 'src');
        expect(applyDocPatch(old, patch)).toBe(next);
        let newPos = 0;
        const inserted: boolean[] = [];
        for (const op of patch) {
          if ('r' in op) {
            for (let k = 0; k < op.r; k++) inserted[newPos++] = false;
          } else if ('i' in op) for (let k = 0; k < op.i.length; k++) inserted[newPos++] = true;
        }
        for (const run of runs) for (let k = run.at; k < run.at + run.length; k++) expect(inserted[k] ?? false).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
