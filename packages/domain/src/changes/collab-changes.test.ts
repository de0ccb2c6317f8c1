import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changeSetJsonToDocPatch,
  docPatchToChangeSetJson,
  patchLengthDelta,
  type ChangeSetJson,
} from './collab-changes';
import { applyDocPatch, makeDocPatch } from './doc-patch';

/** Applies a change set's JSON form the way CodeMirror reads it (lines joined with "\n"). */
function applyJson(text: string, json: ChangeSetJson): string {
  let at = 0;
  let out = '';
  for (const part of json) {
    if (typeof part === 'number') {
      out += text.slice(at, at + part);
      at += part;
    } else {
      const [deleted, ...lines] = part;
      at += deleted;
      out += lines.join('\n');
    }
  }
  if (at !== text.length) throw new Error(`the change set covers ${at} of ${text.length} units`);
  return out;
}

const texty = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\r', 'é', '😀') });

describe('patches and CodeMirror change sets', () => {
  it('a patch and its change set make the same text, and the change set covers the whole old text', () => {
    fc.assert(
      fc.property(texty, texty, (a, b) => {
        const patch = makeDocPatch(a, b);
        const json = docPatchToChangeSetJson(patch, a.length);
        expect(applyJson(a, json)).toBe(b);
        expect(applyDocPatch(a, changeSetJsonToDocPatch(json))).toBe(b);
        expect(a.length + patchLengthDelta(patch)).toBe(b.length);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a carriage return as text instead of a line break', () => {
    const json = docPatchToChangeSetJson([{ r: 1 }, { i: 'x\r\ny' }], 2);
    expect(json).toEqual([1, [0, 'x\r', 'y'], 1]);
  });

  it('refuses a patch longer than the text it is said to apply to', () => {
    expect(() => docPatchToChangeSetJson([{ r: 3 }, { d: 2 }], 4)).toThrow(RangeError);
  });
});
