'use client';
import { displayedDocumentTitle, type WorkspaceDocument } from '@trellis/domain';
import { Eye, FileText, PencilLine } from 'lucide-react';
import dynamic from 'next/dynamic';
import { useState } from 'react';
import { Markdown } from '@/components/ui/markdown';
import { Skeleton } from '@/components/ui/skeleton';
import { EditableText } from '@/components/ui/editable-text';
import { cn } from '@/lib/cn';
import { SaveIndicator } from './save-indicator';
import { useAutosave } from './use-autosave';
import { WorkspaceSection } from './workspace-section';

const MarkdownEditor = dynamic(() => import('./markdown-editor'), {
  ssr: false,
  loading: () => <Skeleton className="m-3 h-56" />,
});

export interface DocumentSectionProps {
  document: WorkspaceDocument;
  onSaveContent: (content: string) => Promise<void>;
  onSaveTitle: (title: string) => void;
}

/** The document: title, a markdown editor with autosave, and a rendered preview. */
export function DocumentSection({ document, onSaveContent, onSaveTitle }: DocumentSectionProps) {
  const autosave = useAutosave(document.content, onSaveContent);
  const [isPreview, setIsPreview] = useState(false);

  return (
    <WorkspaceSection
      title="Document"
      icon={FileText}
      testId="document-section"
      actions={
        <>
          <SaveIndicator
            state={autosave.state}
            testId="document-save-state"
            onRetry={() => void autosave.flush()}
          />
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
        value={document.title}
        label="Document title"
        // While untitled, the document is called by its first heading.
        placeholder={displayedDocumentTitle('', autosave.draft) ?? 'Untitled document'}
        testId="document-title"
        className="-mx-2 mb-1 w-[calc(100%+1rem)] font-semibold"
        onCommit={onSaveTitle}
      />
      <div className="overflow-hidden rounded-md border bg-card">
        <div data-testid="document-editor" className={cn(isPreview && 'hidden')}>
          <MarkdownEditor
            value={autosave.draft}
            onChange={autosave.onChange}
            onBlur={() => void autosave.flush()}
          />
        </div>
        {isPreview && (
          <div data-testid="document-preview" className="min-h-60 px-4 py-2 text-sm">
            {autosave.draft.trim() ? (
              <Markdown source={autosave.draft} />
            ) : (
              <p className="py-2 text-muted-foreground">The document is empty.</p>
            )}
          </div>
        )}
      </div>
    </WorkspaceSection>
  );
}
