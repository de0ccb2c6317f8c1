'use client';
import type { Preference, UpdatePreference } from '@trellis/domain';
import { Lock, LockOpen, Trash2 } from 'lucide-react';
import { memo, type KeyboardEvent } from 'react';
import { EditableText } from '@/components/ui/editable-text';
import { cn } from '@/lib/cn';
import { isPendingId } from './workspace-source';

export interface PreferenceItemProps {
  preference: Preference;
  onUpdate: (id: string, patch: UpdatePreference) => void;
  onRemove: (id: string) => void;
  onMove: (id: string, direction: 'up' | 'down') => void;
}

/** A preference: text editable in place; a locked one is never changed by the agent. */
export const PreferenceItem = memo(function PreferenceItem({
  preference,
  onUpdate,
  onRemove,
  onMove,
}: PreferenceItemProps) {
  const { id, text, locked } = preference;
  const isPending = isPendingId(id);
  const onKey = (event: KeyboardEvent<HTMLElement>) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return false;
    event.preventDefault();
    onMove(id, event.key === 'ArrowUp' ? 'up' : 'down');
    return true;
  };
  return (
    <li
      data-testid="preference-item"
      data-preference-id={id}
      data-locked={locked}
      className={cn(
        'group flex items-start gap-1 rounded-md',
        locked && 'bg-brand-soft/60',
        isPending && 'opacity-60',
      )}
    >
      <button
        type="button"
        data-testid="preference-lock"
        aria-pressed={locked}
        aria-label={locked ? 'Unlock preference' : 'Lock preference'}
        title={
          locked
            ? 'Locked: the agent cannot change it. Click to unlock.'
            : 'Lock so the agent cannot change it'
        }
        disabled={isPending}
        onClick={() => onUpdate(id, { locked: !locked })}
        className={cn(
          'mt-1 rounded p-1 hover:bg-accent',
          locked ? 'text-brand' : 'text-muted-foreground/60 hover:text-foreground',
        )}
      >
        {locked ? (
          <Lock className="size-3.5" data-testid="preference-lock-icon" />
        ) : (
          <LockOpen className="size-3.5" />
        )}
      </button>
      <div className="min-w-0 flex-1">
        <EditableText
          value={text}
          label="Preference"
          required
          multiline
          testId="preference-text"
          disabled={isPending}
          onKey={onKey}
          onCommit={(next) => onUpdate(id, { text: next })}
        />
      </div>
      <button
        type="button"
        data-testid="preference-delete"
        aria-label="Delete preference"
        title="Delete"
        disabled={isPending}
        onClick={() => onRemove(id)}
        className="mt-1 rounded p-1 text-muted-foreground opacity-100 hover:bg-accent hover:text-destructive md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100"
      >
        <Trash2 className="size-3.5" />
      </button>
    </li>
  );
});
