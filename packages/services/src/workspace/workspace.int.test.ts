import { randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/postgres-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRefusal } from '@trellis/agent';
import {
  CreateTodoSchema,
  parseOrThrow,
  PatchWorkspaceSchema,
  ReorderSchema,
  UpdatePreferenceSchema,
  WorkspaceSchema,
} from '@trellis/domain';
import { schema } from '@trellis/db';
import { connectAdmin, createTestDeps, newThread, newUser, prepareCheckpointer, type TestDeps } from '../testing/test-harness';
import { createPreference } from './create-preference';
import { createTodo } from './create-todo';
import { createDbWorkspacePort } from './db-workspace-port';
import { deletePreference } from './delete-preference';
import { deleteTodo } from './delete-todo';
import { getWorkspace } from './get-workspace';
import { patchWorkspace } from './patch-workspace';
import { reorderPreferences } from './reorder-preferences';
import { reorderTodos } from './reorder-todos';
import { updatePreference } from './update-preference';
import { updateTodo } from './update-todo';

const admin = connectAdmin();
let deps: TestDeps;

beforeAll(async () => {
  await prepareCheckpointer();
  deps = createTestDeps();
});
afterAll(async () => {
  await deps.close();
  await admin.close();
});

async function setUp() {
  const actor = await newUser(admin);
  const threadId = await newThread(deps, actor);
  return { actor, threadId };
}

describe('workspace REST services', () => {
  it('starts empty and takes manual edits of the objective and document', async () => {
    const { actor, threadId } = await setUp();
    const empty = await getWorkspace(deps, actor, { threadId });
    expect(WorkspaceSchema.parse(empty)).toEqual({
      objective: null,
      document: { title: '', content: '', version: 0 },
      preferences: [],
      todos: [],
      artifacts: [],
    });

    await patchWorkspace(deps, actor, { threadId, patch: { objective: 'Write an essay', document: { title: 'Essay' } } });
    const after = await patchWorkspace(deps, actor, { threadId, patch: { document: { content: '# Intro\n' } } });
    expect(after).toMatchObject({ objective: 'Write an essay', document: { title: 'Essay', content: '# Intro\n' } });
    const cleared = await patchWorkspace(deps, actor, { threadId, patch: { objective: null } });
    expect(cleared.objective).toBeNull();
    expect(cleared.document.title).toBe('Essay');
  });

  it('keeps preference positions dense through create, delete and reorder', async () => {
    const { actor, threadId } = await setUp();
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((text) => createPreference(deps, actor, { threadId, preference: { text } })),
    );
    const positions = (await getWorkspace(deps, actor, { threadId })).preferences.map((p) => p.position);
    expect(positions).toEqual([0, 1, 2]);

    await deletePreference(deps, actor, { threadId, preferenceId: b!.id });
    let prefs = (await getWorkspace(deps, actor, { threadId })).preferences;
    expect(prefs.map((p) => [p.id, p.position])).toEqual(
      [a!, c!]
        .sort((x, y) => x.position - y.position)
        .map((p, i) => [p.id, i]),
    );

    const reversed = prefs.map((p) => p.id).reverse();
    const { preferences } = await reorderPreferences(deps, actor, { threadId, ids: reversed });
    expect(preferences.map((p) => p.id)).toEqual(reversed);
    expect(preferences.map((p) => p.position)).toEqual([0, 1]);
    prefs = (await getWorkspace(deps, actor, { threadId })).preferences;
    expect(prefs.map((p) => p.id)).toEqual(reversed);
  });

  it('refuses a reorder that does not list the whole set exactly once (422)', async () => {
    const { actor, threadId } = await setUp();
    const one = await createTodo(deps, actor, { threadId, todo: { text: 'one' } });
    const two = await createTodo(deps, actor, { threadId, todo: { text: 'two' } });
    for (const ids of [[one.id], [one.id, two.id, randomUUID()], [one.id, one.id], [one.id, randomUUID()], ['x', 'y']]) {
      await expect(reorderTodos(deps, actor, { threadId, ids })).rejects.toMatchObject({ code: 'validation_failed' });
    }
    const { todos } = await reorderTodos(deps, actor, { threadId, ids: [two.id.toUpperCase(), one.id] });
    expect(todos.map((t) => t.text)).toEqual(['two', 'one']);
  });

  it('edits todos with depth and done, and the person may edit a locked preference', async () => {
    const { actor, threadId } = await setUp();
    const todo = await createTodo(deps, actor, { threadId, todo: { text: 'outline', depth: 1 } });
    expect(todo).toMatchObject({ depth: 1, done: false, position: 0 });
    expect(await updateTodo(deps, actor, { threadId, todoId: todo.id, patch: { done: true, depth: 2 } })).toMatchObject({
      done: true,
      depth: 2,
      text: 'outline',
    });
    await expect(
      updateTodo(deps, actor, { threadId, todoId: todo.id, patch: { depth: 9 } }),
    ).rejects.toMatchObject({ code: 'validation_failed' });

    const locked = await createPreference(deps, actor, { threadId, preference: { text: 'British spelling', locked: true } });
    const edited = await updatePreference(deps, actor, { threadId, preferenceId: locked.id, patch: { text: 'UK spelling' } });
    expect(edited).toMatchObject({ text: 'UK spelling', locked: true });
    expect(await updatePreference(deps, actor, { threadId, preferenceId: locked.id, patch: { locked: false } })).toMatchObject({
      locked: false,
    });
    await deleteTodo(deps, actor, { threadId, todoId: todo.id });
    expect((await getWorkspace(deps, actor, { threadId })).todos).toEqual([]);
  });

  it('answers 404 for items of another thread or unknown ids, and 403/404 for the thread', async () => {
    const { actor, threadId } = await setUp();
    const otherThread = await newThread(deps, actor);
    const stranger = await newUser(admin);
    const pref = await createPreference(deps, actor, { threadId, preference: { text: 'mine' } });

    await expect(
      updatePreference(deps, actor, { threadId: otherThread, preferenceId: pref.id, patch: { text: 'x' } }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(deletePreference(deps, actor, { threadId, preferenceId: 'not-a-uuid' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(deleteTodo(deps, actor, { threadId, todoId: randomUUID() })).rejects.toMatchObject({ code: 'not_found' });
    await expect(getWorkspace(deps, stranger, { threadId })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(
      createPreference(deps, stranger, { threadId, preference: { text: 'sneaky' } }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await expect(
      patchWorkspace(deps, stranger, { threadId, patch: { objective: 'mine now' } }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await expect(getWorkspace(deps, actor, { threadId: 'th_missing' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await getWorkspace(deps, actor, { threadId })).preferences.map((p) => p.text)).toEqual(['mine']);
  });

  it('reads the workspace with its ownership check in one query; deleted and pending threads stay 404', async () => {
    const { actor, threadId } = await setUp();
    const stranger = await newUser(admin);
    await createPreference(deps, actor, { threadId, preference: { text: 'mine' } });
    let queries = 0;
    const counted = drizzle(admin.sql, { schema, logger: { logQuery: () => void queries++ } });
    expect((await getWorkspace({ db: counted }, actor, { threadId })).preferences.map((p) => p.text)).toEqual(['mine']);
    expect(queries).toBe(1);
    await expect(getWorkspace({ db: counted }, stranger, { threadId })).rejects.toMatchObject({ code: 'forbidden' });

    const pending = await newThread(deps, actor);
    await admin.sql`insert into conversation_branches (thread_id, parent_thread_id, branch_point_turn, user_id, status)
      values (${pending}, ${threadId}, 0, ${actor.userId}, 'pending')`;
    await expect(getWorkspace(deps, actor, { threadId: pending })).rejects.toMatchObject({ code: 'not_found' });
    await admin.sql`update conversations set deleted_at = now() where thread_id = ${threadId}`;
    await expect(getWorkspace(deps, actor, { threadId })).rejects.toMatchObject({ code: 'not_found' });
    await expect(getWorkspace(deps, actor, { threadId: 'not a thread id' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('rejects invalid bodies with 422 field details through the contracts', () => {
    const cases: [Parameters<typeof parseOrThrow>[0], unknown, string][] = [
      [CreateTodoSchema, { text: 'x', depth: 9 }, 'depth'],
      [CreateTodoSchema, { text: '   ' }, 'text'],
      [UpdatePreferenceSchema, { text: 'x', extra: true }, '(root)'],
      [ReorderSchema, { ids: [] }, 'ids'],
      [PatchWorkspaceSchema, { document: { content: 42 } }, 'document.content'],
    ];
    for (const [schema, body, path] of cases) {
      try {
        parseOrThrow(schema, body);
        expect.unreachable(`accepted ${JSON.stringify(body)}`);
      } catch (error) {
        expect(error).toMatchObject({ code: 'validation_failed', details: { issues: [expect.objectContaining({ path })] } });
      }
    }
  });
});

describe('the database workspace port', () => {
  it('refuses every change to a locked preference, in SQL, and leaves it intact', async () => {
    const { actor, threadId } = await setUp();
    const locked = await createPreference(deps, actor, { threadId, preference: { text: 'Keep it short', locked: true } });
    const open = await createPreference(deps, actor, { threadId, preference: { text: 'Be kind' } });
    const port = createDbWorkspacePort(deps.db, { threadId, turnIndex: 1 });

    await expect(port.updatePreference({ id: locked.id, text: 'Make it long' })).rejects.toBeInstanceOf(ToolRefusal);
    await expect(port.removePreference({ id: locked.id })).rejects.toBeInstanceOf(ToolRefusal);
    await expect(port.updatePreference({ id: locked.id, text: 'x' })).rejects.toThrow(/locked/);
    await expect(port.removePreference({ id: randomUUID() })).rejects.toBeInstanceOf(ToolRefusal);

    await port.updatePreference({ id: open.id, text: 'Be very kind' });
    const view = await port.read();
    expect(view.preferences).toEqual([
      { id: locked.id, text: 'Keep it short', locked: true },
      { id: open.id, text: 'Be very kind', locked: false },
    ]);
    await port.removePreference({ id: open.id });
    expect((await port.read()).preferences).toEqual([{ id: locked.id, text: 'Keep it short', locked: true }]);
  });

  it('applies every tool mutation to the live rows and tags artifacts with its turn', async () => {
    const { actor, threadId } = await setUp();
    const port = createDbWorkspacePort(deps.db, { threadId, turnIndex: 7 });
    await port.setObjective('Plan a trip');
    await port.replaceDocument({ title: 'Trip', content: '# Plan\n\nTBD\n\n## Budget\n\nnone' });
    await port.replaceSection({ heading: 'Budget', content: '1000 EUR' });
    await port.appendDocument('Packing list');
    const { id: todoId } = await port.addTodo({ text: 'Book train', depth: 0 });
    await port.addTodo({ text: 'Compare prices', depth: 1 });
    await port.updateTodo({ id: todoId, done: true });
    await expect(port.addTodo({ text: 'too deep', depth: 9 })).rejects.toBeInstanceOf(ToolRefusal);
    await expect(port.updateTodo({ id: randomUUID(), done: true })).rejects.toBeInstanceOf(ToolRefusal);
    const { id: artifactId } = await port.createArtifact({ kind: 'note', title: 'Ideas', content: 'Lisbon' });

    const live = await getWorkspace(deps, actor, { threadId });
    expect(live.objective).toBe('Plan a trip');
    expect(live.document).toMatchObject({ title: 'Trip', content: '# Plan\n\nTBD\n\n## Budget\n\n1000 EUR\n\nPacking list' });
    expect(live.todos.map(({ text, done, depth, position }) => ({ text, done, depth, position }))).toEqual([
      { text: 'Book train', done: true, depth: 0, position: 0 },
      { text: 'Compare prices', done: false, depth: 1, position: 1 },
    ]);
    expect(live.artifacts).toEqual([
      expect.objectContaining({ id: artifactId, turn_index: 7, kind: 'note', title: 'Ideas', content: 'Lisbon' }),
    ]);
    expect((await port.read()).artifacts).toEqual([{ id: artifactId, number: 1, turn_index: 7, kind: 'note', title: 'Ideas' }]);
    await port.replaceDocument({ content: '\n\n' });
    await port.appendDocument('Fresh start');
    await port.appendDocument('Second');
    expect((await port.read()).document.content).toBe('Fresh start\n\nSecond');
    await port.removeTodo({ id: todoId });
    expect((await port.read()).todos).toEqual([expect.objectContaining({ text: 'Compare prices' })]);
    expect((await getWorkspace(deps, actor, { threadId })).todos[0]!.position).toBe(0);
  });
});
