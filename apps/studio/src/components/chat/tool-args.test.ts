import { describe, expect, it } from 'vitest';
import { toolArgsForDisplay } from './tool-args';

describe('toolArgsForDisplay', () => {
  const citations = [{ thread_id: 'th_other', turn: 2, label: '2.1' }];

  it('names the step a read_path call read by its label, never by the thread id', () => {
    const shown = toolArgsForDisplay('read_path', { thread_id: 'th_other', turn: 2, part: 'document' }, citations);
    expect(shown).toEqual({ step: '2.1', part: 'document' });
    expect(JSON.stringify(shown)).not.toContain('th_other');
  });

  it('says "another path" for a call whose step the reply did not cite (a refused read)', () => {
    expect(toolArgsForDisplay('read_path', { thread_id: 'th_gone', turn: 3 }, citations)).toEqual({ step: 'step 3 of another path' });
    expect(toolArgsForDisplay('read_path', { thread_id: 'th_gone' }, undefined)).toEqual({ step: 'another path' });
  });

  it('leaves every other tool’s arguments as sent', () => {
    const args = { text: 'Outline', thread_id: 'th_x' };
    expect(toolArgsForDisplay('create_todo', args, citations)).toBe(args);
  });
});
