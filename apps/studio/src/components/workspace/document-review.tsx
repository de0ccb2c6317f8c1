'use client';
import { readableDiff, type ReviewHunk, type ReviewMerge } from '@trellis/domain';
import { Check, Undo2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** What each of a hunk's two choices is called, by who made the hunk. */
const CHOICES: Record<ReviewHunk['side'], { accept: string; reject: string }> = {
  mine: { accept: 'Keep your edit', reject: 'Drop your edit' },
  theirs: { accept: 'Keep this change', reject: 'Undo this change' },
  both: { accept: 'Keep yours', reject: 'Keep theirs' },
};

/**
 * The hunks of a three-way review, one block each: who made it, the text before (struck) and after,
 * with the changed words marked, and two choices. A hunk's choice changes that hunk only; the text
 * between hunks is what both sides have.
 */
export function DocumentReview({
  review,
  labels,
  accepted,
  onChoose,
}: {
  review: ReviewMerge;
  labels: readonly string[];
  accepted: readonly boolean[];
  onChoose: (index: number, accept: boolean) => void;
}) {
  if (review.hunks.length === 0) {
    return <p className="text-xs text-muted-foreground">Your text and the current one now read the same.</p>;
  }
  return (
    <ol className="space-y-2" data-testid="document-conflict-merge" aria-label="Changes to settle">
      {review.hunks.map((hunk, i) => {
        const before = review.original.slice(hunk.fromA, hunk.toA);
        const after = review.merged.slice(hunk.fromB, hunk.toB);
        const isAccepted = accepted[i] !== false;
        const choices = CHOICES[hunk.side];
        return (
          <li
            key={`${hunk.fromB}-${hunk.fromA}`}
            data-testid="merge-hunk"
            data-side={hunk.side}
            data-choice={isAccepted ? 'accept' : 'reject'}
            className={cn(
              'rounded-md border-l-4 bg-card p-2 text-[13px]',
              hunk.side === 'mine' ? 'border-l-green-800' : hunk.side === 'theirs' ? 'border-l-blue-700' : 'border-l-amber-700',
            )}
          >
            <p className="mb-1 text-xs font-semibold" data-testid="merge-hunk-label">
              {labels[i]}
            </p>
            <DiffPair before={before} after={after} showBefore={!isAccepted} />
            <div role="group" aria-label={labels[i]} className="mt-1.5 flex flex-wrap gap-1.5">
              <ChoiceButton pressed={isAccepted} testId="merge-hunk-accept" onClick={() => onChoose(i, true)}>
                <Check aria-hidden className="size-3" /> {choices.accept}
              </ChoiceButton>
              <ChoiceButton pressed={!isAccepted} testId="merge-hunk-reject" onClick={() => onChoose(i, false)}>
                <Undo2 aria-hidden className="size-3" /> {choices.reject}
              </ChoiceButton>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

function ChoiceButton({ pressed, testId, onClick, children }: { pressed: boolean; testId: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      data-testid={testId}
      onClick={onClick}
      className={cn(
        'inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs',
        pressed ? 'border-primary bg-primary text-primary-foreground' : 'hover:bg-accent',
      )}
    >
      {children}
    </button>
  );
}

/**
 * The hunk's text before and after, changed words marked. The side that will be saved is shown in
 * full; the other is struck through.
 */
function DiffPair({ before, after, showBefore }: { before: string; after: string; showBefore: boolean }) {
  const ranges = readableDiff(before, after);
  const marked = (text: string, spans: { from: number; to: number }[], mark: 'del' | 'ins') => {
    const parts: ReactNode[] = [];
    let at = 0;
    spans.forEach(({ from, to }, i) => {
      if (from > at) parts.push(text.slice(at, from));
      const Tag = mark;
      parts.push(
        <Tag key={i} className={mark === 'del' ? 'bg-red-100 text-red-900' : 'bg-green-100 text-green-900 no-underline'}>
          {text.slice(from, to)}
        </Tag>,
      );
      at = to;
    });
    parts.push(text.slice(at));
    return parts;
  };
  const removed = ranges.map((r) => ({ from: r.fromA, to: r.toA })).filter((r) => r.to > r.from);
  const added = ranges.map((r) => ({ from: r.fromB, to: r.toB })).filter((r) => r.to > r.from);
  return (
    <div className="space-y-1 font-mono text-xs leading-relaxed">
      {before !== '' && (
        <p className={cn('whitespace-pre-wrap', !showBefore && 'text-muted-foreground line-through')} data-testid="merge-hunk-before">
          <span className="sr-only">Before: </span>
          {marked(before, removed, 'del')}
        </p>
      )}
      {after !== '' && (
        <p className={cn('whitespace-pre-wrap', showBefore && 'text-muted-foreground line-through')} data-testid="merge-hunk-after">
          <span className="sr-only">After: </span>
          {marked(after, added, 'ins')}
        </p>
      )}
    </div>
  );
}
