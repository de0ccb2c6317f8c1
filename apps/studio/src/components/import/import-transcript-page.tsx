'use client';
import { GitBranch, Layers, Loader2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { TranscriptInspection } from '@trellis/domain';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { DiagnosticsList, SkippedRecordTypes } from './diagnostics-list';
import { AlreadyImported, earlierImportOf } from './already-imported';
import { ImportError } from './import-error';
import { LeafTable, type LeafRow } from './leaf-table';
import { ProjectSummary } from './project-summary';
import { TranscriptDropZone } from './transcript-drop-zone';
import { useTranscriptImport, type ChosenFile, type ImportMode } from './use-transcript-import';

const FORMAT_LABEL: Record<TranscriptInspection['format'], string> = {
  'qwen-code': 'Qwen Code',
  'claude-code': 'Claude Code',
};

/** Upload a transcript, see every leaf, import them as one family or as separate conversations. */
export function ImportTranscriptPage({ email }: { email: string }) {
  const flow = useTranscriptImport();
  const inspection = flow.inspection;
  const isBusy = flow.busyName !== null || flow.isImporting;

  return (
    <div className="min-h-full" data-testid="import-page">
      <PageHeader section="Import" email={email} />

      <main className="mx-auto max-w-6xl space-y-5 px-4 py-6 md:py-8">
        <div className="space-y-1">
          <h1 className="text-xl font-semibold">Import an agent transcript</h1>
          <p className="max-w-3xl text-sm text-muted-foreground">
            Agent sessions fork: rewinds, edited prompts and regenerated answers all leave paths in the file. Trellis lists
            every leaf, then brings them in as one branch family — shared steps once, each divergence a branch at its step —
            or as separate conversations.
          </p>
        </div>

        <TranscriptDropZone onFile={(file) => void flow.choose(file)} isBusy={isBusy} isCompact={flow.file !== null || inspection !== undefined} />

        {flow.readError !== null && <ImportError error={flow.readError} title="This file cannot be imported" />}
        {flow.busyName !== null && <Inspecting name={flow.busyName} />}
        {flow.inspectError !== null && flow.file && (
          <ImportError error={flow.inspectError} title={`${flow.file.name} could not be inspected`} />
        )}
        {inspection && flow.file && flow.busyName === null && (
          <InspectionView
            key={flow.file.name + flow.file.size}
            file={flow.file}
            inspection={inspection}
            isImporting={flow.isImporting}
            importError={flow.importError}
            onImport={flow.startImport}
          />
        )}
      </main>
    </div>
  );
}

function Inspecting({ name }: { name: string }) {
  return (
    <div className="space-y-3" data-testid="inspect-loading" aria-busy="true">
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Loader2 aria-hidden className="size-4 animate-spin" /> Reading the leaves of {name}…
      </p>
      <Skeleton className="h-10" />
      <Skeleton className="h-16" />
      <Skeleton className="h-16" />
    </div>
  );
}

function InspectionView({
  file,
  inspection,
  isImporting,
  importError,
  onImport,
}: {
  file: ChosenFile;
  inspection: TranscriptInspection;
  isImporting: boolean;
  importError: unknown;
  onImport: (mode: ImportMode) => void;
}) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [lastMode, setLastMode] = useState<ImportMode | null>(null);
  const mode = lastMode?.kind ?? null;
  const rows = useMemo<LeafRow[]>(
    () => inspection.branches.map((branch, i) => ({ branch, leaf: inspection.leaves[i]! })),
    [inspection],
  );
  const toggle = (uuid: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(uuid)) next.add(uuid);
      return next;
    });
  const toggleAll = (select: boolean) =>
    setSelected(select ? new Set(rows.filter((r) => r.leaf.turn_count > 0).map((r) => r.leaf.leaf_uuid)) : new Set());
  const start = (next: ImportMode) => {
    setLastMode(next);
    onImport(next);
  };
  const earlier = earlierImportOf(importError);
  const leafCount = rows.length;
  const chosen = rows.filter((r) => selected.has(r.leaf.leaf_uuid)).map((r) => r.leaf.leaf_uuid);

  return (
    <section className="space-y-4" aria-label="Inspection" data-testid="inspection">
      <div className="flex flex-wrap items-baseline justify-between gap-2" data-testid="inspection-summary">
        <h2 className="text-base font-semibold">
          <span className="font-mono text-sm">{file.name}</span>
          <span className="ml-2 font-normal text-muted-foreground">
            {FORMAT_LABEL[inspection.format]} · {inspection.record_count.toLocaleString()} records ·{' '}
            <span data-testid="leaf-count">
              {leafCount} {leafCount === 1 ? 'leaf' : 'leaves'}
            </span>
          </span>
        </h2>
        <span className="text-xs text-muted-foreground">{formatSize(file.size)}</span>
      </div>

      {inspection.project && <ProjectSummary project={inspection.project} />}

      <DiagnosticsList
        readerDiagnostics={inspection.reader_diagnostics}
        readerDiagnosticCount={inspection.reader_diagnostic_count}
        diagnostics={inspection.diagnostics}
        diagnosticCount={inspection.diagnostic_count}
      />
      <SkippedRecordTypes skipped={inspection.skipped_record_types} />

      {/* A project folder imports as one family only: its leaves are listed, not chosen. */}
      <LeafTable
        rows={rows}
        selected={selected}
        onToggle={toggle}
        onToggleAll={toggleAll}
        isDisabled={isImporting || file.zip !== undefined}
      />

      {earlier !== null && lastMode !== null ? (
        <AlreadyImported
          error={importError}
          earlier={earlier}
          isImporting={isImporting}
          onImportAgain={() => start({ ...lastMode, again: true })}
        />
      ) : (
        importError !== null && <ImportError error={importError} title="The import failed; nothing was created" />
      )}

      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-end">
        {file.zip === undefined && (
        <Button
          variant="outline"
          data-testid="import-selected"
          disabled={isImporting || chosen.length === 0}
          onClick={() => start({ kind: 'separate', leafUuids: chosen })}
          title="One independent conversation per checked leaf, each with its full history"
        >
          {isImporting && mode === 'separate' ? <Loader2 className="animate-spin" /> : <Layers />}
          Import selected as separate conversations{chosen.length > 0 ? ` (${chosen.length})` : ''}
        </Button>
        )}
        <Button
          data-testid="import-family"
          disabled={isImporting}
          onClick={() => start({ kind: 'family' })}
          title="Shared steps once, each divergence a branch at its step"
        >
          {isImporting && mode === 'family' ? <Loader2 className="animate-spin" /> : <GitBranch />}
          Import all as one family
        </Button>
      </div>
    </section>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
