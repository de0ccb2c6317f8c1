'use client';
import { Download } from 'lucide-react';
import { useEffect, useRef, type KeyboardEvent } from 'react';

/** What the menu offers, document first: a researcher hands on the document, not the chat. */
const EXPORTS = [
  { label: 'Document (.md)', query: 'format=markdown&part=document', testId: 'export-document-md' },
  { label: 'Document (.docx)', query: 'format=docx&part=document', testId: 'export-document-docx' },
  { label: 'This path with its steps (.md)', query: 'format=markdown', testId: 'export-markdown' },
  { label: 'Every path (.zip)', query: 'format=markdown&scope=family', testId: 'export-family' },
  { label: 'Research dataset (.zip of CSV tables)', query: 'format=dataset', testId: 'export-dataset' },
] as const;

/**
 * "Export" in the header: the document (Markdown or Word), the displayed path with its steps, or every
 * path as a zip (one `.md` per path and the graph as Mermaid) — plain links to
 * `GET /api/conversations/{id}/export`, so the browser downloads them with the filename the server names.
 */
export function ExportMenu({ threadId }: { threadId: string | null }) {
  const menu = useRef<HTMLDetailsElement>(null);
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
      </div>
    </details>
  );
}
