'use client';
import { createContext, useContext, useState, type ReactNode } from 'react';
import { EditableText } from '@/components/ui/editable-text';
import { cn } from '@/lib/cn';

/** Renames a path (a thread's title). Absent where the panel is shown without a server (the bench harness). */
type RenamePath = (threadId: string, title: string) => void;

const RenamePathContext = createContext<RenamePath | null>(null);

export function RenamePathProvider({ value, children }: { value: RenamePath; children: ReactNode }) {
  return <RenamePathContext.Provider value={value}>{children}</RenamePathContext.Provider>;
}

export interface LaneNameProps {
  threadId: string;
  name: string;
  isStarred: boolean;
  isDisplayed: boolean;
}

/** A lane's name above its first card, with a star for a starred path; click (or Enter) to rename it. */
export function LaneName({ threadId, name, isStarred, isDisplayed }: LaneNameProps) {
  const rename = useContext(RenamePathContext);
  const [isEditing, setEditing] = useState(false);
  const tone = isDisplayed ? 'text-brand' : 'text-muted-foreground';
  const display = (
    <>
      {isStarred && (
        <>
          <span aria-hidden className="mr-0.5 text-amber-700">
            ★
          </span>
          <span className="sr-only">Starred: </span>
        </>
      )}
      {name}
    </>
  );
  const position = 'absolute -top-4 left-1 max-w-[calc(100%-0.5rem)] text-[10px] font-medium leading-4';
  if (rename === null) {
    return (
      <span data-testid="lane-name" data-thread-id={threadId} data-starred={isStarred} className={cn('pointer-events-none truncate', position, tone)}>
        {display}
      </span>
    );
  }
  return (
    // nodrag / nopan: a click here edits the name instead of dragging or selecting the card.
    <span
      data-testid="lane-name"
      data-thread-id={threadId}
      data-starred={isStarred}
      data-editing={isEditing}
      className={cn('nodrag nopan z-10', position, isEditing ? 'w-[calc(100%-0.5rem)]' : 'truncate', tone)}
      onClick={(event) => event.stopPropagation()}
      onDoubleClick={(event) => event.stopPropagation()}
    >
      <EditableText
        value={name}
        required
        label="Path name"
        testId="lane-name-edit"
        editing={isEditing}
        onEditingChange={setEditing}
        onCommit={(title) => rename(threadId, title)}
        display={display}
        className={cn('truncate p-0 text-[10px] font-medium leading-4 hover:bg-accent/60', tone)}
        inputClassName="h-4 px-1 py-0 text-[10px] leading-4"
      />
    </span>
  );
}
