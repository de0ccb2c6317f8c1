'use client';
import { PanelRight, RotateCcw } from 'lucide-react';
import type { ReactNode } from 'react';
import { useConflictCount, usePendingSaveCount } from '@/components/workspace/pending-saves';
import { Button } from '@/components/ui/button';
import { Skeleton, SkeletonList } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api/http';
import { ArtifactList } from './artifact-list';
import { DocumentSection } from './document-section';
import { ObjectiveField } from './objective-field';
import { PreferenceList } from './preference-list';
import { ReadOnlyWorkspace } from './read-only-workspace';
import { TodoList } from './todo-list';
import { CommentsSection } from '@/components/comments/comments-section';
import { usePathComments } from '@/components/comments/use-path-comments';
import type { WorkspaceSource } from './workspace-source';

export interface WorkspacePreview {
  stepLabel: string;
  isEdited: boolean;
}

/**
 * The right column: objective, document, preferences, todos, artifacts of the displayed view. For a
 * restored step (`preview`) the edits stay in the page until a send branches, so it says so instead
 * of reporting saves.
 */
export function WorkspacePanel({
  source,
  preview,
  headerAction,
  isReadOnly = false,
  userId = null,
}: {
  source: WorkspaceSource;
  /** The caller may read but not write this family: the workspace shows as text. */
  isReadOnly?: boolean;
  preview?: WorkspacePreview | null;
  /** A control beside the title (the path's Replay button). */
  headerAction?: ReactNode;
  /** The signed-in person (whose comments are "mine"). */
  userId?: string | null;
}) {
  return (
    <section aria-label="Workspace" className="flex h-full min-h-0 flex-col" data-testid="workspace-panel">
      <header className="flex h-11 shrink-0 items-center justify-between gap-2 border-b px-4">
        <h2 className="text-sm font-semibold">
          Workspace
          {preview && <span className="font-normal text-muted-foreground"> · step {preview.stepLabel}</span>}
        </h2>
        <span className="flex min-w-0 items-center gap-2">
          {preview ? <PreviewState isEdited={preview.isEdited} /> : source.status === 'ready' && <SyncState />}
          {headerAction}
        </span>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <Body source={source} isReadOnly={isReadOnly} userId={userId} isPreview={preview != null} />
      </div>
    </section>
  );
}

function Body({
  source,
  isReadOnly,
  userId,
  isPreview,
}: {
  source: WorkspaceSource;
  isReadOnly: boolean;
  userId: string | null;
  isPreview: boolean;
}) {
  const { status, workspace, actions } = source;
  // Comments belong to the live path (a restored step is a preview, not yet a path of its own).
  const liveThreadId = source.key !== null && !source.key.includes('@') ? source.key : null;
  const comments = usePathComments(liveThreadId, workspace?.document.version);
  if (status === 'idle') {
    return (
      <div
        className="flex flex-col items-center gap-2 px-6 py-16 text-center text-sm text-muted-foreground"
        data-testid="workspace-empty"
      >
        <PanelRight className="size-6" />
        <p>Each conversation has a workspace: an objective, a document, preferences, todos and artifacts.</p>
        <p>Open or start a conversation to see it here.</p>
      </div>
    );
  }
  if (status === 'error' || (status === 'ready' && !workspace)) {
    return (
      <div className="space-y-2 px-4 py-6 text-sm" role="alert" data-testid="workspace-error">
        <p className="text-destructive">Could not load the workspace: {errorMessage(source.error)}</p>
        <Button size="sm" variant="outline" onClick={source.retry}>
          <RotateCcw /> Retry
        </Button>
      </div>
    );
  }
  if (!workspace) {
    return (
      <div className="space-y-5 px-4 py-4" data-testid="workspace-loading" aria-busy="true">
        <Skeleton className="h-10" />
        <Skeleton className="h-56" />
        <SkeletonList rows={3} />
        <SkeletonList rows={4} />
      </div>
    );
  }
  const commentsSection = liveThreadId !== null && (
    <CommentsSection
      comments={comments.controller}
      userId={userId}
      selection={isReadOnly ? null : comments.selection}
      composing={comments.composing}
      onComposed={comments.clearComposing}
    />
  );
  if (isReadOnly) {
    return (
      <>
        <ReadOnlyWorkspace workspace={workspace} />
        {commentsSection}
      </>
    );
  }
  return (
    <div data-testid="workspace" key={source.key}>
      <ObjectiveField objective={workspace.objective} onChange={actions.setObjective} />
      <DocumentSection
        document={workspace.document}
        onSaveContent={actions.saveDocumentContent}
        onSaveTitle={actions.setDocumentTitle}
        sourceKey={source.key}
        commentOverlay={comments.overlay}
        reportsSaves={!isPreview}
      />
      {commentsSection}
      <PreferenceList preferences={workspace.preferences} actions={actions} />
      <TodoList todos={workspace.todos} actions={actions} />
      <ArtifactList artifacts={workspace.artifacts} />
    </div>
  );
}

function PreviewState({ isEdited }: { isEdited: boolean }) {
  return (
    <span
      data-testid="workspace-preview-state"
      data-edited={isEdited}
      title="Edits to a restored step are kept in this page and go to the new branch when you send"
      className="truncate rounded-full bg-brand-soft px-2 py-0.5 text-xs text-brand"
    >
      {isEdited ? 'Edited · goes with your next message' : 'Restored · edits go with your next message'}
    </span>
  );
}

function SyncState() {
  const pending = usePendingSaveCount();
  const conflicts = useConflictCount();
  // "All changes saved" only when it is true: a save refused as overlapping waits in its merge view.
  const state = conflicts > 0 ? 'conflict' : pending > 0 ? 'saving' : 'saved';
  return (
    <span
      data-testid="workspace-sync"
      data-state={state}
      className={state === 'conflict' ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}
    >
      {state === 'conflict' ? 'Not saved: merge the document' : state === 'saving' ? 'Saving…' : 'All changes saved'}
    </span>
  );
}
