/**
 * Markdown sections of a document, as the apply contract names them: a section is an ATX heading
 * (`#` to `######`, outside fenced code) and everything up to the next heading of the same or a
 * higher level, so a section carries its subsections. Named by the heading's text without the `#`s.
 * Pure: the compare view uses it to offer each section that differs between the two sides.
 */

export interface DocumentSection {
  readonly heading: string;
  readonly level: number;
  /** The section's text, heading line included. */
  readonly text: string;
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface HeadingLine {
  readonly line: number;
  readonly level: number;
  readonly heading: string;
}

function headingLines(lines: readonly string[]): HeadingLine[] {
  const found: HeadingLine[] = [];
  let fence: string | null = null;
  lines.forEach((line, index) => {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      return;
    }
    if (fence !== null) return;
    const match = HEADING.exec(line);
    const heading = match?.[2]?.trim() ?? '';
    if (match && heading !== '') found.push({ line: index, level: match[1]!.length, heading });
  });
  return found;
}

/** Every section of the document in order (nested ones too); the text before the first heading is none. */
export function documentSections(markdown: string): DocumentSection[] {
  const lines = markdown.split('\n');
  const headings = headingLines(lines);
  return headings.map((start, i) => {
    const next = headings.slice(i + 1).find((h) => h.level <= start.level);
    const end = next?.line ?? lines.length;
    return {
      heading: start.heading,
      level: start.level,
      text: lines.slice(start.line, end).join('\n').trimEnd(),
    };
  });
}

export interface SectionDifference {
  readonly heading: string;
  readonly level: number;
  /** `added`: the target has no section with this heading (it would be appended); `edited`: it differs. */
  readonly status: 'added' | 'edited';
}

/**
 * The sections of `source` that applying would change on `target`: the first section of each heading
 * (the one an apply names) that the target lacks or holds with other text.
 */
export function sectionsToApply(source: string, target: string): SectionDifference[] {
  const onTarget = new Map<string, string>();
  for (const section of documentSections(target)) {
    if (!onTarget.has(section.heading)) onTarget.set(section.heading, section.text);
  }
  const seen = new Set<string>();
  const differences: SectionDifference[] = [];
  for (const section of documentSections(source)) {
    if (seen.has(section.heading)) continue;
    seen.add(section.heading);
    const there = onTarget.get(section.heading);
    if (there === section.text) continue;
    differences.push({ heading: section.heading, level: section.level, status: there === undefined ? 'added' : 'edited' });
  }
  return differences;
}
