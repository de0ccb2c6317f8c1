export * from './contracts';
export { applyEntryText, describe as describeApplyItem, planApply, todoSubtree, type ApplyArtifact, type ApplyPlan, type ApplyState } from './plan';
export { findSection, headingKey, markdownHeadings, putSection, sectionText, splitMarkdownParts, type MarkdownHeading, type MarkdownPart } from './sections';
