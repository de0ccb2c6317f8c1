'use client';
import { markdownHeadings, type ApplyDryRun, type ApplyItem, type SectionPlace } from '@trellis/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { applyApi } from '@/lib/api/apply';
import { isApiError } from '@/lib/api/http';
import { queryKeys } from '@/lib/api/query-keys';
import { FAMILY_GRAPH_KEY } from '@/components/studio/use-family-graph';
import type { ApplySide } from './apply-candidates';
import { applyErrorMessage } from './apply-error';
import { ComparisonBody } from './comparison-body';

export interface ApplyStep {
  readonly node_id: string;
  readonly label: string;
}

export interface ApplyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The side the items land on, and the step that side shows. */
  side: ApplySide;
  target: ApplyStep;
  source: ApplyStep;
  items: readonly ApplyItem[];
  /** Ticked items the source does not have (left out of the request). */
  unavailable: readonly string[];
}

const threadOf = (nodeId: string) => nodeId.slice(0, nodeId.lastIndexOf(':'));

/**
 * "Apply to A/B": first the dry run (the target path now → after the apply, nothing written), then
 * on confirm the apply itself, one new step at the end of the target path, which the studio opens.
 */
export function ApplyDialog({ open, onOpenChange, side, target, source, items, unavailable }: ApplyDialogProps) {
  const name = side.toUpperCase();
  const targetThread = threadOf(target.node_id);
  const [note, setNote] = useState('');
  const noteId = useId();
  const router = useRouter();
  const queryClient = useQueryClient();
  // Where each ticked section goes ("" = the default: in place of the same heading, else where it
  // stands on the source); the choices are the target's headings, read off the dry run's "now".
  const [places, setPlaces] = useState<Readonly<Record<string, string>>>({});
  const placed = items.map((item) => (item.kind === 'section' && places[item.heading] ? { ...item, place: toPlace(places[item.heading]!) } : item));
  const input = { source: source.node_id, items: placed };
  const dryRun = useQuery({
    queryKey: ['apply-dry-run', targetThread, input],
    queryFn: ({ signal }) => applyApi.dryRun(targetThread, input, signal),
    enabled: open && items.length > 0,
    // A new placement re-runs the dry run; the previous one stays on screen meanwhile.
    placeholderData: keepPreviousData,
    retry: false,
    gcTime: 0,
    staleTime: 0,
  });
  const apply = useMutation({
    mutationFn: () => applyApi.apply(targetThread, { ...input, ...(note.trim() ? { note: note.trim() } : {}) }),
    onSuccess: async () => {
      // The new step, its transcript entry and the provenance edge: every view of the target refreshes.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.thread(targetThread) }),
        queryClient.invalidateQueries({ queryKey: [FAMILY_GRAPH_KEY] }),
        queryClient.invalidateQueries({ queryKey: queryKeys.conversationList() }),
        queryClient.invalidateQueries({ queryKey: ['compare'] }),
      ]);
      router.push(`/c/${encodeURIComponent(targetThread)}`);
    },
  });
  const nowText = dryRun.data?.document.hunks.filter((h) => h.op !== 'insert').map((h) => h.text).join('');
  // The target as it is now is the same whatever the placement, and the previous dry run stays on
  // screen while the next one runs (keepPreviousData): the choices are read off it, not kept apart.
  const targetHeadings = useMemo(
    () => (nowText === undefined ? [] : markdownHeadings(nowText).map((h) => h.text).filter((h) => h !== '')),
    [nowText],
  );
  const sections = items.flatMap((item) => (item.kind === 'section' ? [item.heading] : []));
  const error = apply.error ?? dryRun.error;
  const count = `${items.length} item${items.length === 1 ? '' : 's'}`;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) apply.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent
        data-testid="apply-dialog"
        data-side={side}
        // Focus the dialog itself (its title is read), not the optional note: the dry run comes first.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement | null)?.focus();
        }}
        className="max-h-[calc(100dvh-2rem)] max-w-3xl overflow-y-auto"
      >
        <DialogTitle>
          Apply to {name}: bring {count} from step {source.label}
        </DialogTitle>
        <DialogDescription>
          They land on {name}&apos;s path (step {target.label} or its latest step) as one new step; the step
          before it stays restorable. Below: that path now, and after the apply.
        </DialogDescription>

        {unavailable.length > 0 && (
          <p className="text-sm text-muted-foreground" data-testid="apply-unavailable">
            Left out, not on step {source.label}: {unavailable.join(', ')}.
          </p>
        )}

        {error != null ? (
          <p
            role="alert"
            data-testid="apply-error"
            data-code={isApiError(error) ? error.code : undefined}
            className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
          >
            {applyErrorMessage(error)}
          </p>
        ) : null}

        {dryRun.isPending && error == null ? (
          <p className="text-sm text-muted-foreground" aria-busy="true" data-testid="apply-dry-run-pending">
            Working out what changes…
          </p>
        ) : null}
        {sections.length > 0 && targetHeadings.length > 0 ? (
          <fieldset className="flex flex-col gap-2 text-sm" data-testid="apply-placement">
            <legend className="text-xs font-medium text-muted-foreground">Where each section goes on {name}</legend>
            {sections.map((heading) => (
              <SectionPlacement
                key={heading}
                heading={heading}
                targetHeadings={targetHeadings}
                value={places[heading] ?? ''}
                onChange={(value) => setPlaces((current) => ({ ...current, [heading]: value }))}
              />
            ))}
          </fieldset>
        ) : null}
        {dryRun.data !== undefined ? <DryRunPreview dryRun={dryRun.data} /> : null}

        <div className="flex flex-col gap-1">
          <label htmlFor={noteId} className="text-xs font-medium text-muted-foreground">
            Note (optional)
          </label>
          <Input
            id={noteId}
            value={note}
            maxLength={2000}
            onChange={(event) => setNote(event.target.value)}
            placeholder="Why these parts"
            data-testid="apply-note"
          />
        </div>

        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button variant="outline" data-testid="apply-cancel">
              Cancel
            </Button>
          </DialogClose>
          <Button
            data-testid="apply-confirm"
            disabled={dryRun.data === undefined || dryRun.data.applied.length === 0 || apply.isPending || apply.isSuccess}
            onClick={() => apply.mutate()}
            className="bg-brand text-white hover:bg-brand/90"
          >
            {apply.isPending || apply.isSuccess ? 'Applying…' : `Apply to ${name}`}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

const EFFECT_TEXT = { added: 'added', replaced: 'replaced', unchanged: 'already the same' } as const;

function DryRunPreview({ dryRun }: { dryRun: ApplyDryRun }) {
  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="apply-dry-run">
      <ul className="flex flex-col gap-0.5 text-sm" aria-label="What the apply does" data-testid="apply-effects">
        {dryRun.applied.map((entry, i) => (
          <li key={`a${i}`} data-effect={entry.effect} className="break-words">
            {entry.description} <span className="text-muted-foreground">— {EFFECT_TEXT[entry.effect]}</span>
          </li>
        ))}
        {dryRun.skipped.map((entry, i) => (
          <li key={`s${i}`} data-effect="skipped" className="break-words text-muted-foreground">
            {entry.description} — skipped: {entry.reason}
          </li>
        ))}
      </ul>
      <ComparisonBody
        comparison={dryRun}
        names={{ a: 'now', b: 'after' }}
        testIdPrefix="apply-preview"
        allowSideBySide={false}
      />
    </div>
  );
}

/** A placement choice as the API takes it: "after:Heading" → `{after: "Heading"}`. */
function toPlace(choice: string): SectionPlace {
  const at = choice.indexOf(':');
  const where = choice.slice(0, at);
  const heading = choice.slice(at + 1);
  return where === 'before' ? { before: heading } : where === 'replace' ? { replace: heading } : { after: heading };
}

function SectionPlacement({
  heading,
  targetHeadings,
  value,
  onChange,
}: {
  heading: string;
  targetHeadings: readonly string[];
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const others = targetHeadings.filter((h) => h !== heading);
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <label htmlFor={id} className="min-w-0 max-w-[50%] truncate font-medium" title={heading}>
        {heading}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid="apply-place"
        data-heading={heading}
        className="h-8 min-w-0 flex-1 rounded-md border bg-background px-2 text-sm"
      >
        <option value="">Where it is on the source (or in place of the same heading)</option>
        {others.map((h) => (
          <option key={`after:${h}`} value={`after:${h}`}>
            After “{h}”
          </option>
        ))}
        {others.map((h) => (
          <option key={`before:${h}`} value={`before:${h}`}>
            Before “{h}”
          </option>
        ))}
        {others.map((h) => (
          <option key={`replace:${h}`} value={`replace:${h}`}>
            Instead of “{h}”
          </option>
        ))}
      </select>
    </div>
  );
}
