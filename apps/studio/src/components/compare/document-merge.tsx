'use client';
import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';

const readOnly = [EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.lineWrapping];

/**
 * The document diff of a compare: unified by default, side by side when asked (wide screens).
 * Read-only; the comparison itself comes from the server, this only draws the two texts.
 */
export default function DocumentMerge({
  a,
  b,
  sideBySide,
  names = { a: 'A', b: 'B' },
  testId = 'compare-document',
  onChange,
}: {
  a: string;
  b: string;
  sideBySide: boolean;
  /** How the sides are called in the editors' accessible names. */
  names?: { a: string; b: string };
  testId?: string;
  /**
   * Makes B editable, with accept/reject controls on each changed chunk (the merge view of a
   * document save that overlapped edits made meanwhile: A is the current text, B the person's).
   */
  onChange?: (text: string) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  const isEditable = onChange !== undefined;
  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    const label = (name: string) => EditorView.contentAttributes.of({ 'aria-label': name });
    if (isEditable) {
      const view = new EditorView({
        parent,
        state: EditorState.create({
          doc: b,
          extensions: [
            EditorView.lineWrapping,
            label(`Merge of ${names.b} into ${names.a}`),
            unifiedMergeView({ original: a, mergeControls: true }),
            // CodeMirror's own accept/reject colours are too light for white text (axe: color-contrast).
            EditorView.theme({
              '.cm-chunkButtons button[name=accept]': { backgroundColor: '#166534', color: '#fff' },
              '.cm-chunkButtons button[name=reject]': { backgroundColor: '#991b1b', color: '#fff' },
            }),
            EditorView.updateListener.of((update) => {
              if (update.docChanged) onChangeRef.current?.(update.state.doc.toString());
            }),
          ],
        }),
      });
      return () => view.destroy();
    }
    if (sideBySide) {
      const view = new MergeView({
        a: { doc: a, extensions: [...readOnly, label(`Document at ${names.a}`)] },
        b: { doc: b, extensions: [...readOnly, label(`Document at ${names.b}`)] },
        parent,
        collapseUnchanged: { margin: 3, minSize: 6 },
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
          unifiedMergeView({ original: a, mergeControls: false, collapseUnchanged: { margin: 3, minSize: 6 } }),
        ],
      }),
    });
    return () => view.destroy();
  }, [a, b, sideBySide, names.a, names.b, isEditable]);
  return <div ref={host} data-testid={testId} className="rounded-md border text-[13px]" />;
}
