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
