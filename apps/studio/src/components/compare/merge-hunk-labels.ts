import { getChunks } from '@codemirror/merge';
import { RangeSet, RangeValue, StateField, type EditorState, type Extension, type Range } from '@codemirror/state';
import { Decoration, EditorView, WidgetType, type DecorationSet } from '@codemirror/view';

/** A hunk of the merge to label: its range in the editable text and who made it. */
export interface LabelledHunk {
  fromB: number;
  toB: number;
  label: string;
  side: 'mine' | 'theirs' | 'both';
}

class HunkMarker extends RangeValue {
  constructor(
    readonly label: string,
    readonly side: LabelledHunk['side'],
  ) {
    super();
  }
  override eq(other: RangeValue): boolean {
    return other instanceof HunkMarker && other.label === this.label && other.side === this.side;
  }
}

class LabelWidget extends WidgetType {
  constructor(
    readonly label: string,
    readonly side: LabelledHunk['side'],
  ) {
    super();
  }
  override eq(other: LabelWidget): boolean {
    return other.label === this.label && other.side === this.side;
  }
  toDOM(): HTMLElement {
    const el = document.createElement('div');
    el.className = `cm-hunk-label cm-hunk-label-${this.side}`;
    el.dataset.testid = 'merge-hunk-label';
    el.dataset.side = this.side;
    el.textContent = this.label;
    return el;
  }
  override ignoreEvent(): boolean {
    return false;
  }
}

/**
 * A label above each changed chunk naming who made it ("Your edit", "The agent’s change"). The
 * hunks' ranges follow the text as the person accepts, rejects and types; a chunk that is settled
 * (accepted or rejected) loses its label with it.
 */
export function mergeHunkLabels(hunks: readonly LabelledHunk[]): Extension {
  const markers = StateField.define<RangeSet<HunkMarker>>({
    create: () =>
      RangeSet.of(
        hunks.map((h) => new HunkMarker(h.label, h.side).range(h.fromB, Math.max(h.toB, h.fromB))),
        true,
      ),
    update: (value, tr) => value.map(tr.changes),
  });
  const labels = StateField.define<DecorationSet>({
    create: (state) => labelsOf(state, state.field(markers)),
    update: (_value, tr) => labelsOf(tr.state, tr.state.field(markers)),
    provide: (field) => EditorView.decorations.from(field),
  });
  return [markers, labels, labelTheme];
}

function labelsOf(state: EditorState, markers: RangeSet<HunkMarker>): DecorationSet {
  const chunks = getChunks(state)?.chunks ?? [];
  const out: Range<Decoration>[] = [];
  for (const chunk of chunks) {
    const names: { label: string; side: LabelledHunk['side'] }[] = [];
    // A chunk of a pure deletion has no width in the editable text: look at its point.
    markers.between(chunk.fromB, Math.max(chunk.toB, chunk.fromB), (from, to, marker) => {
      if (to < chunk.fromB || from > Math.max(chunk.toB, chunk.fromB)) return;
      if (!names.some((n) => n.label === marker.label)) names.push({ label: marker.label, side: marker.side });
    });
    if (names.length === 0) continue;
    const side = names.every((n) => n.side === names[0]!.side) ? names[0]!.side : 'both';
    const at = state.doc.lineAt(Math.min(chunk.fromB, state.doc.length)).from;
    out.push(Decoration.widget({ widget: new LabelWidget(names.map((n) => n.label).join(' · '), side), block: true, side: -1 }).range(at));
  }
  return Decoration.set(out, true);
}

const labelTheme = EditorView.baseTheme({
  '.cm-hunk-label': {
    fontFamily: 'ui-sans-serif, system-ui, sans-serif',
    fontSize: '11px',
    fontWeight: '600',
    padding: '2px 6px',
    marginTop: '4px',
    borderLeft: '3px solid #475569',
    color: '#1e293b',
    backgroundColor: '#f1f5f9',
  },
  '.cm-hunk-label-mine': { borderLeftColor: '#166534' },
  '.cm-hunk-label-theirs': { borderLeftColor: '#1d4ed8' },
  '.cm-hunk-label-both': { borderLeftColor: '#b45309' },
});
