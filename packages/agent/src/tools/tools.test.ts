import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createInMemoryWorkspace } from '../testing/in-memory-workspace';
import { findTodoByText } from './todos';
import { findTool, WORKSPACE_TOOLS } from './index';

const run = (name: string, args: unknown, workspace = createInMemoryWorkspace()) => findTool(name)!.execute(workspace, args);

describe('workspace tools', () => {
  it('offers every tool of the studio issue, each argument described for the model', () => {
    expect(WORKSPACE_TOOLS.map((t) => t.name)).toEqual([
      'set_objective',
      'write_document',
      'replace_section',
      'add_preference',
      'update_preference',
      'remove_preference',
      'add_todo',
      'update_todo',
      'complete_todo',
      'remove_todo',
      'create_artifact',
    ]);
    for (const tool of WORKSPACE_TOOLS) {
      const schema = z.toJSONSchema(tool.schema, { io: 'input' }) as { properties: Record<string, { description?: string }> };
      for (const [field, spec] of Object.entries(schema.properties)) {
        expect(spec.description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });

  it('never changes a locked preference: the refusal is the result, not a failure', async () => {
    const workspace = createInMemoryWorkspace({ preferences: [{ id: 'p1', text: 'British spelling', locked: true }] });
    const update = await run('update_preference', { id: 'p1', text: 'American spelling' }, workspace);
    const remove = await run('remove_preference', { id: 'p1' }, workspace);
    expect(update).toEqual({ result: 'Refused: preference p1 is locked', isError: true });
    expect(remove.isError).toBe(true);
    expect(workspace.state.preferences).toEqual([{ id: 'p1', text: 'British spelling', locked: true }]);
  });

  it('answers invalid arguments with a short error', async () => {
    const result = await run('add_todo', { text: '', depth: 99 });
    expect(result.isError).toBe(true);
    expect(result.result).toMatch(/^Invalid arguments: text: must not be empty; depth:/);
    expect((await run('write_document', { mode: 'rewrite', content: 'x' })).isError).toBe(true);
  });

  it('writes the document by replace, append and section', async () => {
    const workspace = createInMemoryWorkspace();
    await run('write_document', { mode: 'replace', content: '# A\n\n## B\nold', title: 'T' }, workspace);
    await run('replace_section', { heading: 'B', content: 'new' }, workspace);
    await run('write_document', { mode: 'append', content: 'tail' }, workspace);
    expect(workspace.state.document).toEqual({ title: 'T', content: '# A\n\n## B\n\nnew\n\ntail' });
    const refused = await run('write_document', { mode: 'append', content: 'x', title: 'no' }, workspace);
    expect(refused.isError).toBe(true);
  });

  it('completes a todo by text, case-insensitive, and refuses when none matches', async () => {
    const workspace = createInMemoryWorkspace({
      todos: [
        { id: 't1', text: 'Write intro', done: true, depth: 0 },
        { id: 't2', text: 'Write INTRO', done: false, depth: 1 },
      ],
    });
    expect(await run('complete_todo', { text: 'write intro' }, workspace)).toEqual({ result: 'Todo "Write INTRO" marked done.', isError: false });
    expect((await run('complete_todo', { text: 'nothing like it' }, workspace)).isError).toBe(true);
    expect((await run('complete_todo', {}, workspace)).isError).toBe(true);
    expect(findTodoByText([{ text: 'Outline the guide', done: false }], 'outline')?.text).toBe('Outline the guide');
  });

  it('names items by their text in every result, never by an id', async () => {
    const workspace = createInMemoryWorkspace({
      preferences: [{ id: 'p1', text: 'Short sentences', locked: false }],
      todos: [{ id: 't1', text: 'Outline', done: false, depth: 0 }],
    });
    const results = [
      await run('add_preference', { text: 'British spelling' }, workspace),
      await run('update_preference', { id: 'p1', text: 'Very short sentences' }, workspace),
      await run('remove_preference', { id: 'p1' }, workspace),
      await run('add_todo', { text: 'Draft' }, workspace),
      await run('update_todo', { id: 't1', text: 'Outline the guide' }, workspace),
      await run('complete_todo', { id: 't1' }, workspace),
      await run('remove_todo', { id: 't1' }, workspace),
    ].map((r) => r.result);
    expect(results).toEqual([
      'Preference added: "British spelling".',
      'Preference "Short sentences" updated to "Very short sentences".',
      'Preference "Very short sentences" removed.',
      'Todo added: "Draft".',
      'Todo "Outline" updated to "Outline the guide".',
      'Todo "Outline the guide" marked done.',
      'Todo "Outline the guide" removed.',
    ]);
  });

  it('creates artifacts with a default kind and short results', async () => {
    const workspace = createInMemoryWorkspace();
    const result = await run('create_artifact', { title: 'Plan', content: 'x'.repeat(5000) }, workspace);
    expect(result).toEqual({ result: 'Artifact 1 created: "Plan" (note).', isError: false });
    expect(workspace.state.artifacts).toEqual([{ id: 'ar1', number: 1, turn_index: 1, kind: 'note', title: 'Plan' }]);
  });

  it('lets infrastructure errors fail the run', async () => {
    const workspace = createInMemoryWorkspace();
    workspace.setObjective = () => Promise.reject(new Error('connection reset'));
    await expect(run('set_objective', { text: 'x' }, workspace)).rejects.toThrow('connection reset');
  });
});
