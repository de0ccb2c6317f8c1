'use client';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { joinAnd } from '@trellis/domain';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { unsentText, type LeaveQuestion } from '@/lib/unsent-text';

/**
 * Asked before a way out would discard unsent text (lib/unsent-text.ts): "Keep editing" (also
 * Escape) stays and puts the cursor back in the text; "Discard" throws it away and goes. A reload
 * or a closed tab gets the browser's own prompt instead.
 */
export function UnsentTextDialog() {
  const question = useSyncExternalStore(unsentText.subscribe, unsentText.getQuestion, () => null);
  const isKeeping = useRef(false);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (unsentText.hasUnsent()) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  return (
    <Dialog
      open={question !== null}
      onOpenChange={(open) => {
        if (open) return;
        isKeeping.current = true;
        unsentText.keepEditing();
      }}
    >
      <DialogContent
        data-testid="confirm-dialog"
        data-dialog="unsent-text"
        onCloseAutoFocus={(event) => {
          // Kept: back into the text (else Radix returns the focus to what opened the question).
          if (isKeeping.current && unsentText.focusUnsent()) event.preventDefault();
          isKeeping.current = false;
        }}
      >
        <DialogTitle>Discard unsent text?</DialogTitle>
        <DialogDescription data-testid="unsent-text-what">
          {question === null ? null : describe(question)}
        </DialogDescription>
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="outline" data-testid="confirm-cancel">
              Keep editing
            </Button>
          </DialogClose>
          <Button variant="destructive" data-testid="confirm-accept" onClick={unsentText.discard}>
            Discard
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function describe({ what }: LeaveQuestion): string {
  return `Leaving now discards ${joinAnd(what)}. Nothing of it is saved until it is sent.`;
}
