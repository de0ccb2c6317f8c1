'use client';
import type { Todo, UpdateTodo } from '@trellis/domain';
import {
  ArrowDown,
  ArrowUp,
  GripVertical,
  ListIndentDecrease,
  ListIndentIncrease,
  Trash2,
} from 'lucide-react';
import { memo, useRef, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import { EditableText } from '@/components/ui/editable-text';
import { cn } from '@/lib/cn';
import { isPendingId } from './workspace-source';

export type DropPlacement = 'before' | 'after';

export interface TodoItemProps {
  todo: Todo;
  canIndent: boolean;
  canOutdent: boolean;
  dropIndicator: DropPlacement | null;
  isDragging: boolean;
  onUpdate: (id: string, patch: UpdateTodo) => void;
  onRemove: (id: string) => void;
  onIndent: (id: string, direction: 'in' | 'out') => void;
  onMove: (id: string, direction: 'up' | 'down') => void;
  onDragStart: (id: string) => void;
  onDragOver: (id: string, placement: DropPlacement) => void;
  onDrop: (id: string, placement: DropPlacement) => void;
  onDragEnd: () => void;
}

const INDENT_PX = 20;

/**
 * One todo row. Keyboard on its text: Alt+→ / Alt+← (or Tab / Shift+Tab while
 * editing) indent and outdent, Alt+↑ / Alt+↓ move it with its subtree. Drag it
 * by the grip.
 */
export const TodoItem = memo(function TodoItem(props: TodoItemProps) {
  const { todo, canIndent, canOutdent, dropIndicator, isDragging, onUpdate, onRemove, onIndent, onMove } =
    props;
  const armed = useRef(false);
  const isPending = isPendingId(todo.id);

  const onKey = (event: KeyboardEvent<HTMLElement>): boolean => {
    // Tab indents while the text is being edited (as in a document's list);
    // on the displayed row it keeps moving focus, and Alt+→ / Alt+← indent.
    const isEditing = event.currentTarget instanceof HTMLInputElement;
    const indent =
      (isEditing && event.key === 'Tab' && (event.shiftKey ? 'out' : 'in')) ||
      (event.altKey && event.key === 'ArrowRight' && 'in') ||
      (event.altKey && event.key === 'ArrowLeft' && 'out');
    if (indent) {
      event.preventDefault();
      onIndent(todo.id, indent);
      return true;
    }
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      onMove(todo.id, event.key === 'ArrowUp' ? 'up' : 'down');
      return true;
    }
    return false;
  };

  const placementOf = (event: DragEvent<HTMLElement>): DropPlacement => {
    const box = event.currentTarget.getBoundingClientRect();
    return event.clientY < box.top + box.height / 2 ? 'before' : 'after';
  };

  return (
    <li
      data-testid="todo-item"
      data-todo-id={todo.id}
      data-depth={todo.depth}
      data-done={todo.done}
      draggable={!isPending}
      onDragStart={(event) => {
        if (!armed.current) return event.preventDefault();
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData('text/plain', todo.text);
        props.onDragStart(todo.id);
      }}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        props.onDragOver(todo.id, placementOf(event));
      }}
      onDrop={(event) => {
        event.preventDefault();
        props.onDrop(todo.id, placementOf(event));
      }}
      onDragEnd={() => {
        armed.current = false;
        props.onDragEnd();
      }}
      style={{ paddingLeft: todo.depth * INDENT_PX }}
      className={cn(
        'group relative flex items-start gap-1 rounded-md',
        isDragging && 'opacity-40',
        isPending && 'opacity-60',
        dropIndicator === 'before' &&
          'before:absolute before:inset-x-0 before:-top-px before:h-0.5 before:bg-brand',
        dropIndicator === 'after' &&
          'after:absolute after:inset-x-0 after:-bottom-px after:h-0.5 after:bg-brand',
      )}
    >
      <span
        aria-hidden
        title="Drag to reorder"
        onPointerDown={() => (armed.current = true)}
        onPointerUp={() => (armed.current = false)}
        className="mt-1.5 cursor-grab text-muted-foreground/40 hover:text-muted-foreground active:cursor-grabbing"
        data-testid="todo-drag-handle"
      >
        <GripVertical className="size-4" />
      </span>
      <input
        type="checkbox"
        checked={todo.done}
        disabled={isPending}
        onChange={(e) => onUpdate(todo.id, { done: e.target.checked })}
        aria-label={`Done: ${todo.text}`}
        data-testid="todo-checkbox"
        className="mt-2 size-4 shrink-0 cursor-pointer accent-primary"
      />
      <div className="min-w-0 flex-1">
        <EditableText
          value={todo.text}
          label="Todo"
          required
          testId="todo-text"
          disabled={isPending}
          onKey={onKey}
          className={cn(todo.done && 'text-muted-foreground line-through')}
          onCommit={(text) => onUpdate(todo.id, { text })}
        />
      </div>
      <div className="mt-0.5 flex shrink-0 items-center opacity-100 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
        <IconButton
          label="Move up (Alt+↑)"
          testId="todo-move-up"
          disabled={isPending}
          onClick={() => onMove(todo.id, 'up')}
        >
          <ArrowUp />
        </IconButton>
        <IconButton
          label="Move down (Alt+↓)"
          testId="todo-move-down"
          disabled={isPending}
          onClick={() => onMove(todo.id, 'down')}
        >
          <ArrowDown />
        </IconButton>
        <IconButton
          label="Outdent (Alt+←, Shift+Tab while editing)"
          testId="todo-outdent"
          disabled={isPending || !canOutdent}
          onClick={() => onIndent(todo.id, 'out')}
        >
          <ListIndentDecrease />
        </IconButton>
        <IconButton
          label="Indent (Alt+→, Tab while editing)"
          testId="todo-indent"
          disabled={isPending || !canIndent}
          onClick={() => onIndent(todo.id, 'in')}
        >
          <ListIndentIncrease />
        </IconButton>
        <IconButton
          label="Delete todo"
          testId="todo-delete"
          danger
          disabled={isPending}
          onClick={() => onRemove(todo.id)}
        >
          <Trash2 />
        </IconButton>
      </div>
    </li>
  );
});

function IconButton({
  label,
  testId,
  onClick,
  disabled,
  danger = false,
  children,
}: {
  label: string;
  testId: string;
  onClick: () => void;
  disabled?: boolean;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      data-testid={testId}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        'rounded p-1 text-muted-foreground hover:bg-accent disabled:opacity-30 [&_svg]:size-3.5',
        danger ? 'hover:text-destructive' : 'hover:text-foreground',
      )}
    >
      {children}
    </button>
  );
}
