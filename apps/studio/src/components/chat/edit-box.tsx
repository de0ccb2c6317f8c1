'use client';
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { useUnsentText } from '@/components/studio/use-unsent-text';
import { isSendKey, SEND_KEY_HINT } from './send-key';

export interface EditBoxProps {
  initial: string;
  /** Resolves true once the edited sibling exists and the text was sent there (the box then goes away). */
  onSubmit: (content: string) => Promise<boolean>;
  onCancel: () => void;
}

const MAX_HEIGHT_PX = 320;

/**
 * The inline editor of a user message (docs/branching.md, "Siblings: edit and regenerate"): Enter sends the edited
 * text as a new sibling, as the composer does (send-key.ts), Shift+Enter is a new line, Escape
 * cancels. The original stays as it was.
 */
export function EditBox({ initial, onSubmit, onCancel }: EditBoxProps) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [draft, setDraft] = useState(initial);
  const [isSubmitting, setSubmitting] = useState(false);
  const canSubmit = !isSubmitting && draft.trim().length > 0 && draft.trim() !== initial.trim();
  // Changed text exists nowhere else: every way out asks first, and "Discard" closes the editor.
  useUnsentText({
    what: 'your edit of a message',
    hasUnsent: () => !isSubmitting && draft.trim() !== initial.trim(),
    discard: onCancel,
    focus: () => ref.current?.focus(),
  });

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [draft]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);

  const submit = async () => {
    if (!canSubmit) return;
    setSubmitting(true);
    const isDone = await onSubmit(draft.trim());
    if (!isDone) setSubmitting(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (isSendKey(event)) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };

  return (
    <form
      className="flex w-full flex-col gap-2 rounded-2xl border bg-card p-2 shadow-xs focus-within:ring-2 focus-within:ring-ring/50"
      data-testid="edit-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <textarea
        ref={ref}
        value={draft}
        dir="auto"
        rows={2}
        disabled={isSubmitting}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        aria-label="Edit message"
        aria-describedby="edit-box-hint"
        data-testid="edit-box"
        className="max-h-[320px] min-h-16 w-full resize-none bg-transparent px-2 py-1.5 text-base placeholder:text-muted-foreground focus:outline-none disabled:opacity-60 md:text-sm"
      />
      <div className="flex items-center justify-end gap-2">
        <p id="edit-box-hint" className="mr-auto hidden px-1 text-[11px] text-muted-foreground md:block">
          Sends as a new version · {SEND_KEY_HINT} · Esc to cancel
        </p>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="h-10 md:h-8"
          data-testid="edit-cancel"
          onClick={onCancel}
        >
          Cancel
        </Button>
        <Button type="submit" size="sm" className="h-10 md:h-8" data-testid="edit-submit" disabled={!canSubmit}>
          {isSubmitting ? 'Sending…' : 'Send'}
        </Button>
      </div>
    </form>
  );
}
