'use client';
import type { PathRef } from '@trellis/domain';
import { AtSign, BookOpen } from 'lucide-react';
import type { MouseEvent } from 'react';
import { stepHref } from '@/lib/api/compare';
import { useTrajectoryLinks } from './trajectory-links';

/** A link that opens a referenced or cited step (like an apply entry's source). */
function StepRefLink({ pathRef, testId, title }: { pathRef: PathRef; testId: string; title: string }) {
  const links = useTrajectoryLinks();
  const node = `${pathRef.thread_id}:${pathRef.turn}`;
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    if (links?.openStep === undefined) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    links.openStep(node);
  };
  return (
    <a
      href={stepHref(node)}
      onClick={open}
      data-testid={testId}
      data-node={node}
      title={title}
      className="font-mono font-semibold text-brand underline underline-offset-2 hover:no-underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {pathRef.label}
    </a>
  );
}

/** Under a user message: the steps of other paths it brought into the conversation, as chips. */
export function MessageRefs({ refs }: { refs: readonly PathRef[] }) {
  return (
    <ul className="flex flex-wrap justify-end gap-1" aria-label="Referenced steps" data-testid="message-refs">
      {refs.map((ref) => (
        <li key={`${ref.thread_id}:${ref.turn}`} className="inline-flex items-center gap-0.5 rounded-full border bg-card px-2 py-0.5 text-xs">
          <AtSign aria-hidden className="size-3 text-muted-foreground" />
          <StepRefLink pathRef={ref} testId="message-ref" title={`Open step ${ref.label}, referenced in this message`} />
        </li>
      ))}
    </ul>
  );
}

/** Under a reply: the referenced steps the agent read, each a link that opens it. */
export function ReplyCitations({ citations }: { citations: readonly PathRef[] }) {
  return (
    <p className="inline-flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground" data-testid="reply-citations">
      <BookOpen aria-hidden className="size-3.5 text-brand" />
      <span>Read from</span>
      {citations.map((citation, i) => (
        <span key={`${citation.thread_id}:${citation.turn}`}>
          <StepRefLink pathRef={citation} testId="citation-link" title={`Open step ${citation.label}, which the agent read`} />
          {i < citations.length - 1 ? ',' : ''}
        </span>
      ))}
    </p>
  );
}
