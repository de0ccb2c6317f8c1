import { Decoration, EditorView, keymap, type DecorationSet } from '@codemirror/view';
import { Prec, StateField, type Extension } from '@codemirror/state';

export interface PassageSelection {
  start: number;
  end: number;
  quote: string;
}

/**
 * Comments in the document editor: each open passage comment highlighted (carried through the
 * person's typing until the next list arrives), Ctrl/Cmd+Alt+M to comment on the selection, and the
 * last non-empty selection reported so a "Comment" button outside the editor can use it.
 */
export function commentExtension(
  passages: readonly { id: string; start: number; end: number }[],
  handlers: { onCompose: (selection: PassageSelection) => void; onSelect: (selection: PassageSelection | null) => void },
): Extension {
  const build = (length: number): DecorationSet =>
    Decoration.set(
      passages
        .filter((p) => p.start < length && p.end > p.start)
        .map((p) =>
          Decoration.mark({ class: 'comment-mark', attributes: { 'data-comment-id': p.id, 'data-testid': 'comment-highlight' } }).range(
            p.start,
            Math.min(p.end, length),
          ),
        ),
      true,
    );
  const marks = StateField.define<DecorationSet>({
    create: (state) => build(state.doc.length),
    update: (set, tr) => set.map(tr.changes),
    provide: (field) => EditorView.decorations.from(field),
  });
  const selectionOf = (view: EditorView): PassageSelection | null => {
    const { from, to } = view.state.selection.main;
    return to > from ? { start: from, end: to, quote: view.state.sliceDoc(from, to) } : null;
  };
  return [
    marks,
    Prec.high(
      keymap.of([
        {
          key: 'Mod-Alt-m',
          run: (view) => {
            const selection = selectionOf(view);
            if (!selection) return false;
            handlers.onCompose(selection);
            return true;
          },
        },
      ]),
    ),
    EditorView.updateListener.of((update) => {
      if (update.selectionSet || update.docChanged) handlers.onSelect(selectionOf(update.view));
    }),
  ];
}
