/**
 * The sections of one document that applying would change on another, by the domain's section
 * rule (a heading and everything up to the next heading of the same or a higher level; see
 * `findSection` in the domain's apply module), judged by the apply's own `putSection`, so the list
 * offers exactly what an apply would change. An apply never deletes, so a section only on the target
 * is nothing to bring. Pure.
 */
import { headingKey, markdownHeadings, putSection, sectionText } from '@trellis/domain';

export interface SectionDifference {
  readonly heading: string;
  readonly level: number;
  /** `added`: the target has no section with this heading (it would be appended); `edited`: it differs. */
  readonly status: 'added' | 'edited';
}

/** The sections of `source` (the first of each heading, the one an apply names) that differ on `target`. */
export function sectionsToApply(source: string, target: string): SectionDifference[] {
  const seen = new Set<string>();
  const differences: SectionDifference[] = [];
  for (const heading of markdownHeadings(source)) {
    const key = headingKey(heading.text);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    const { effect } = putSection(target, key, sectionText(source, key) ?? '');
    if (effect === 'unchanged') continue;
    differences.push({ heading: key, level: heading.level, status: effect === 'added' ? 'added' : 'edited' });
  }
  return differences;
}
