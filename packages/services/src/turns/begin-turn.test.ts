import { describe, expect, it } from 'vitest';
import { titleFrom } from './begin-turn';

describe('titleFrom', () => {
  it('takes the first non-empty line without a directive prefix, clamped to 60 characters', () => {
    expect(titleFrom('\n  objective: Write an essay on trellises\ndoc: # Draft')).toBe('Write an essay on trellises');
    expect(titleFrom('What is a trellis?')).toBe('What is a trellis?');
    expect(titleFrom('x'.repeat(80))).toHaveLength(60);
    expect(titleFrom('   \n  ')).toBe('New conversation');
  });
});

describe('a title from a first message in markdown', () => {
  it('is plain text: no heading, emphasis, code or list markers, no directive prefix', () => {
    expect(titleFrom('## 3. Findings and open questions\n\nBody')).toBe('3. Findings and open questions');
    expect(titleFrom('append: ### 2b. Related **work**')).toBe('2b. Related work');
    expect(titleFrom('- the `trellis` tool')).toBe('the trellis tool');
  });
});
