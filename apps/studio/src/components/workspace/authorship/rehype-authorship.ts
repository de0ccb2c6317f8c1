import { overlayKind, spanIndexAt, splitBySpans, type Authorship } from '@trellis/domain';
import { spanClasses, spanTitle, type SpanContext } from './span-title';

type Span = Authorship['spans'][number];

interface HastText {
  type: 'text';
  value: string;
  position?: { start: { offset?: number }; end: { offset?: number } };
}
interface HastElement {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: string; children?: HastNode[] };

/**
 * The authorship overlay in Preview: each rendered text node is split at span boundaries by its source
 * offsets (kept by the Markdown parser), each piece wrapped in a marked `<span>`. A text node whose
 * rendered text differs from its source (an escape, an entity, a code block) takes the span at its start.
 */
export function rehypeAuthorship(options: { spans: readonly Span[]; context: SpanContext }) {
  const { spans, context } = options;
  const wrap = (value: string, span: Span): HastElement => {
    const kind = overlayKind(span);
    return {
      type: 'element',
      tagName: 'span',
      properties: {
        className: spanClasses(span, context),
        title: spanTitle(span, context),
        dataAuthor: kind,
      },
      children: [{ type: 'text', value }],
    };
  };
  const walk = (node: HastNode): void => {
    if (!('children' in node) || !node.children) return;
    const out: HastNode[] = [];
    for (const child of node.children) {
      const from = child.type === 'text' ? (child as HastText).position?.start.offset : undefined;
      const to = child.type === 'text' ? (child as HastText).position?.end.offset : undefined;
      if (from === undefined || to === undefined || spans.length === 0) {
        walk(child);
        out.push(child);
        continue;
      }
      const text = child as HastText;
      if (to - from !== text.value.length) {
        const span = spans[spanIndexAt(spans, from)];
        out.push(span && span.start <= from && from < span.end ? wrap(text.value, span) : text);
        continue;
      }
      let at = 0;
      for (const piece of splitBySpans(spans, from, text.value)) {
        if (piece.start > at) out.push({ type: 'text', value: text.value.slice(at, piece.start) });
        out.push(wrap(text.value.slice(piece.start, piece.end), piece.span));
        at = piece.end;
      }
      if (at < text.value.length) out.push({ type: 'text', value: text.value.slice(at) });
    }
    node.children = out;
  };
  return (tree: HastNode) => walk(tree);
}
