'use client';
import { Check, Copy, Download, Eye, Loader2, Lock, Play, UserMinus } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Study, StudyParticipant } from '@trellis/domain';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageHeader } from '@/components/ui/page-header';
import { formatFullTime } from '@/lib/format-time';
import { studiesApi, studyKeys } from '@/lib/api/studies';
import { StatusBadge } from './status-badge';
import { ErrorNote, describeError } from './study-error';
import { LoadingNote, EmptyNote } from '@/components/ui/list-states';

/** How often the participants are re-read while the page is open: "live" without a channel of its own. */
export const PARTICIPANTS_POLL_MS = 3_000;

/**
 * A study's page for its researcher (docs/studies.md): open and close it, the link to hand out, the
 * conditions with their counts, and one row per participant, re-read every few seconds — withdraw
 * one, read one's family, download the dataset.
 */
export function StudyDashboard({ email, studyId }: { email: string; studyId: string }) {
  const queryClient = useQueryClient();
  const study = useQuery({
    queryKey: studyKeys.study(studyId),
    queryFn: ({ signal }) => studiesApi.get(studyId, signal),
  });
  const participants = useQuery({
    queryKey: studyKeys.participants(studyId),
    queryFn: ({ signal }) => studiesApi.participants(studyId, signal),
    refetchInterval: PARTICIPANTS_POLL_MS,
    enabled: study.isSuccess,
  });
  const [error, setError] = useState<string | null>(null);
  const [isClosing, setClosing] = useState(false);
  const [withdrawing, setWithdrawing] = useState<StudyParticipant | null>(null);

  const move = useMutation({
    mutationFn: (status: 'open' | 'closed') => studiesApi.update(studyId, { status }),
    onSuccess: (updated) => {
      setError(null);
      setClosing(false);
      queryClient.setQueryData(studyKeys.study(studyId), updated);
      void queryClient.invalidateQueries({ queryKey: studyKeys.list() });
    },
    onError: (e) => {
      setClosing(false);
      setError(describeError(e));
    },
  });
  const withdraw = useMutation({
    mutationFn: (participantId: string) => studiesApi.withdraw(studyId, participantId),
    onSuccess: () => {
      setError(null);
      setWithdrawing(null);
      void queryClient.invalidateQueries({ queryKey: studyKeys.participants(studyId) });
    },
    onError: (e) => {
      setWithdrawing(null);
      setError(describeError(e));
    },
  });

  if (study.isPending) {
    return (
      <Shell email={email} title="Study">
        <LoadingNote />
      </Shell>
    );
  }
  if (study.isError) {
    return (
      <Shell email={email} title="Study">
        <ErrorNote message={describeError(study.error)} testId="study-error" />
      </Shell>
    );
  }
  const s = study.data;
  return (
    <Shell email={email} title={s.title}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2">
          <h1 className="truncate text-xl font-semibold" data-testid="study-title-heading">
            {s.title}
          </h1>
          <span data-testid="study-status">
            <StatusBadge status={s.status} />
          </span>
        </div>
        <div className="flex flex-wrap gap-2">
          {s.status === 'draft' && (
            <Button data-testid="study-open" disabled={move.isPending} onClick={() => move.mutate('open')}>
              {move.isPending ? <Loader2 aria-hidden className="animate-spin" /> : <Play aria-hidden />} Open
              to participants
            </Button>
          )}
          {s.status === 'open' && (
            <Button
              variant="outline"
              data-testid="study-close"
              disabled={move.isPending}
              onClick={() => setClosing(true)}
            >
              <Lock aria-hidden /> Close
            </Button>
          )}
          <Button asChild variant="outline">
            <a href={studiesApi.datasetUrl(studyId)} download data-testid="study-download">
              <Download aria-hidden /> Download dataset
            </a>
          </Button>
        </div>
      </div>
      <ErrorNote message={error} testId="study-action-error" />
      <JoinLink study={s} />
      <Conditions study={s} counts={participants.data?.counts} />
      <section aria-labelledby="participants-title" className="space-y-2">
        <div className="flex items-baseline justify-between gap-2">
          <h2 id="participants-title" className="text-base font-semibold">
            Participants
          </h2>
          <span className="text-xs text-muted-foreground" data-testid="participants-live">
            {participants.isFetching ? 'Updating…' : `Updated every ${PARTICIPANTS_POLL_MS / 1000} s`}
          </span>
        </div>
        <ErrorNote
          message={participants.isError ? describeError(participants.error) : null}
          testId="participants-error"
        />
        {participants.isPending ? (
          <LoadingNote />
        ) : participants.data?.participants.length === 0 ? (
          <EmptyNote testId="participants-empty">
            {s.status === 'draft'
              ? 'No one yet: open the study, then hand out its link.'
              : 'No one has joined yet.'}
          </EmptyNote>
        ) : (
          <ParticipantsTable
            studyId={studyId}
            rows={participants.data?.participants ?? []}
            onWithdraw={setWithdrawing}
          />
        )}
      </section>
      <ConfirmDialog
        open={isClosing}
        onOpenChange={setClosing}
        title="Close this study?"
        description="No one new can join. Participants already in it keep their session until they finish or their time runs out."
        confirmLabel="Close the study"
        busy={move.isPending}
        onConfirm={() => move.mutate('closed')}
      />
      <ConfirmDialog
        open={withdrawing !== null}
        onOpenChange={(open) => !open && setWithdrawing(null)}
        title={`Withdraw ${withdrawing?.participant_id ?? ''}?`}
        description="Their family and everything in it is deleted and left out of the dataset; the row stays, marked withdrawn. This cannot be undone."
        confirmLabel="Withdraw"
        destructive
        busy={withdraw.isPending}
        onConfirm={() => withdrawing && withdraw.mutate(withdrawing.participant_id)}
      />
    </Shell>
  );
}

function Shell({ email, title, children }: { email: string; title: string; children: React.ReactNode }) {
  return (
    <div className="min-h-full" data-testid="study-dashboard">
      <PageHeader section={title} email={email} back={{ href: '/studies', label: 'Studies' }} />
      <main className="mx-auto max-w-7xl space-y-6 px-4 py-6 md:py-8">{children}</main>
    </div>
  );
}

function JoinLink({ study }: { study: Study }) {
  // The API gives the path; the page adds this server's origin (known only in the browser).
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  const [isCopied, setCopied] = useState(false);
  const url = `${origin}${study.join_url}`;
  return (
    <section aria-labelledby="join-link-title" className="space-y-2 rounded-md border p-3">
      <h2 id="join-link-title" className="text-base font-semibold">
        Participant link
      </h2>
      <p className="text-sm text-muted-foreground">
        {study.status === 'draft'
          ? 'It admits participants once the study is open.'
          : study.status === 'open'
            ? 'Hand this one link to every participant. Append ?pid=… (or Prolific’s PROLIFIC_PID, STUDY_ID, SESSION_ID) so the same person resumes the same session on any device.'
            : 'Closed: the link admits no one new.'}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-testid="study-join-url"
          className="min-w-0 flex-1 break-all rounded bg-muted px-2 py-1.5 font-mono text-sm"
        >
          {url}
        </code>
        <Button
          variant="outline"
          size="sm"
          data-testid="study-copy-link"
          onClick={() =>
            void navigator.clipboard.writeText(url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {isCopied ? <Check aria-hidden /> : <Copy aria-hidden />} {isCopied ? 'Copied' : 'Copy link'}
        </Button>
      </div>
    </section>
  );
}

function Conditions({ study, counts }: { study: Study; counts: Record<string, number> | undefined }) {
  return (
    <section aria-labelledby="conditions-title" className="space-y-2">
      <h2 id="conditions-title" className="text-base font-semibold">
        Conditions
      </h2>
      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3" data-testid="conditions">
        {study.conditions.map((c) => (
          <li
            key={c.name}
            className="rounded-md border p-3 text-sm"
            data-testid="condition-count"
            data-condition={c.name}
          >
            <p className="flex items-baseline justify-between gap-2">
              <span className="truncate font-medium">{c.name}</span>
              <span className="text-lg font-semibold tabular-nums" data-testid="condition-participants">
                {counts?.[c.name] ?? 0}
              </span>
            </p>
            <p className="text-xs text-muted-foreground">
              {c.model} · {c.branching ? 'branching' : 'linear'} · weight {c.weight}
              {c.tools !== null ? ` · ${c.tools.length} tools` : ''}
              {c.system_prompt ? ' · system prompt' : ''}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function minutes(value: number): string {
  return value < 10 ? value.toFixed(1) : String(Math.round(value));
}

const short = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** A short date and time in the cell, the full one on hover. */
function Time({ iso }: { iso: string | null }) {
  if (iso === null) return <span>—</span>;
  return (
    <time dateTime={iso} title={formatFullTime(iso)}>
      {short.format(new Date(iso))}
    </time>
  );
}

function ParticipantsTable({
  studyId,
  rows,
  onWithdraw,
}: {
  studyId: string;
  rows: StudyParticipant[];
  onWithdraw: (row: StudyParticipant) => void;
}) {
  return (
    <div
      className="overflow-x-auto rounded-md border"
      tabIndex={0}
      role="region"
      aria-labelledby="participants-title"
    >
      <table className="w-full text-left text-sm" data-testid="participants-table">
        <thead className="bg-muted/50 text-xs">
          <tr className="[&>th]:whitespace-nowrap [&>th]:px-2 [&>th]:py-2 [&>th]:font-medium">
            <th scope="col">Participant</th>
            <th scope="col">Condition</th>
            <th scope="col">Status</th>
            <th scope="col">Started</th>
            <th scope="col">Finished</th>
            <th scope="col" className="text-right">
              Active min
            </th>
            <th scope="col" className="text-right">
              Steps
            </th>
            <th scope="col" className="text-right">
              Paths
            </th>
            <th scope="col" className="text-right">
              <span title="Words in the document by the participant / by the agent / by the agent, then edited">Words P / A / E</span>
              <span className="sr-only"> (participant / agent / agent-edited)</span>
            </th>
            <th scope="col">Last activity</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {rows.map((p) => (
            <tr
              key={p.participant_id}
              data-testid="participant-row"
              data-participant-id={p.participant_id}
              data-status={p.status}
            >
              <td className="whitespace-nowrap px-2 py-2 font-mono text-xs">{p.participant_id}</td>
              <td className="px-2 py-2" data-testid="participant-condition">
                {p.condition}
              </td>
              <td className="px-2 py-2">
                <StatusBadge status={p.status} />
              </td>
              <td className="whitespace-nowrap px-2 py-2"><Time iso={p.started} /></td>
              <td className="whitespace-nowrap px-2 py-2"><Time iso={p.finished} /></td>
              <td className="px-2 py-2 text-right tabular-nums">{minutes(p.active_minutes)}</td>
              <td className="px-2 py-2 text-right tabular-nums" data-testid="participant-steps">
                {p.steps}
              </td>
              <td className="px-2 py-2 text-right tabular-nums">{p.paths}</td>
              <td
                className="whitespace-nowrap px-2 py-2 text-right tabular-nums"
                data-testid="participant-words"
              >
                {p.words.participant} / {p.words.agent} / {p.words.agent_edited}
              </td>
              <td className="whitespace-nowrap px-2 py-2"><Time iso={p.last_activity} /></td>
              <td className="whitespace-nowrap px-2 py-2">
                {p.status !== 'withdrawn' && (
                  <div className="flex justify-end gap-1">
                    {p.thread_id !== null && (
                      <Button asChild variant="ghost" size="sm">
                        <Link
                          href={`/studies/${encodeURIComponent(studyId)}/c/${encodeURIComponent(p.thread_id)}`}
                          data-testid="participant-open"
                          aria-label={`Read ${p.participant_id}'s family`}
                        >
                          <Eye aria-hidden /> Read
                        </Link>
                      </Button>
                    )}
                    <Button
                      variant="ghost"
                      size="sm"
                      data-testid="participant-withdraw"
                      aria-label={`Withdraw ${p.participant_id}`}
                      onClick={() => onWithdraw(p)}
                    >
                      <UserMinus aria-hidden /> Withdraw
                    </Button>
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
