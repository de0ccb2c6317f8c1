// A Markdown document as a Word file: parsed with mdast (GFM: tables, strikethrough, task lists,
// autolinks, footnotes) and written with the `docx` library, so Word and LibreOffice open it
// without a repair prompt. Headings, paragraphs, emphasis, nested lists, tables (inside lists and
// quotes too), links, code blocks, block quotes and footnotes map to Word's own structures
// (heading styles, numbering, tables, hyperlinks, footnotes). Word has no task-list checkbox
// paragraph: a task is a list item opening with ☐ or ☒. An image is a link to its address (the
// export holds text only), named by its alt text.
import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type IRunOptions,
  type ParagraphChild,
} from 'docx';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type {
  BlockContent,
  DefinitionContent,
  FootnoteDefinition,
  List,
  ListItem,
  PhrasingContent,
  Root,
  RootContent,
  TableCell as MdTableCell,
} from 'mdast';

type Block = Paragraph | Table;
type RunStyle = Pick<IRunOptions, 'bold' | 'italics' | 'strike' | 'font' | 'style'>;

const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;
const ORDERED = 'trellis-ordered';
const MONO = 'Consolas';
/** Word's list indent per level, in twentieths of a point. */
const INDENT = 360;

/** The Markdown as a .docx file's bytes; `title` goes into the file's properties. */
export async function markdownToDocx(markdown: string, options: { title: string }): Promise<Uint8Array> {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const writer = new DocxWriter(footnoteDefinitions(tree));
  const children = writer.blocks(tree);
  const document = new Document({
    title: options.title,
    creator: 'Trellis',
    footnotes: writer.footnotes(),
    numbering: {
      config: [
        {
          reference: ORDERED,
          levels: Array.from({ length: 9 }, (_, level) => ({
            level,
            format: [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN][level % 3],
            text: `%${level + 1}.`,
            alignment: AlignmentType.START,
            style: { paragraph: { indent: { left: INDENT * (level + 1), hanging: INDENT / 1.5 } } },
          })),
        },
      ],
    },
    styles: { paragraphStyles: [{ id: 'Code', name: 'Code', basedOn: 'Normal', run: { font: MONO, size: 20 }, paragraph: { spacing: { before: 0, after: 0 } } }] },
    sections: [{ children: children.length > 0 ? children : [new Paragraph('')] }],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

/** Every footnote definition of the tree by its identifier (the first one wins, as in GFM). */
function footnoteDefinitions(tree: Root): Map<string, FootnoteDefinition> {
  const found = new Map<string, FootnoteDefinition>();
  const visit = (node: { type: string; children?: unknown[] }) => {
    if (node.type === 'footnoteDefinition') {
      const definition = node as FootnoteDefinition;
      if (!found.has(definition.identifier)) found.set(definition.identifier, definition);
    }
    for (const child of node.children ?? []) visit(child as { type: string; children?: unknown[] });
  };
  visit(tree);
  return found;
}

class DocxWriter {
  /** Each ordered list gets its own numbering instance, so it starts at its own first number. */
  private nextInstance = 1;
  /** Word's footnote ids, numbered 1, 2, … in the order the text first refers to each note. */
  private readonly footnoteIds = new Map<string, number>();
  private readonly footnoteBodies = new Map<number, Paragraph[]>();

  constructor(private readonly definitions: ReadonlyMap<string, FootnoteDefinition>) {}

  /** The footnotes referred to, for the Document's `footnotes` option. */
  footnotes(): Record<number, { children: Paragraph[] }> {
    const out: Record<number, { children: Paragraph[] }> = {};
    for (const [id, children] of this.footnoteBodies) out[id] = { children };
    return out;
  }

  /** Word's id of a note, writing its body on first reference; undefined when it has no definition. */
  private footnoteId(identifier: string): number | undefined {
    const known = this.footnoteIds.get(identifier);
    if (known !== undefined) return known;
    const definition = this.definitions.get(identifier);
    if (definition === undefined) return undefined;
    const id = this.footnoteIds.size + 1;
    this.footnoteIds.set(identifier, id);
    // A note's body is paragraphs only in Word's footnote part: a table or list in a note keeps
    // its text, one paragraph per block.
    const body = this.blocks(definition).filter((block): block is Paragraph => block instanceof Paragraph);
    this.footnoteBodies.set(id, body.length > 0 ? body : [new Paragraph('')]);
    return id;
  }

  blocks(parent: Root | { children: (BlockContent | DefinitionContent | RootContent)[] }, quoteDepth = 0): Block[] {
    const out: Block[] = [];
    for (const node of parent.children) out.push(...this.block(node, quoteDepth));
    return out;
  }

  /** `listLevel`: the list item the block sits in (-1 outside lists); Word has no list container, so a table there is indented to the item. */
  private block(node: RootContent, quoteDepth: number, listLevel = -1): Block[] {
    const quote = quoteDepth > 0 ? { indent: { left: INDENT * 2 * quoteDepth }, border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'A0A0A0', space: 8 } } } : {};
    switch (node.type) {
      case 'heading':
        return [new Paragraph({ heading: HEADINGS[Math.min(6, node.depth) - 1], children: this.inline(node.children, {}), ...quote })];
      case 'paragraph':
        return [new Paragraph({ children: this.inline(node.children, quoteDepth > 0 ? { italics: true } : {}), ...quote })];
      case 'blockquote':
        return this.blocks(node, quoteDepth + 1);
      case 'list':
        return this.list(node, 0, quoteDepth);
      case 'code':
        return (node.value === '' ? [''] : node.value.split('\n')).map(
          (line) =>
            new Paragraph({
              style: 'Code',
              shading: { type: ShadingType.CLEAR, fill: 'F3F3F3', color: 'auto' },
              children: [new TextRun({ text: line, font: MONO })],
              ...quote,
            }),
        );
      case 'table':
        return [this.table(node.children.map((row) => row.children), INDENT * 2 * quoteDepth + INDENT * (listLevel + 1))];
      case 'thematicBreak':
        return [new Paragraph({ border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'A0A0A0', space: 1 } }, children: [] })];
      case 'html':
        return node.value.trim() === '' ? [] : [new Paragraph({ children: [new TextRun({ text: node.value, font: MONO })], ...quote })];
      case 'definition':
      case 'footnoteDefinition':
        return [];
      default:
        // Phrasing content at block level (rare in mdast): one paragraph of it.
        return 'children' in node || 'value' in node ? [new Paragraph({ children: this.inline([node as PhrasingContent], {}) })] : [];
    }
  }

  private list(list: List, level: number, quoteDepth: number): Block[] {
    const instance = list.ordered ? this.nextInstance++ : 0;
    const out: Block[] = [];
    for (const item of list.children) out.push(...this.listItem(item, list, level, instance, quoteDepth));
    return out;
  }

  private listItem(item: ListItem, list: List, level: number, instance: number, quoteDepth: number): Block[] {
    const out: Block[] = [];
    const marker = list.ordered ? { numbering: { reference: ORDERED, level, instance } } : { bullet: { level } };
    let first = true;
    for (const child of item.children) {
      if (child.type === 'list') {
        out.push(...this.list(child, Math.min(8, level + 1), quoteDepth));
        continue;
      }
      if (child.type !== 'paragraph') {
        out.push(...this.block(child, quoteDepth, level));
        continue;
      }
      const check = first && typeof item.checked === 'boolean' ? [new TextRun({ text: item.checked ? '☒ ' : '☐ ' })] : [];
      out.push(
        new Paragraph({
          ...(first ? marker : { indent: { left: INDENT * (level + 1) } }),
          children: [...check, ...this.inline(child.children, {})],
        }),
      );
      first = false;
    }
    if (first) out.push(new Paragraph({ ...marker, children: [] }));
    return out;
  }

  private table(rows: MdTableCell[][], indent: number): Table {
    const columns = Math.max(1, ...rows.map((row) => row.length));
    return new Table({
      width: { size: 100, type: WidthType.PERCENTAGE },
      ...(indent > 0 ? { indent: { size: indent, type: WidthType.DXA } } : {}),
      rows: rows.map(
        (cells, r) =>
          new TableRow({
            ...(r === 0 ? { tableHeader: true } : {}),
            children: Array.from({ length: columns }, (_, c) => {
              const cell = cells[c];
              return new TableCell({
                children: [new Paragraph({ children: cell ? this.inline(cell.children, r === 0 ? { bold: true } : {}) : [] })],
              });
            }),
          }),
      ),
    });
  }

  private inline(nodes: readonly PhrasingContent[], style: RunStyle): ParagraphChild[] {
    const out: ParagraphChild[] = [];
    for (const node of nodes) {
      switch (node.type) {
        case 'text':
          out.push(new TextRun({ text: node.value.replace(/\n/g, ' '), ...style }));
          break;
        case 'strong':
          out.push(...this.inline(node.children, { ...style, bold: true }));
          break;
        case 'emphasis':
          out.push(...this.inline(node.children, { ...style, italics: true }));
          break;
        case 'delete':
          out.push(...this.inline(node.children, { ...style, strike: true }));
          break;
        case 'inlineCode':
          out.push(new TextRun({ text: node.value, ...style, font: MONO }));
          break;
        case 'break':
          out.push(new TextRun({ text: '', break: 1 }));
          break;
        case 'link':
          out.push(
            safeLink(node.url)
              ? new ExternalHyperlink({ link: node.url, children: this.runs(node.children, { ...style, style: 'Hyperlink' }) })
              : new TextRun({ text: plainText(node.children), ...style }),
          );
          break;
        case 'image': {
          const label = node.alt ? `Image: ${node.alt}` : 'Image';
          out.push(
            safeLink(node.url)
              ? new ExternalHyperlink({ link: node.url, children: [new TextRun({ text: label, ...style, style: 'Hyperlink' })] })
              : new TextRun({ text: `[${label}]`, ...style, italics: true }),
          );
          break;
        }
        case 'html':
          out.push(new TextRun({ text: node.value, ...style }));
          break;
        case 'footnoteReference': {
          const id = this.footnoteId(node.identifier);
          out.push(id === undefined ? new TextRun({ text: `[^${node.label ?? node.identifier}]`, ...style }) : new FootnoteReferenceRun(id));
          break;
        }
        default:
          if ('children' in node) out.push(...this.inline(node.children, style));
          else if ('value' in node && typeof node.value === 'string') out.push(new TextRun({ text: node.value, ...style }));
      }
    }
    return out;
  }

  /** A hyperlink holds runs only. */
  private runs(nodes: readonly PhrasingContent[], style: RunStyle): TextRun[] {
    return this.inline(nodes, style).filter((child): child is TextRun => child instanceof TextRun);
  }
}

function safeLink(url: string): boolean {
  return /^(https?:|mailto:)/i.test(url);
}

function plainText(nodes: readonly PhrasingContent[]): string {
  return nodes.map((node) => ('value' in node && typeof node.value === 'string' ? node.value : 'children' in node ? plainText(node.children) : '')).join('');
}
