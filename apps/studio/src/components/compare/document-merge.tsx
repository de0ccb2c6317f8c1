'use client';
import { Change, MergeView, unifiedMergeView, type DiffConfig } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { normalizeForDiff, readableDiff } from '@trellis/domain';

/**
 * The fold reads "35 unchanged lines" in plain text: the package draws "⦚" marks around it, a glyph
 * many fonts lack (it rendered as boxes).
 */
const plainFold = EditorView.theme({
  '.cm-collapsedLines': { fontFamily: 'inherit', fontSize: '12px', padding: '4px 10px' },
  '.cm-collapsedLines:before': { content: '""', display: 'none' },
  '.cm-collapsedLines:after': { content: '""', display: 'none' },
});

const readOnly = [EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.lineWrapping, plainFold];

/** Lines first, then words inside changed lines (domain's readableDiff), instead of a character diff. */
const diffConfig: DiffConfig = {
  override: (a, b) => readableDiff(a, b).map((r) => new Change(r.fromA, r.toA, r.fromB, r.toB)),
};

/**
 * The document diff of a compare: unified by default, side by side when asked (wide screens).
 * Read-only; the comparison itself comes from the server, this only draws the two texts.
 */
export default function DocumentMerge({
  a: rawA,
  b: rawB,
  sideBySide,
  names = { a: 'A', b: 'B' },
  testId = 'compare-document',
}: {
  a: string;
  b: string;
  sideBySide: boolean;
  /** How the sides are called in the editors' accessible names. */
  names?: { a: string; b: string };
  testId?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    // Compared as read: line endings and trailing spaces are not changes.
    const [a, b] = [normalizeForDiff(rawA), normalizeForDiff(rawB)];
    const label = (name: string) => EditorView.contentAttributes.of({ 'aria-label': name });
    if (sideBySide) {
      const view = new MergeView({
        a: { doc: a, extensions: [...readOnly, label(`Document at ${names.a}`)] },
        b: { doc: b, extensions: [...readOnly, label(`Document at ${names.b}`)] },
        parent,
        collapseUnchanged: { margin: 3, minSize: 6 },
        diffConfig,
      });
      return () => view.destroy();
    }
    const view = new EditorView({
      parent,
      state: EditorState.create({
        doc: b,
        extensions: [
          ...readOnly,
          label(`Document diff, ${names.a} to ${names.b}`),
          unifiedMergeView({ original: a, mergeControls: false, collapseUnchanged: { margin: 3, minSize: 6 }, diffConfig }),
        ],
      }),
    });
    return () => view.destroy();
  }, [rawA, rawB, sideBySide, names.a, names.b]);
  return <div ref={host} data-testid={testId} className="rounded-md border text-[13px]" />;
}
