'use client';
import { Pencil, RefreshCw } from 'lucide-react';
import { createContext, useContext, type ReactNode, type Ref } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import type { ForkPlace, StepForks } from '@/lib/fork-points';

/**
 * What the chat can do to the displayed path (docs/branching.md, "Siblings: edit and regenerate"): edit a user message, regenerate a
 * reply, and move between the siblings of a fork. The studio provides it; without a provider (or with
 * null) the messages render read-only, as before.
 */
export interface MessageActionsValue {
  /** The steps of the displayed path where siblings diverge, keyed by turn: the message's and the reply's pager. */
  forks: ReadonlyMap<number, StepForks>;
  /** Edit and regenerate are offered: a live thread is shown, nothing runs on it, no request is pending. */
  canChange: boolean;
  /** False: edit and regenerate (new siblings) are not offered — a linear study condition; retry in place still is. */
  canBranch?: boolean;
  /** The step whose siblings are being fetched (its arrows wait). */
  switchingTurn: number | null;
  /** The last step of the displayed path with a user message, for the bottom-bar ↻; null when there is none. */
  lastTurn: number | null;
  /** Creates the edited sibling of `turn` and sends `content` there; resolves false when it could not. */
  edit: (turn: number, content: string) => Promise<boolean>;
  regenerate: (turn: number) => void;
  /** Answers step `turn`'s question again in place: the next attempt of its failed or stopped reply. */
  retry: (turn: number) => void;
  /** Opens the older (−1) or newer (+1) page of `turn`'s message or reply pager, at the step last viewed in it. */
  switchSibling: (turn: number, direction: -1 | 1, place: ForkPlace) => void;
}

const MessageActionsContext = createContext<MessageActionsValue | null>(null);

export function MessageActionsProvider({ value, children }: { value: MessageActionsValue | null; children: ReactNode }) {
  return <MessageActionsContext.Provider value={value}>{children}</MessageActionsContext.Provider>;
}

export function useMessageActions(): MessageActionsValue | null {
  return useContext(MessageActionsContext);
}

/**
 * Hidden until the message is hovered or focused on devices that hover; always shown on touch.
 * 40 px tap targets on phones (docs/branching.md, "Siblings: edit and regenerate"), compact from the `md` breakpoint up.
 */
export const revealOnHover =
  'opacity-0 transition-opacity group-hover/message:opacity-100 group-focus-within/message:opacity-100 focus-visible:opacity-100 pointer-coarse:opacity-100';
export const actionButton = 'size-10 text-muted-foreground hover:text-foreground md:size-7';

export function EditMessageButton({ onClick, ref }: { onClick: () => void; ref?: Ref<HTMLButtonElement> }) {
  const actions = useMessageActions();
  if (!actions?.canChange || actions.canBranch === false) return null;
  return (
    <Button
      ref={ref}
      variant="ghost"
      size="icon-sm"
      className={cn(actionButton, revealOnHover)}
      aria-label="Edit message"
      title="Edit"
      data-testid="edit-message"
      onClick={onClick}
    >
      <Pencil />
    </Button>
  );
}

export function RegenerateButton({ turn }: { turn: number }) {
  const actions = useMessageActions();
  if (!actions?.canChange || actions.canBranch === false) return null;
  return (
    <Button
      variant="ghost"
      size="icon-sm"
      className={cn(actionButton, revealOnHover)}
      aria-label="Regenerate this reply"
      title="Regenerate"
      data-testid="regenerate"
      onClick={() => actions.regenerate(turn)}
    >
      <RefreshCw />
    </Button>
  );
}

/** The bottom bar's ↻: another answer to the last step of the displayed path. */
export function RegenerateLastButton() {
  const actions = useMessageActions();
  if (!actions?.canChange || actions.canBranch === false || actions.lastTurn === null) return null;
  const turn = actions.lastTurn;
  return (
    <div className="flex justify-end">
      <Button
        variant="ghost"
        size="sm"
        className="h-10 text-muted-foreground hover:text-foreground md:h-7"
        title="Another answer to your last message, kept beside this one"
        data-testid="regenerate-last"
        onClick={() => actions.regenerate(turn)}
      >
        <RefreshCw /> Regenerate
      </Button>
    </div>
  );
}
