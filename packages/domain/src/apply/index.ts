export * from './contracts';
export { applyEntryText, describe as describeApplyItem, planApply, todoSubtree, type ApplyArtifact, type ApplyPlan, type ApplyState } from './plan';
export { findSection, headingKey, markdownHeadings, placeSection, putSection, sectionText, sourcePlace, splitMarkdownParts, type MarkdownHeading, type MarkdownPart, type SectionPlace } from './sections';
