/**
 * The sections of one document that applying would change on another, by the domain's section
 * rule (a heading and everything up to the next heading of the same or a higher level; see
 * `findSection` in the domain's apply module). An apply never deletes, so a section only on the
 * target is nothing to bring. Pure.
 */
import { markdownHeadings, sectionText } from '@trellis/domain';

export interface SectionDifference {
  readonly heading: string;
  readonly level: number;
  /** `added`: the target has no section with this heading (it would be appended); `edited`: it differs. */
  readonly status: 'added' | 'edited';
}

const trimEnd = (text: string) => text.replace(/\s+$/, '');

/** The sections of `source` (the first of each heading, the one an apply names) that differ on `target`. */
export function sectionsToApply(source: string, target: string): SectionDifference[] {
  const seen = new Set<string>();
  const differences: SectionDifference[] = [];
  for (const heading of markdownHeadings(source)) {
    const key = heading.text.replace(/\s+/g, ' ').trim();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    const there = sectionText(target, key);
    if (there !== null && trimEnd(there) === trimEnd(sectionText(source, key) ?? '')) continue;
    differences.push({ heading: key, level: heading.level, status: there === null ? 'added' : 'edited' });
  }
  return differences;
}
