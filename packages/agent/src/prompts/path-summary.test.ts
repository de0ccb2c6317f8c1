import { describe, expect, it } from 'vitest';
import { parseDirectives } from '../models/offline-directives';
import { offlinePathSummary, pathSummaryPrompt } from './path-summary';

const prompt = pathSummaryPrompt({
  label: '4.1',
  omitted: 0,
  steps: [
    { label: '1', message: 'todo: Outline', changes: { words_added: 10, words_removed: 0, items_added: 1, items_removed: 0, items_edited: 0 } },
    { label: '2', message: null, changes: null },
    { label: '3.1', message: 'doc: # New', changes: { words_added: 2, words_removed: 5, items_added: 0, items_removed: 1, items_edited: 2 } },
  ],
});

describe('path summary', () => {
  it('holds no directive line, whatever the steps said', () => {
    expect(parseDirectives(prompt)).toEqual([]);
  });

  it('is answered offline with the counts per step and in total, deterministically', () => {
    expect(offlinePathSummary(prompt)).toBe(
      [
        'Path 4.1 has 3 steps: 12 words added and 5 removed, 1 items added, 1 removed and 2 edited.',
        '',
        '- Step 1: 10 words added, 0 removed; 1 items added, 0 removed, 0 edited',
        '- Step 2: changes unknown',
        '- Step 3.1: 2 words added, 5 removed; 0 items added, 1 removed, 2 edited',
      ].join('\n'),
    );
    expect(offlinePathSummary('hello')).toBeNull();
  });
});
