'use client';
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface EditableTextProps {
  value: string;
  onCommit: (next: string) => void;
  /** Shown (muted) when the value is empty. */
  placeholder?: string;
  /** Edits that would leave the text empty are refused. */
  required?: boolean;
  multiline?: boolean;
  label: string;
  className?: string;
  inputClassName?: string;
  testId?: string;
  /** Extra keys handled while the text is displayed or edited (Tab to indent a todo…); return true when handled. */
  onKey?: (event: KeyboardEvent<HTMLElement>) => boolean;
  /** Rendered instead of the plain value while not editing. */
  display?: ReactNode;
  editing?: boolean;
  onEditingChange?: (editing: boolean) => void;
  disabled?: boolean;
}

/**
 * Click (or Enter) to edit in place; Enter or blur commits, Escape cancels.
 * Multi-line text commits on Enter too; Shift+Enter adds a line.
 */
export function EditableText({
  value,
  onCommit,
  placeholder,
  required = false,
  multiline = false,
  label,
  className,
  inputClassName,
  testId,
  onKey,
  display,
  editing: controlledEditing,
  onEditingChange,
  disabled = false,
}: EditableTextProps) {
  const [localEditing, setLocalEditing] = useState(false);
  const editing = controlledEditing ?? localEditing;
  const setEditing = (next: boolean) => {
    setLocalEditing(next);
    onEditingChange?.(next);
  };
  const [draft, setDraft] = useState(value);
  const fieldRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const cancelled = useRef(false);

  useLayoutEffect(() => {
    if (!editing) return;
    setDraft(value);
    cancelled.current = false;
    const field = fieldRef.current;
    field?.focus();
    field?.select();
    // Only when editing starts: later changes of `value` must not reset the draft.
  }, [editing]);

  const commit = () => {
    setEditing(false);
    if (cancelled.current) return;
    const next = multiline ? draft.trim() : draft.trim().replace(/\s+/g, ' ');
    if (next === value.trim() || (required && next === '')) return;
    onCommit(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (onKey?.(event)) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      cancelled.current = true;
      event.currentTarget.blur();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      event.currentTarget.blur();
    }
  };

  if (editing) {
    const shared = {
      ref: fieldRef,
      value: draft,
      'aria-label': label,
      dir: 'auto',
      'data-testid': testId ? `${testId}-input` : undefined,
      onChange: (e: { target: { value: string } }) => setDraft(e.target.value),
      onBlur: commit,
      onKeyDown,
      className: cn(
        'w-full rounded-md border border-input bg-background px-2 py-1 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        inputClassName,
      ),
    };
    return multiline ? (
      <textarea rows={Math.min(6, Math.max(2, draft.split('\n').length))} {...shared} />
    ) : (
      <input {...shared} />
    );
  }

  return (
    <button
      type="button"
      data-testid={testId}
      title={`Edit ${label.toLowerCase()}`}
      disabled={disabled}
      onClick={() => setEditing(true)}
      onKeyDown={(event) => {
        onKey?.(event);
      }}
      className={cn(
        'w-full cursor-text rounded-md px-2 py-1 text-left text-sm hover:bg-accent/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-default disabled:hover:bg-transparent',
        className,
      )}
    >
      {display ??
        (value ? (
          <span className="whitespace-pre-wrap break-words">{value}</span>
        ) : (
          <span className="text-muted-foreground">{placeholder}</span>
        ))}
    </button>
  );
}
