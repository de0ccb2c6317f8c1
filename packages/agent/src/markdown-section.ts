// The meaning of `WorkspacePort.replaceSection`, as a pure function so the
// services layer and the test fake implement the same rule.
//
// A section is an ATX heading (`#` … `######`) and the lines after it up to the
// next heading of the same or a higher level. Headings inside fenced code
// blocks do not count. `heading` may be given with or without its `#` marks;
// it matches the first heading whose text is equal ignoring case and
// surrounding whitespace. When no heading matches, the section is appended
// (level 2 unless `heading` carried its own `#` marks).

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^[ \t]*(```|~~~)/;

interface ParsedHeading {
  level: number;
  text: string;
}

function parseHeadingArgument(heading: string): ParsedHeading {
  const match = HEADING.exec(heading.trim());
  if (match?.[1] !== undefined && match[2] !== undefined) return { level: match[1].length, text: match[2].trim() };
  return { level: 2, text: heading.trim() };
}

export function replaceMarkdownSection(document: string, heading: string, content: string): string {
  const target = parseHeadingArgument(heading);
  const wanted = target.text.toLowerCase();
  const lines = document.split('\n');
  const body = content.replace(/^\n+|\n+$/g, '');

  let inFence = false;
  let start = -1;
  let level = 0;
  let end = lines.length;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (FENCE.test(line)) inFence = !inFence;
    if (inFence) continue;
    const match = HEADING.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    if (start === -1) {
      if (match[2].trim().toLowerCase() === wanted) {
        start = i;
        level = match[1].length;
      }
    } else if (match[1].length <= level) {
      end = i;
      break;
    }
  }

  if (start === -1) {
    const section = `${'#'.repeat(target.level)} ${target.text}\n\n${body}\n`;
    const trimmed = document.replace(/\s+$/, '');
    return trimmed === '' ? section : `${trimmed}\n\n${section}`;
  }
  const before = lines.slice(0, start + 1);
  const after = lines.slice(end);
  const middle = body === '' ? [''] : ['', body, ''];
  return [...before, ...middle, ...after].join('\n');
}
