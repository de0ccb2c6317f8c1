'use client';
import { Loader2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { JoinStudy, StudyLanding } from '@trellis/domain';
import { Button } from '@/components/ui/button';
import { Markdown } from '@/components/ui/markdown';
import { joinApi } from '@/lib/api/studies';
import { ErrorNote, describeError } from './study-error';
import { StudyMessage } from './study-message';
import { TrellisMark } from '@/components/ui/trellis-mark';

/** The link's ids kept with the participant: `?pid=` and the Prolific names. */
export type JoinIds = Pick<JoinStudy, 'pid' | 'PROLIFIC_PID' | 'STUDY_ID' | 'SESSION_ID'>;

/**
 * The study's consent (docs/studies.md): Agree joins — the participant's family and a session
 * cookie — and opens their studio; Decline stores nothing and says so. A closed study says it
 * admits no one new.
 */
export function ConsentPage({
  slug,
  study,
  ids,
  signedInAs,
}: {
  slug: string;
  study: StudyLanding;
  ids: JoinIds;
  /** The account this browser is signed in to, if any. */
  signedInAs: string | null;
}) {
  const router = useRouter();
  const [declined, setDeclined] = useState(false);
  const join = useMutation({
    mutationFn: () => joinApi.join(slug, { consent: true, ...ids }),
    onSuccess: (joined) =>
      router.push(`/join/s/${encodeURIComponent(slug)}/c/${encodeURIComponent(joined.thread_id)}`),
  });
  if (study.status === 'closed') {
    return (
      <StudyMessage title="This study is closed" testId="study-closed">
        <p>“{study.title}” is no longer taking participants. Thank you for your interest.</p>
      </StudyMessage>
    );
  }
  if (declined) {
    return (
      <StudyMessage title="You declined" testId="consent-declined">
        <p>Nothing about you was stored. You can close this page.</p>
        <p>
          <button
            type="button"
            className="text-primary underline underline-offset-2"
            onClick={() => setDeclined(false)}
          >
            Read the consent again
          </button>
        </p>
      </StudyMessage>
    );
  }
  return (
    <main className="mx-auto flex min-h-dvh max-w-2xl flex-col gap-5 px-4 py-8" data-testid="consent-page">
      <div className="flex items-center gap-2">
        <TrellisMark />
      </div>
      <h1 className="text-xl font-semibold">{study.title}</h1>
      <section aria-labelledby="consent-title" className="space-y-2 rounded-md border p-4">
        <h2 id="consent-title" className="text-base font-semibold">
          Consent
        </h2>
        {study.consent.trim() === '' ? (
          <p className="text-sm text-muted-foreground">
            Taking part means writing with an AI assistant; your writing is recorded for research.
          </p>
        ) : (
          <Markdown source={study.consent} className="text-sm" />
        )}
      </section>
      {signedInAs !== null && (
        <p className="rounded-md border bg-muted/40 px-3 py-2 text-sm" data-testid="consent-signed-in">
          This browser is signed in to Trellis as {signedInAs}, and that account — not a participant — would act in the
          study. To take part as a participant (or to try your own study as one), open this link in a private window.
        </p>
      )}
      <ErrorNote message={join.isError ? describeError(join.error) : null} testId="consent-error" />
      <div className="flex flex-wrap justify-end gap-2">
        <Button
          variant="outline"
          data-testid="consent-decline"
          disabled={join.isPending || join.isSuccess}
          onClick={() => setDeclined(true)}
        >
          Decline
        </Button>
        <Button
          data-testid="consent-agree"
          disabled={join.isPending || join.isSuccess}
          onClick={() => join.mutate()}
        >
          {(join.isPending || join.isSuccess) && <Loader2 aria-hidden className="animate-spin" />} I agree —
          start
        </Button>
      </div>
    </main>
  );
}
