'use client';
import { plainTitle, type FamilyGraph } from '@trellis/domain';
import { useEffect, useRef } from 'react';
import { cn } from '@/lib/cn';

/** A step of the family the composer can reference: what the picker lists and a chip shows. */
export interface PickedRef {
  thread_id: string;
  turn: number;
  label: string;
  /** The path's name. */
  title: string;
}

export interface PickerOption extends PickedRef {
  /** The step's user message, shortened. */
  preview: string;
  /** The path's latest step (what `@` on a path means by default). */
  isLatest: boolean;
}

/**
 * The family's steps the picker offers: every path but the displayed one, newest step first, then its
 * earlier own steps; filtered by what follows `@` (a label, a word of the path's name or of the step).
 */
export function pickerOptions(graph: FamilyGraph | undefined, displayedThreadId: string | null, query: string): PickerOption[] {
  if (graph === undefined) return [];
  const titles = new Map(graph.threads.map((t) => [t.thread_id, plainTitle(t.title)]));
  const needle = query.trim().toLowerCase();
  const byThread = new Map<string, FamilyGraph['nodes']>();
  for (const node of graph.nodes) {
    if (node.thread_id === displayedThreadId) continue;
    byThread.set(node.thread_id, [...(byThread.get(node.thread_id) ?? []), node]);
  }
  const options: PickerOption[] = [];
  for (const [threadId, nodes] of byThread) {
    const newestFirst = [...nodes].sort((a, b) => b.turn_index - a.turn_index);
    newestFirst.forEach((node, i) => {
      const option = {
        thread_id: threadId,
        turn: node.turn_index,
        label: node.label,
        title: titles.get(threadId) ?? '',
        preview: (node.user_message ?? node.reply_preview ?? '').replace(/\s+/g, ' ').slice(0, 80),
        isLatest: i === 0,
      };
      const haystack = `${option.label} ${option.title} ${option.preview}`.toLowerCase();
      if (needle === '' || haystack.includes(needle)) options.push(option);
    });
  }
  return options.slice(0, 50);
}

/** The `@query` just before the caret, or null when the caret is not in one. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

export const PICKER_ID = 'path-picker';

export function optionId(index: number): string {
  return `${PICKER_ID}-option-${index}`;
}

/** The listbox under the composer while an `@` is typed: the textarea keeps focus (aria-activedescendant). */
export function PathPicker({
  options,
  active,
  onPick,
  onHover,
}: {
  options: readonly PickerOption[];
  active: number;
  onPick: (option: PickerOption) => void;
  onHover: (index: number) => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    list.current?.querySelector(`#${optionId(active)}`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  return (
    <div className="absolute inset-x-0 bottom-full z-20 mb-1 rounded-lg border bg-popover text-popover-foreground shadow-md">
      <p className="border-b px-3 py-1.5 text-[11px] text-muted-foreground" id={`${PICKER_ID}-hint`}>
        Bring a step of another path into this message: ↑/↓ to choose, Enter to add, Esc to close
      </p>
      {options.length === 0 ? (
        <p className="px-3 py-2 text-sm text-muted-foreground" data-testid="path-picker-empty">
          No other path matches.
        </p>
      ) : (
        <ul ref={list} id={PICKER_ID} role="listbox" aria-label="Paths and steps" className="max-h-64 overflow-y-auto py-1" data-testid="path-picker">
          {options.map((option, index) => (
            <li
              key={`${option.thread_id}:${option.turn}`}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              data-testid="path-picker-option"
              data-node={`${option.thread_id}:${option.turn}`}
              className={cn('flex cursor-pointer items-baseline gap-2 px-3 py-1.5 text-sm', index === active && 'bg-accent text-accent-foreground')}
              onMouseDown={(event) => {
                event.preventDefault(); // keep the focus in the textarea
                onPick(option);
              }}
              onMouseEnter={() => onHover(index)}
            >
              <span className={cn('shrink-0 font-mono font-semibold', index !== active && 'text-brand')}>{option.label}</span>
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium">
                  {option.title || 'Untitled path'}
                  {option.isLatest && <span className="ml-1 text-xs font-normal text-muted-foreground">(latest)</span>}
                </span>
                {option.preview && <span className="block truncate text-xs text-muted-foreground">{option.preview}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
