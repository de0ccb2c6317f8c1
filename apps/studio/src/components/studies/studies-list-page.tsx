'use client';
import { FlaskConical, Plus } from 'lucide-react';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { studiesApi, studyKeys } from '@/lib/api/studies';
import { ErrorNote, describeError } from './study-error';
import { StatusBadge } from './status-badge';
import { LoadingNote, EmptyNote } from '@/components/ui/list-states';

/** The researcher's studies, newest first, each opening its dashboard. */
export function StudiesListPage({ email }: { email: string }) {
  const studies = useQuery({ queryKey: studyKeys.list(), queryFn: ({ signal }) => studiesApi.list(signal) });
  return (
    <div className="min-h-full" data-testid="studies-page">
      <PageHeader section="Studies" email={email} />
      <main className="mx-auto max-w-3xl space-y-6 px-4 py-6 md:py-8">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="space-y-1">
            <h1 className="text-xl font-semibold">Studies</h1>
            <p className="text-sm text-muted-foreground">
              Run one co-writing task with many participants under conditions, watch them live, and download
              one dataset.
            </p>
          </div>
          <Button asChild>
            <Link href="/studies/new" data-testid="new-study">
              <Plus aria-hidden /> New study
            </Link>
          </Button>
        </div>
        <ErrorNote message={studies.isError ? describeError(studies.error) : null} testId="studies-error" />
        {studies.isPending ? (
          <LoadingNote />
        ) : studies.data?.studies.length === 0 ? (
          <EmptyNote testId="studies-empty">
            No studies yet. Create one to get a link for participants.
          </EmptyNote>
        ) : (
          <ul className="divide-y rounded-md border" data-testid="studies-list">
            {studies.data?.studies.map((s) => (
              <li
                key={s.study_id}
                data-testid="study-row"
                className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2"
              >
                <FlaskConical aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                <Link
                  href={`/studies/${s.study_id}`}
                  className="min-w-0 flex-1 truncate font-medium underline-offset-2 hover:underline"
                >
                  {s.title}
                </Link>
                <StatusBadge status={s.status} />
                <span className="text-xs text-muted-foreground">
                  {s.participants} {s.participants === 1 ? 'participant' : 'participants'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
