'use client';
import type { Todo } from '@trellis/domain';
import { ListChecks } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { dropBlock, indentedDepth, moveBlock, outdentedDepth } from '@/lib/todo-tree';
import { AddItemInput } from './add-item-input';
import { TodoItem, type DropPlacement } from './todo-item';
import { isPendingId, type WorkspaceActions } from './workspace-source';
import { WorkspaceSection } from './workspace-section';

interface DropTarget {
  id: string;
  placement: DropPlacement;
}

/** Nested todos: a flat ordered list with depths (see lib/todo-tree). */
export function TodoList({ todos, actions }: { todos: Todo[]; actions: WorkspaceActions }) {
  // A reorder names every id; wait until optimistic rows have their real ids.
  const canReorder = !todos.some((t) => isPendingId(t.id));
  const [dragId, setDragId] = useState<string | null>(null);
  const [dropTarget, setDropTarget] = useState<DropTarget | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const refocusId = useRef<string | null>(null);

  // Keyboard moves re-render the row elsewhere; keep the focus on it.
  useEffect(() => {
    const id = refocusId.current;
    if (!id) return;
    refocusId.current = null;
    listRef.current
      ?.querySelector<HTMLElement>(`[data-todo-id="${CSS.escape(id)}"] [data-testid="todo-text"]`)
      ?.focus();
  }, [todos]);

  const onIndent = useCallback(
    (id: string, direction: 'in' | 'out') => {
      const index = todos.findIndex((t) => t.id === id);
      const depth = direction === 'in' ? indentedDepth(todos, index) : outdentedDepth(todos, index);
      if (depth === null) return;
      refocusId.current = id;
      actions.updateTodo(id, { depth });
    },
    [todos, actions],
  );

  const onMove = useCallback(
    (id: string, direction: 'up' | 'down') => {
      const ids = canReorder ? moveBlock(todos, id, direction) : null;
      if (!ids) return;
      refocusId.current = id;
      actions.reorderTodos(ids);
    },
    [todos, actions, canReorder],
  );

  const onDragOver = useCallback((id: string, placement: DropPlacement) => {
    setDropTarget((current) =>
      current?.id === id && current.placement === placement ? current : { id, placement },
    );
  }, []);

  const onDrop = useCallback(
    (targetId: string, placement: DropPlacement) => {
      if (dragId && canReorder) {
        const ids = dropBlock(todos, dragId, targetId, placement);
        if (ids) actions.reorderTodos(ids);
      }
      setDragId(null);
      setDropTarget(null);
    },
    [dragId, todos, actions, canReorder],
  );

  const onDragEnd = useCallback(() => {
    setDragId(null);
    setDropTarget(null);
  }, []);

  const open = todos.filter((t) => !t.done).length;
  return (
    <WorkspaceSection
      title="Todos"
      icon={ListChecks}
      count={todos.length}
      testId="todos-section"
      actions={
        todos.length > 0 ? (
          <span className="text-xs text-muted-foreground">{open === 0 ? 'all done' : `${open} open`}</span>
        ) : undefined
      }
    >
      {todos.length === 0 ? (
        <p className="px-1 text-sm text-muted-foreground" data-testid="todos-empty">
          No todos yet. Add one below or ask the agent with “todo:”.
        </p>
      ) : (
        <ul
          ref={listRef}
          className="space-y-0.5"
          data-testid="todo-list"
          onDragLeave={(e) => e.currentTarget === e.target && setDropTarget(null)}
        >
          {todos.map((todo, index) => (
            <TodoItem
              key={todo.id}
              todo={todo}
              canIndent={indentedDepth(todos, index) !== null}
              canOutdent={outdentedDepth(todos, index) !== null}
              dropIndicator={dragId !== null && dropTarget?.id === todo.id ? dropTarget.placement : null}
              isDragging={dragId === todo.id}
              onUpdate={actions.updateTodo}
              onRemove={actions.removeTodo}
              onIndent={onIndent}
              onMove={onMove}
              onDragStart={setDragId}
              onDragOver={onDragOver}
              onDrop={onDrop}
              onDragEnd={onDragEnd}
            />
          ))}
        </ul>
      )}
      <AddItemInput placeholder="Add a todo" testId="todo-add" onAdd={(text) => actions.addTodo(text, 0)} />
    </WorkspaceSection>
  );
}
