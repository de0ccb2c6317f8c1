'use client';
import { displayedDocumentTitle, joinAnd, reviewMerge, settleReview, type DocumentChanger, type ReviewSide, type WorkspaceDocument } from '@trellis/domain';
import { Download, Eye, FileText, PencilLine, UserPen } from 'lucide-react';
import dynamic from 'next/dynamic';
import type { Extension } from '@codemirror/state';
import { useMemo, useState, type ReactNode } from 'react';
import { TypingNote } from '@/components/presence/presence-avatars';
import { useCurrentUser } from '@/components/members/current-user';
import { Markdown } from '@/components/ui/markdown';
import { Skeleton } from '@/components/ui/skeleton';
import { EditableText } from '@/components/ui/editable-text';
import { authorshipApi } from '@/lib/api/authorship';
import { cn } from '@/lib/cn';
import { authorshipExtension } from './authorship/authorship-extension';
import { AuthorshipLegend } from './authorship/authorship-legend';
import { AuthorshipMarkdown } from './authorship/authorship-markdown';
import { spanContext } from './authorship/span-title';
import { authorshipTarget, useAuthorship } from './authorship/use-authorship';
import { DocumentReview } from './document-review';
import { SaveIndicator } from './save-indicator';
import { useCollabDocument } from './collab/use-collab-document';
import { useAutosave, type Autosave, type SaveConflict, type SaveState } from './use-autosave';
import type { SavedDocument } from './workspace-source';
import { WorkspaceSection } from './workspace-section';

const MarkdownEditor = dynamic(() => import('./markdown-editor'), {
  ssr: false,
  loading: () => <Skeleton className="m-3 h-56" />,
});

export interface DocumentSectionProps {
  document: WorkspaceDocument;
  onSaveContent: (content: string, baseVersion?: number) => Promise<SavedDocument | void>;
  onSaveTitle: (title: string) => void;
  /** The workspace source's key (`thread`, or `thread@step` for a restored step): what the authorship overlay reads. */
  sourceKey?: string | null;
  /** The comments' highlights and shortcut in the editor (see components/comments). */
  commentOverlay?: Extension | null;
  /**
   * Whether the section shows its own save state. A restored step's edits stay in the page until a
   * send, and the panel's header says so once: a "Saved" here beside it would contradict it.
   */
  reportsSaves?: boolean;
}

/**
 * The document: title, a markdown editor, and a rendered preview. The live thread's document is a
 * live editor two people and the agent write at once (`useCollabDocument`); a restored step's is the
 * page's own copy with the autosave of its workspace source.
 */
export function DocumentSection(props: DocumentSectionProps) {
  const target = useMemo(() => authorshipTarget(props.sourceKey ?? null), [props.sourceKey]);
  const version = props.document.version;
  if (target?.turn === null && version !== undefined) {
    return <LiveDocumentSection {...props} threadId={target.threadId} version={version} />;
  }
  return <SavedDocumentSection {...props} />;
}

function LiveDocumentSection({
  document,
  onSaveTitle,
  sourceKey = null,
  commentOverlay = null,
  reportsSaves = true,
  threadId,
  version,
}: DocumentSectionProps & { threadId: string; version: number }) {
  const live = useCollabDocument(threadId, { content: document.content, version });
  return (
    <DocumentFrame
      title={document.title}
      text={live.text}
      saveState={live.status}
      onRetry={() => void live.flush()}
      onSaveTitle={onSaveTitle}
      sourceKey={sourceKey}
      commentOverlay={commentOverlay}
      reportsSaves={reportsSaves}
      note={<TypingNote threadId={threadId} />}
      editor={(overlay) => (
        <MarkdownEditor
          value={live.initialText}
          collab={live.extension}
          onCreateEditor={live.onCreateEditor}
          overlay={overlay}
        />
      )}
    />
  );
}

function SavedDocumentSection({
  document,
  onSaveContent,
  onSaveTitle,
  sourceKey = null,
  commentOverlay = null,
  reportsSaves = true,
}: DocumentSectionProps) {
  const autosave = useAutosave(document.content, onSaveContent, undefined, document.version);
  return (
    <DocumentFrame
      title={document.title}
      text={autosave.draft}
      saveState={autosave.state}
      onRetry={() => void autosave.flush()}
      onSaveTitle={onSaveTitle}
      sourceKey={sourceKey}
      commentOverlay={commentOverlay}
      reportsSaves={reportsSaves}
      conflict={
        autosave.conflict && (
          <DocumentConflict
            conflict={autosave.conflict}
            draft={autosave.draft}
            onResolve={autosave.resolve}
          />
        )
      }
      editor={(overlay) => (
        <MarkdownEditor
          value={autosave.draft}
          onChange={autosave.onChange}
          onBlur={() => void autosave.flush()}
          overlay={overlay}
        />
      )}
    />
  );
}

function DocumentFrame({
  title,
  text,
  saveState,
  onRetry,
  onSaveTitle,
  sourceKey,
  commentOverlay,
  reportsSaves,
  conflict = null,
  note = null,
  editor,
}: {
  title: string;
  text: string;
  saveState: SaveState;
  onRetry: () => void;
  onSaveTitle: (title: string) => void;
  sourceKey: string | null;
  commentOverlay: Extension | null;
  reportsSaves: boolean;
  conflict?: ReactNode;
  note?: ReactNode;
  editor: (overlay: Extension | null) => ReactNode;
}) {
  const [isPreview, setIsPreview] = useState(false);
  const [isAuthorship, setIsAuthorship] = useState(false);
  const target = useMemo(() => authorshipTarget(sourceKey), [sourceKey]);
  const authorship = useAuthorship(target, isAuthorship, text);
  const shown = isAuthorship ? authorship.data : undefined;
  const hoverContext = useMemo(() => spanContext(shown), [shown]);
  const authorshipOverlay = useMemo(() => (shown ? authorshipExtension(shown, hoverContext) : null), [shown, hoverContext]);
  const overlay = useMemo(
    () => (authorshipOverlay && commentOverlay ? [authorshipOverlay, commentOverlay] : (authorshipOverlay ?? commentOverlay)),
    [authorshipOverlay, commentOverlay],
  );

  return (
    <WorkspaceSection
      title="Document"
      icon={FileText}
      testId="document-section"
      actions={
        <>
          {reportsSaves && <SaveIndicator state={saveState} testId="document-save-state" onRetry={onRetry} />}
          {target && (
            <button
              type="button"
              data-testid="document-authorship-toggle"
              aria-pressed={isAuthorship}
              title="Colour the text by who wrote it"
              onClick={() => setIsAuthorship((on) => !on)}
              className={cn(
                'ml-2 inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs hover:bg-accent',
                isAuthorship && 'bg-accent',
              )}
            >
              <UserPen className="size-3.5" />
              Authorship
            </button>
          )}
          <button
            type="button"
            data-testid="document-preview-toggle"
            aria-pressed={isPreview}
            onClick={() => setIsPreview((p) => !p)}
            className="ml-2 inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs hover:bg-accent"
          >
            {isPreview ? <PencilLine className="size-3.5" /> : <Eye className="size-3.5" />}
            {isPreview ? 'Edit' : 'Preview'}
          </button>
        </>
      }
    >
      <EditableText
        value={title}
        label="Document title"
        // While untitled, the document is called by its first heading.
        placeholder={displayedDocumentTitle('', text) ?? 'Untitled document'}
        testId="document-title"
        className="-mx-2 mb-1 w-[calc(100%+1rem)] font-semibold"
        onCommit={onSaveTitle}
      />
      {note}
      {conflict}
      <div className={cn('overflow-hidden rounded-md border bg-card', conflict && 'hidden')}>
        {isAuthorship && (
          <div
            data-testid="authorship-overlay"
            data-state={shown ? 'ready' : authorship.isError ? 'error' : 'loading'}
            className="border-b"
          >
            {shown ? (
              <div className="flex flex-wrap items-center justify-between gap-x-2">
                <AuthorshipLegend authorship={shown} />
                {target?.turn === null && (
                  <a
                    href={authorshipApi.reportHref(target.threadId)}
                    download
                    data-testid="authorship-report"
                    className="mx-3 mb-2 inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs hover:bg-accent"
                  >
                    <Download className="size-3.5" /> Authorship report
                  </a>
                )}
              </div>
            ) : (
              <p
                className="px-3 py-2 text-xs text-muted-foreground"
                role={authorship.isError ? 'alert' : undefined}
              >
                {authorship.isError ? 'Could not load who wrote what.' : 'Loading who wrote what…'}
              </p>
            )}
          </div>
        )}
        <div data-testid="document-editor" className={cn(isPreview && 'hidden')}>
          {editor(overlay)}
        </div>
        {isPreview && (
          <div data-testid="document-preview" className="min-h-60 px-4 py-2 text-sm">
            {text.trim() ? (
              shown ? (
                <AuthorshipMarkdown source={text} authorship={shown} context={hoverContext} />
              ) : (
                <Markdown source={text} />
              )
            ) : (
              <p className="py-2 text-muted-foreground">The document is empty.</p>
            )}
          </div>
        )}
      </div>
    </WorkspaceSection>
  );
}

/**
 * The merge view of a save refused as overlapping (409): a three-way review of what the person's copy
 * was loaded from, their text and the current one. It starts from everything both sides did (the
 * person's text where both changed the same paragraphs); each hunk is labelled by who made it, and
 * accepting or rejecting one changes only that hunk, so nothing the person did not touch is reverted.
 */
function DocumentConflict({
  conflict,
  draft,
  onResolve,
}: {
  conflict: SaveConflict;
  draft: string;
  onResolve: Autosave['resolve'];
}) {
  const me = useCurrentUser();
  // The review is of the draft as it was refused.
  const [review] = useState(() => reviewMerge(conflict.base, draft, conflict.content));
  const [accepted, setAccepted] = useState<boolean[]>(() => review.hunks.map(() => true));
  const labels = useMemo(() => {
    const who = changerNames(conflict.changedBy, me?.id);
    return review.hunks.map((hunk) => hunkLabel(hunk.side, who));
  }, [review, conflict.changedBy, me?.id]);
  return (
    <div
      data-testid="document-conflict"
      role="region"
      aria-label="Merge the document"
      className="mb-2 rounded-md border border-destructive/50 p-2"
    >
      <p className="mb-2 text-xs">
        The document changed elsewhere while you edited the same words. Each change below is labelled by who made it and is
        kept unless you choose otherwise; a choice changes that one only. Then save the result.
      </p>
      <DocumentReview
        review={review}
        labels={labels}
        accepted={accepted}
        onChoose={(index, accept) => setAccepted((now) => now.map((value, i) => (i === index ? accept : value)))}
      />
      <div className="mt-2 flex flex-wrap gap-2">
        <button
          type="button"
          data-testid="document-conflict-save"
          onClick={() => void onResolve(settleReview(review, accepted))}
          className="rounded-md border bg-primary px-2 py-1 text-xs text-primary-foreground hover:opacity-90"
        >
          Save the merged text
        </button>
        <button
          type="button"
          data-testid="document-conflict-discard"
          onClick={() => void onResolve(conflict.content)}
          className="rounded-md border px-2 py-1 text-xs hover:bg-accent"
        >
          Keep the current document
        </button>
      </div>
    </div>
  );
}

/** "the agent", "your other tab", "Ada" — who made the changes a save overlapped, as one phrase. */
function changerNames(changedBy: readonly DocumentChanger[], myId: string | undefined): string {
  const names = changedBy.map((c) => (c.kind === 'agent' ? 'the agent' : c.user_id === myId ? 'your other tab' : (c.name ?? 'another person')));
  return names.length === 0 ? 'the other copy' : joinAnd(names);
}

function hunkLabel(side: ReviewSide, who: string): string {
  if (side === 'mine') return 'Your edit';
  if (side === 'theirs') return `Changed by ${who}`;
  return `Your edit, over a change by ${who}`;
}
