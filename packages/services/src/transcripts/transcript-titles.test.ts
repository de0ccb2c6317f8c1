// A Claude Code session is titled by its own title lines before its first prompt: the title a
// person gave it, else the one Claude Code wrote (ai-title, then summary). A folder path in the
// first prompt's IDE context never names it when the session has a title.
import { describe, expect, it } from 'vitest';
import { claudeCodeSessionTitle } from './transcript-titles';

const line = (value: Record<string, unknown>) => JSON.stringify(value);
const prompt = line({
  type: 'user',
  uuid: 'u1',
  parentUuid: null,
  message: { role: 'user', content: 'C:\\Users\\someone\\project' },
});

describe('claudeCodeSessionTitle', () => {
  it('takes the last custom title over an ai-title and a summary', () => {
    const content = [
      line({ type: 'summary', summary: 'Summary title', leafUuid: 'a1' }),
      line({ type: 'ai-title', aiTitle: 'AI title', sessionId: 's' }),
      line({ type: 'custom-title', customTitle: 'First name', sessionId: 's' }),
      prompt,
      line({ type: 'custom-title', customTitle: 'Chosen name', sessionId: 's' }),
    ].join('\n');
    expect(claudeCodeSessionTitle(content)).toBe('Chosen name');
  });

  it('falls back to the ai-title, then to the summary', () => {
    expect(
      claudeCodeSessionTitle([prompt, line({ type: 'ai-title', aiTitle: 'Fix the parser' })].join('\n')),
    ).toBe('Fix the parser');
    expect(claudeCodeSessionTitle([line({ type: 'summary', summary: 'Bug hunt' }), prompt].join('\n'))).toBe(
      'Bug hunt',
    );
  });

  it('has none when the file names none, so the first prompt titles it', () => {
    expect(claudeCodeSessionTitle(prompt)).toBeUndefined();
    expect(claudeCodeSessionTitle(line({ type: 'ai-title', aiTitle: '   ' }))).toBeUndefined();
  });
});
