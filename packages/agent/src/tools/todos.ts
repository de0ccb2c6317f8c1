import { z } from 'zod';
import { ToolRefusal, type WorkspacePort } from '../workspace-port';
import { defineTool, idField, MAX_TEXT_CHARS, MAX_TODO_DEPTH, quote, textField } from './define';

const depthField = z
  .number()
  .int()
  .min(0)
  .max(MAX_TODO_DEPTH)
  .describe('Nesting level: 0 for a top-level todo, 1 for a sub-task of the todo above it, and so on');

/** Results name a todo by its text, never by its id: people read them as tool chips. */
async function todoText(workspace: WorkspacePort, id: string): Promise<string | undefined> {
  return (await workspace.read()).todos.find((t) => t.id === id)?.text;
}

const named = (text: string | undefined) => (text === undefined ? 'Todo' : `Todo ${quote(text)}`);

export const addTodoTool = defineTool({
  name: 'add_todo',
  description: 'Add a todo at the end of the list, nested under the previous todo when depth is greater than 0.',
  schema: z.object({ text: textField('What needs doing, as a short imperative'), depth: depthField.default(0) }),
  run: async (workspace, { text, depth }) => {
    await workspace.addTodo({ text, depth });
    return `Todo added${depth > 0 ? ` at depth ${depth}` : ''}: ${quote(text)}.`;
  },
});

export const updateTodoTool = defineTool({
  name: 'update_todo',
  description: 'Change the text, nesting depth or done flag of a todo.',
  schema: z
    .object({
      id: idField('The id of the todo, as shown in brackets in the workspace'),
      text: textField('The new text').optional(),
      depth: depthField.optional(),
      done: z.boolean().optional().describe('true when finished, false to reopen'),
    })
    .refine((v) => v.text !== undefined || v.depth !== undefined || v.done !== undefined, {
      message: 'give at least one of text, depth, done',
    }),
  run: async (workspace, { id, text, depth, done }) => {
    const before = await todoText(workspace, id);
    await workspace.updateTodo({
      id,
      ...(text === undefined ? {} : { text }),
      ...(depth === undefined ? {} : { depth }),
      ...(done === undefined ? {} : { done }),
    });
    return `${named(before)} updated${text === undefined || text === before ? '' : ` to ${quote(text)}`}.`;
  },
});

/**
 * Finds the todo `text` names: the first whose text equals it ignoring case,
 * else the first that contains it; open todos are preferred to done ones.
 */
export function findTodoByText<T extends { text: string; done: boolean }>(todos: readonly T[], text: string): T | undefined {
  const wanted = text.trim().toLowerCase();
  const ordered = [...todos.filter((t) => !t.done), ...todos.filter((t) => t.done)];
  return (
    ordered.find((t) => t.text.trim().toLowerCase() === wanted) ??
    ordered.find((t) => t.text.toLowerCase().includes(wanted))
  );
}

export const completeTodoTool = defineTool({
  name: 'complete_todo',
  description: 'Mark a todo as done, by id or by its text (the first todo whose text matches, ignoring case).',
  schema: z
    .object({
      id: idField('The id of the todo').optional(),
      text: z.string().trim().min(1).max(MAX_TEXT_CHARS).optional().describe('The text of the todo, when the id is unknown'),
    })
    .refine((v) => (v.id === undefined) !== (v.text === undefined), { message: 'give exactly one of id, text' }),
  run: async (workspace, { id, text }) => {
    let targetId = id;
    if (targetId === undefined && text !== undefined) {
      const { todos } = await workspace.read();
      const match = findTodoByText(todos, text);
      if (match === undefined) throw new ToolRefusal(`no todo matches ${quote(text)}`);
      if (match.done) return `${named(match.text)} was already done.`;
      targetId = match.id;
    }
    if (targetId === undefined) throw new ToolRefusal('give the id or the text of the todo');
    const before = await todoText(workspace, targetId);
    await workspace.updateTodo({ id: targetId, done: true });
    return `${named(before)} marked done.`;
  },
});

export const removeTodoTool = defineTool({
  name: 'remove_todo',
  description: 'Delete a todo.',
  schema: z.object({ id: idField('The id of the todo, as shown in brackets in the workspace') }),
  run: async (workspace, { id }) => {
    const before = await todoText(workspace, id);
    await workspace.removeTodo({ id });
    return `${named(before)} removed.`;
  },
});
