'use client';
import { Download } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

/** What the menu offers, document first: a researcher hands on the document, not the chat. */
const EXPORTS = [
  { label: 'Document (.md)', query: 'format=markdown&part=document', testId: 'export-document-md' },
  { label: 'Document (.docx)', query: 'format=docx&part=document', testId: 'export-document-docx' },
  { label: 'This path with its steps (.md)', query: 'format=markdown', testId: 'export-markdown' },
  { label: 'Every path (.zip)', query: 'format=markdown&scope=family', testId: 'export-family' },
] as const;

const DATASET_QUERY = 'format=dataset';

/**
 * "Export" in the header: the document (Markdown or Word), the displayed path with its steps, or every
 * path as a zip (one `.md` per path and the graph as Mermaid) — plain links to
 * `GET /api/conversations/{id}/export`, so the browser downloads them with the filename the server names.
 */
export function ExportMenu({ threadId }: { threadId: string | null }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const dataset = useDatasetDownload();
  // A click anywhere else closes the menu, as any menu does (a bare <details> stays open).
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const element = menu.current;
      if (element?.open && !element.contains(event.target as Node)) element.removeAttribute('open');
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, []);
  if (threadId === null) return null;
  const base = `/api/conversations/${encodeURIComponent(threadId)}/export?`;
  const close = () => menu.current?.removeAttribute('open');
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !menu.current?.open) return;
    event.stopPropagation();
    close();
    menu.current.querySelector('summary')?.focus();
  };
  return (
    <details ref={menu} className="relative" data-testid="export-menu" onKeyDown={onKeyDown}>
      <summary
        className="inline-flex h-8 cursor-pointer list-none items-center gap-1.5 rounded-md px-2 text-sm font-medium hover:bg-accent hover:text-accent-foreground md:px-3 [&::-webkit-details-marker]:hidden"
        title="Export the document, this path or its family"
        data-testid="export-toggle"
      >
        <Download aria-hidden className="size-4" /> <span className="hidden md:inline">Export</span>
        <span className="sr-only md:hidden">Export</span>
        {/* In the toggle, so it stays in view once the menu closes; empty (and so no width) while idle. */}
        <span
          aria-live="polite"
          data-testid="export-dataset-progress"
          className="text-xs font-normal text-muted-foreground empty:hidden"
        >
          {dataset.progress !== null ? formatBytes(dataset.progress) : (dataset.error ?? '')}
        </span>
      </summary>
      <div className="absolute right-0 z-50 mt-1 flex w-64 flex-col rounded-md border bg-popover p-1 text-sm text-popover-foreground shadow-md">
        {EXPORTS.map((item) => (
          <a
            key={item.testId}
            href={`${base}${item.query}`}
            download
            data-testid={item.testId}
            className="rounded px-2 py-1.5 hover:bg-accent hover:text-accent-foreground"
            onClick={close}
          >
            {item.label}
          </a>
        ))}
        <button
          type="button"
          data-testid="export-dataset"
          disabled={dataset.progress !== null}
          onClick={() => {
            close();
            void dataset.start(`${base}${DATASET_QUERY}`);
          }}
          className="rounded px-2 py-1.5 text-left hover:bg-accent hover:text-accent-foreground disabled:opacity-70"
        >
          Research dataset (.zip of CSV tables)
        </button>
      </div>
    </details>
  );
}

/**
 * The dataset streams as the server builds it (a family of thousands of steps takes a while): read
 * here chunk by chunk so the menu can say how far it is, then handed to the browser as a download
 * named as the server names it.
 */
function useDatasetDownload() {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = async (href: string) => {
    setError(null);
    setProgress(0);
    try {
      const response = await fetch(href, { credentials: 'same-origin' });
      if (!response.ok || !response.body)
        throw new Error(`The dataset could not be made (${response.status}).`);
      const reader = response.body.getReader();
      const parts: Uint8Array[] = [];
      let received = 0;
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        parts.push(next.value);
        received += next.value.byteLength;
        setProgress(received);
      }
      const name = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1];
      const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: 'application/zip' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = name ? decodeURIComponent(name) : 'dataset.zip';
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'The dataset could not be made.');
    } finally {
      setProgress(null);
    }
  };
  return { progress, error, start };
}

function formatBytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
