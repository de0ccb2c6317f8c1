import { overlayKind, type Authorship } from '@trellis/domain';
import { Decoration, EditorView, hoverTooltip, type DecorationSet } from '@codemirror/view';
import { StateField, type EditorState, type Extension } from '@codemirror/state';
import { spanClasses, spanTitle, type SpanContext } from './span-title';

/** The text a mark's hover shows, kept in the decoration's spec. */
interface MarkSpec {
  class: string;
  attributes: Record<string, string>;
  hover: string;
}

/**
 * The authorship overlay in the editor: one mark per span, carried through the person's typing
 * (`DecorationSet.map`) until the next spans arrive, so a stale overlay never lands on the wrong text.
 * Hovering a mark shows who wrote it, the step, when, and the agent's tool call in a tooltip.
 */
export function authorshipExtension(authorship: Authorship, context: SpanContext): Extension {
  const build = (length: number): DecorationSet =>
    Decoration.set(
      authorship.spans
        .filter((span) => span.start < length)
        .map((span) => {
          const kind = overlayKind(span);
          const spec: MarkSpec = {
            class: spanClasses(span, context).join(' '),
            attributes: { 'data-author': kind },
            hover: spanTitle(span, context),
          };
          return Decoration.mark(spec).range(span.start, Math.min(span.end, length));
        }),
    );
  const marks = StateField.define<DecorationSet>({
    create: (state) => build(state.doc.length),
    update: (set, tr) => set.map(tr.changes),
    provide: (field) => EditorView.decorations.from(field),
  });
  const hover = hoverTooltip((view, pos, side) => {
    const found = markAt(view.state.field(marks), pos, side);
    if (!found) return null;
    const { from, to, text } = found;
    return {
      pos: from,
      end: to,
      above: true,
      create: () => {
        const dom = document.createElement('div');
        dom.className = 'authorship-tooltip';
        dom.setAttribute('role', 'tooltip');
        dom.dataset.testid = 'authorship-tooltip';
        dom.textContent = text;
        return { dom };
      },
    };
  });
  return [marks, hover];
}

/** The mark under `pos`: at a boundary, `side` (which side of it the pointer is on) decides. */
export function markAt(
  set: DecorationSet,
  pos: number,
  side: -1 | 1,
): { from: number; to: number; text: string } | null {
  let found: { from: number; to: number; text: string } | null = null;
  set.between(pos, pos, (from, to, value) => {
    if (side < 0 ? from < pos && pos <= to : from <= pos && pos < to) {
      found = { from, to, text: (value.spec as MarkSpec).hover };
      return false;
    }
    return undefined;
  });
  return found;
}

/** The overlay's marks in `state` (for tests and the hover). */
export function authorshipMarks(state: EditorState): DecorationSet {
  for (const source of state.facet(EditorView.decorations)) if (typeof source !== 'function') return source;
  return Decoration.none;
}
