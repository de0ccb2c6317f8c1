import { describe, expect, it } from 'vitest';
import { ConversationExportQuerySchema, exportPart } from './exports';

const issuesOf = (query: Record<string, string>) => {
  const result = ConversationExportQuerySchema.safeParse(query);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('the conversation export query', () => {
  it('refuses the combinations that name no export, naming the field', () => {
    expect(issuesOf({ format: 'docx', part: 'path' })).toEqual(['part']);
    expect(issuesOf({ format: 'markdown', turn: '2' })).toEqual(['turn']);
    expect(issuesOf({ format: 'markdown', part: 'document', scope: 'family' })).toEqual(['scope']);
  });

  it('leaves the authorship report and the dataset to their own parameters', () => {
    expect(issuesOf({ format: 'authorship', part: 'path', turn: '1' })).toEqual([]);
    expect(issuesOf({ format: 'dataset', scope: 'family' })).toEqual([]);
  });

  it('takes a Word file as the document alone and Markdown as the path unless told', () => {
    expect(exportPart({ format: 'docx' })).toBe('document');
    expect(exportPart({ format: 'markdown' })).toBe('path');
    expect(exportPart({ format: 'markdown', part: 'document' })).toBe('document');
    expect(issuesOf({ format: 'docx', turn: '3' })).toEqual([]);
  });

  it('reads a query without a format as Markdown (the family zip is `?scope=family`)', () => {
    expect(ConversationExportQuerySchema.parse({ scope: 'family' })).toMatchObject({ format: 'markdown', scope: 'family' });
    expect(issuesOf({})).toEqual([]);
  });
});
