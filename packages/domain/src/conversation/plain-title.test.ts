import { describe, expect, it } from 'vitest';
import { plainTitle, plainTitleFromMessage } from './plain-title';

describe('a plain title', () => {
  it.each([
    ['## 3. Findings and open questions', '3. Findings and open questions'],
    ['### Methods', 'Methods'],
    ['**Bold** start of a review', 'Bold start of a review'],
    ['The `useEffect` cleanup', 'The useEffect cleanup'],
    ['- a bullet item', 'a bullet item'],
    ['* star bullet', 'star bullet'],
    ['1. first step', '1. first step'],
    ['> quoted line', 'quoted line'],
    ['append: ## 2b. Related work', '2b. Related work'],
    ['doc: # Review of the paper', 'Review of the paper'],
    ['todo: - [ ] check the numbers', 'check the numbers'],
    ['prefer: *short* sentences', 'short sentences'],
    ['Objective: write a three-page review', 'write a three-page review'],
    ['See [the paper](https://example.org/p.pdf) again', 'See the paper again'],
    ['~~old~~ new plan', 'old new plan'],
  ])('%s reads %s', (raw, plain) => {
    expect(plainTitle(raw)).toBe(plain);
  });

  it('leaves words that only look like markers alone', () => {
    expect(plainTitle('snake_case_names and 2*3*4')).toBe('snake_case_names and 2*3*4');
    expect(plainTitle('C# tips')).toBe('C# tips');
    expect(plainTitle('Regenerated at step 3')).toBe('Regenerated at step 3');
  });

  it('keeps a title that is only markers rather than making it empty', () => {
    expect(plainTitle('##')).toBe('##');
    expect(plainTitle('  ')).toBe('');
  });

  it('is idempotent', () => {
    for (const raw of ['## **A** `b`', 'append: - ### x', 'todo: [link](u)']) {
      expect(plainTitle(plainTitle(raw))).toBe(plainTitle(raw));
    }
  });
});

describe('a title from a first message', () => {
  it('takes the first line with words in it', () => {
    expect(plainTitleFromMessage('\n##\n## 3. Findings\n\nbody')).toBe('3. Findings');
    expect(plainTitleFromMessage('append: **Summary** of the review\nmore')).toBe('Summary of the review');
  });
});
