import { overlayKind, type Authorship } from '@trellis/domain';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import { StateField, type Extension } from '@codemirror/state';
import { spanTitle } from './span-title';

/**
 * The authorship overlay in the editor: one mark per span, carried through the person's typing
 * (`DecorationSet.map`) until the next spans arrive, so a stale overlay never lands on the wrong text.
 */
export function authorshipExtension(authorship: Authorship, labels: ReadonlyMap<number, string>): Extension {
  const build = (length: number): DecorationSet =>
    Decoration.set(
      authorship.spans
        .filter((span) => span.start < length)
        .map((span) => {
          const kind = overlayKind(span);
          return Decoration.mark({
            class: `authorship-mark authorship-${kind}`,
            attributes: { title: spanTitle(span, labels), 'data-author': kind },
          }).range(span.start, Math.min(span.end, length));
        }),
    );
  return StateField.define<DecorationSet>({
    create: (state) => build(state.doc.length),
    update: (marks, tr) => marks.map(tr.changes),
    provide: (field) => EditorView.decorations.from(field),
  });
}
