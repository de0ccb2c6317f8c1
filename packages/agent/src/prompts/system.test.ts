import { describe, expect, it } from 'vitest';
import type { WorkspaceView } from '../workspace-port';
import { buildSystemPrompt, formatTodos, LOCKED_MARK } from './system';

const view: WorkspaceView = {
  objective: 'A field guide to urban birds',
  document: { title: 'Birds', content: '# Birds\n\n## Pigeons\nEverywhere.' },
  preferences: [
    { id: 'pf1', text: 'British spelling', locked: true },
    { id: 'pf2', text: 'Short sentences', locked: false },
  ],
  todos: [
    { id: 'td1', text: 'Outline', done: true, depth: 0 },
    { id: 'td2', text: 'Pigeons', done: false, depth: 1 },
    { id: 'td3', text: 'Feral ones', done: false, depth: 2 },
  ],
  artifacts: [{ id: 'ar1', number: 2, turn_index: 3, kind: 'outline', title: 'First outline' }],
};

describe('buildSystemPrompt', () => {
  const prompt = buildSystemPrompt(view);

  it('shows the objective and the whole document', () => {
    expect(prompt).toContain('## Objective\nA field guide to urban birds');
    expect(prompt).toContain('## Document: Birds\n<document>\n# Birds\n\n## Pigeons\nEverywhere.\n</document>');
  });

  it('marks locked preferences, and only those', () => {
    expect(prompt).toContain(`- [pf1] British spelling (${LOCKED_MARK})`);
    expect(prompt).toContain('- [pf2] Short sentences\n');
    expect(LOCKED_MARK).toBe('LOCKED — never change');
  });

  it('indents todos by depth with their done flags and ids', () => {
    expect(formatTodos(view.todos)).toBe('- [x] Outline [td1]\n  - [ ] Pigeons [td2]\n    - [ ] Feral ones [td3]');
    expect(prompt).toContain('    - [ ] Feral ones [td3]');
  });

  it('lists artifact titles by their family number, not their content or row id', () => {
    expect(prompt).toContain('- 2. First outline (outline, turn 3)');
  });

  it('says so when the workspace is empty', () => {
    const empty = buildSystemPrompt({
      objective: null,
      document: { title: '', content: '' },
      preferences: [],
      todos: [],
      artifacts: [],
    });
    expect(empty).toContain('## Objective\n(not set)');
    expect(empty).toContain('## Document: (untitled)\n<document>\n(empty)\n</document>');
    expect(empty).toContain('## Todos\n(none)');
  });
});
