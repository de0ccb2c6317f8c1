'use client';
import { Check, Clock, Copy, Flag, Loader2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ParticipantView, StudyCompletion } from '@trellis/domain';
import { Studio } from '@/components/studio/studio';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { Markdown } from '@/components/ui/markdown';
import { joinApi, studyKeys } from '@/lib/api/studies';
import { describeError } from './study-error';
import { TrellisMark } from '@/components/ui/trellis-mark';

export interface ParticipantStudioProps {
  slug: string;
  user: { id: string; name: string; email: string };
  initialView: ParticipantView;
  initialThreadId: string;
  initialStep: number | null;
}

/** Minutes from now until `minutes` after `startedIso` (negative once past). */
function minutesLeft(startedIso: string, minutes: number, now: number): number {
  return (Date.parse(startedIso) + minutes * 60_000 - now) / 60_000;
}

/** The clock, ticking every `ms` (the time left and Finish's opening follow it). */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * A study participant's studio (docs/studies.md): the studio they know narrowed to their family —
 * the instructions where the conversation list would be, the time left and Finish in the header,
 * and in a linear condition no way to branch. The condition itself is never named.
 */
export function ParticipantStudio({
  slug,
  user,
  initialView,
  initialThreadId,
  initialStep,
}: ParticipantStudioProps) {
  const me = useQuery({
    queryKey: studyKeys.me(slug),
    queryFn: ({ signal }) => joinApi.me(slug, signal),
    initialData: initialView,
    // The server's word on the status (timed out, finished elsewhere) catches up within a minute.
    refetchInterval: 60_000,
  });
  const view = me.data;
  const now = useNow(15_000);
  const timeLeft =
    view.time_limit_minutes === null ? null : minutesLeft(view.started, view.time_limit_minutes, now);
  const isTimeUp = view.status === 'timed_out' || (timeLeft !== null && timeLeft <= 0);
  const readOnlyNote =
    view.status === 'finished'
      ? 'You have finished this study. Thank you! Your writing is saved; nothing more can be changed here.'
      : isTimeUp
        ? 'Your time in this study is over. Your writing is saved; nothing more can be changed here.'
        : undefined;
  return (
    <Studio
      user={user}
      modelLabel=""
      initialThreadId={initialThreadId}
      initialStep={initialStep}
      narrowed={{
        root: `/join/s/${slug}`,
        header: (
          <ParticipantHeader slug={slug} view={view} timeLeft={timeLeft} isTimeUp={isTimeUp} now={now} />
        ),
        side: <InstructionsPanel view={view} />,
        sideLabel: 'Instructions',
        isLinear: !view.branching,
        readOnlyNote,
      }}
    />
  );
}

function InstructionsPanel({ view }: { view: ParticipantView }) {
  return (
    <section
      aria-labelledby="study-instructions-title"
      className="flex min-h-0 flex-1 flex-col overflow-y-auto p-3"
      data-testid="study-instructions"
    >
      <h2 id="study-instructions-title" className="mb-2 text-sm font-semibold">
        Instructions
      </h2>
      {view.instructions.trim() === '' ? (
        <p className="text-sm text-muted-foreground">
          Write with the assistant; press Finish when you are done.
        </p>
      ) : (
        <Markdown source={view.instructions} className="text-sm" />
      )}
      {view.completion && <CompletionNote completion={view.completion} />}
    </section>
  );
}

function ParticipantHeader({
  slug,
  view,
  timeLeft,
  isTimeUp,
  now,
}: {
  slug: string;
  view: ParticipantView;
  timeLeft: number | null;
  isTimeUp: boolean;
  now: number;
}) {
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [isConfirming, setConfirming] = useState(false);
  const [completion, setCompletion] = useState<StudyCompletion | null>(null);
  const [error, setError] = useState<string | null>(null);
  const finish = useMutation({
    mutationFn: () => joinApi.finish(slug),
    onSuccess: (answer) => {
      setConfirming(false);
      setError(null);
      void queryClient.invalidateQueries({ queryKey: studyKeys.me(slug) });
      if (answer.redirect_url) window.location.assign(answer.redirect_url);
      else setCompletion(answer);
    },
    onError: (e) => {
      setConfirming(false);
      setError(describeError(e));
    },
  });
  const opensIn = view.min_minutes === null ? 0 : Math.ceil(minutesLeft(view.started, view.min_minutes, now));
  const isFinished = view.status === 'finished';
  const reason = isFinished
    ? 'You have finished'
    : isTimeUp
      ? 'Your time is over'
      : opensIn > 0
        ? `Finish opens in ${opensIn} ${opensIn === 1 ? 'minute' : 'minutes'}`
        : null;
  return (
    <header className="flex min-h-12 shrink-0 flex-wrap items-center justify-between gap-x-3 gap-y-1 border-b px-3 py-1.5 md:px-4">
      <div className="flex min-w-0 items-center gap-2">
        <TrellisMark withName={false} />
        <h1 className="truncate text-sm font-semibold" data-testid="participant-study-title">
          {view.title}
        </h1>
      </div>
      <div className="flex items-center gap-2 text-sm">
        {timeLeft !== null && (
          <span
            data-testid="time-left"
            className="inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs"
            role="timer"
            aria-live="off"
          >
            <Clock aria-hidden className="size-3" />
            {isTimeUp ? 'Time is up' : `${Math.max(1, Math.ceil(timeLeft))} min left`}
          </span>
        )}
        {reason !== null && (
          <span id={reasonId} data-testid="finish-reason" className="text-xs text-muted-foreground">
            {reason}
          </span>
        )}
        <Button
          size="sm"
          data-testid="finish"
          disabled={reason !== null || finish.isPending}
          {...(reason !== null ? { 'aria-describedby': reasonId } : {})}
          onClick={() => setConfirming(true)}
        >
          {finish.isPending ? <Loader2 aria-hidden className="animate-spin" /> : <Flag aria-hidden />} Finish
        </Button>
      </div>
      {error !== null && (
        <p
          role="alert"
          data-testid="finish-error"
          className="w-full rounded-md border border-destructive/40 bg-destructive/10 px-3 py-1.5 text-sm"
        >
          {error}
        </p>
      )}
      <ConfirmDialog
        open={isConfirming}
        onOpenChange={setConfirming}
        title="Finish the study?"
        description="Your writing is saved as it is now, and you cannot change it afterwards."
        confirmLabel="Finish"
        busy={finish.isPending}
        onConfirm={() => finish.mutate()}
      />
      <Dialog open={completion !== null} onOpenChange={(open) => !open && setCompletion(null)}>
        <DialogContent data-testid="completion-dialog">
          <DialogTitle>Thank you!</DialogTitle>
          <DialogDescription>You have finished this study.</DialogDescription>
          {completion && <CompletionNote completion={completion} />}
        </DialogContent>
      </Dialog>
    </header>
  );
}

function CompletionNote({ completion }: { completion: StudyCompletion }) {
  const [isCopied, setCopied] = useState(false);
  if (completion.code === null && completion.redirect_url === null) return null;
  return (
    <div
      className="mt-4 space-y-2 rounded-md border border-primary/40 bg-primary/5 p-3 text-sm"
      data-testid="completion"
    >
      {completion.code !== null && (
        <>
          <p>Your completion code:</p>
          <div className="flex flex-wrap items-center gap-2">
            <code
              data-testid="completion-code"
              className="rounded bg-background px-2 py-1 font-mono text-base"
            >
              {completion.code}
            </code>
            <Button
              variant="outline"
              size="sm"
              onClick={() =>
                void navigator.clipboard.writeText(completion.code ?? '').then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {isCopied ? <Check aria-hidden /> : <Copy aria-hidden />} {isCopied ? 'Copied' : 'Copy'}
            </Button>
          </div>
        </>
      )}
      {completion.redirect_url !== null && (
        <p>
          <a
            className="underline underline-offset-2"
            href={completion.redirect_url}
            data-testid="completion-redirect"
          >
            Continue to complete the study
          </a>
        </p>
      )}
    </div>
  );
}
