'use client';
import type { TranscriptBranchSummary, TranscriptLeaf } from '@trellis/domain';
import { formatFullTime, formatMessageTime } from '@/lib/format-time';
import { cn } from '@/lib/cn';
import { shortUuid } from './describe-diagnostic';

export interface LeafRow {
  branch: TranscriptBranchSummary;
  leaf: TranscriptLeaf;
}

export interface LeafTableProps {
  rows: readonly LeafRow[];
  selected: ReadonlySet<string>;
  onToggle: (leafUuid: string) => void;
  onToggleAll: (select: boolean) => void;
  isDisabled: boolean;
}

const CLASSIFICATION: Record<TranscriptBranchSummary['classification'], { label: string; hint: string; tone: string }> = {
  ordinary: { label: 'ordinary', hint: 'No rewind is involved', tone: 'bg-muted text-muted-foreground' },
  'rewind-descendant': {
    label: 'after a rewind',
    hint: 'Its chain passes through a rewind record',
    tone: 'bg-sky-100 text-sky-900',
  },
  'rewind-sibling': {
    label: 'rewound past',
    hint: 'A rewind elsewhere in its tree went back past part of it (structural only: nothing is abandoned)',
    tone: 'bg-amber-100 text-amber-900',
  },
  'mixed-rewind': {
    label: 'mixed rewind',
    hint: 'Both after a rewind and rewound past by another',
    tone: 'bg-violet-100 text-violet-900',
  },
};

/** Every semantic leaf with its summary; the checkboxes choose leaves to import separately. */
export function LeafTable({ rows, selected, onToggle, onToggleAll, isDisabled }: LeafTableProps) {
  const selectable = rows.filter((row) => row.leaf.turn_count > 0);
  const isAllSelected = selectable.length > 0 && selectable.every((row) => selected.has(row.leaf.leaf_uuid));
  return (
    <div className="overflow-x-auto rounded-xl border bg-card">
      <table className="w-full min-w-[880px] border-collapse text-sm" data-testid="leaf-table">
        <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            <th scope="col" className="w-10 px-3 py-2">
              <input
                type="checkbox"
                aria-label="Select every leaf"
                className="size-4 accent-[var(--primary)]"
                checked={isAllSelected}
                disabled={isDisabled || selectable.length === 0}
                onChange={(event) => onToggleAll(event.currentTarget.checked)}
              />
            </th>
            <th scope="col" className="px-3 py-2 font-medium">Leaf</th>
            <th scope="col" className="px-3 py-2 font-medium">After the branch point</th>
            <th scope="col" className="px-3 py-2 font-medium">Last exchange</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Steps</th>
            <th scope="col" className="px-3 py-2 font-medium">Records</th>
            <th scope="col" className="px-3 py-2 font-medium">Updated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ branch, leaf }, index) => {
            const isEmpty = leaf.turn_count === 0;
            const isSelected = selected.has(leaf.leaf_uuid);
            const kind = CLASSIFICATION[branch.classification];
            const checkboxId = `leaf-${index}`;
            return (
              <tr
                key={leaf.leaf_uuid}
                data-testid="leaf-row"
                data-leaf-uuid={leaf.leaf_uuid}
                data-selected={isSelected}
                className={cn('border-t align-top', isSelected && 'bg-accent/50')}
              >
                <td className="px-3 py-3">
                  <input
                    id={checkboxId}
                    type="checkbox"
                    data-testid="leaf-checkbox"
                    className="mt-0.5 size-4 accent-[var(--primary)]"
                    checked={isSelected}
                    disabled={isDisabled || isEmpty}
                    title={isEmpty ? 'No user prompt on this leaf: nothing to import on its own' : undefined}
                    onChange={() => onToggle(leaf.leaf_uuid)}
                  />
                </td>
                <td className="max-w-[220px] px-3 py-3">
                  <label htmlFor={checkboxId} className="block cursor-pointer">
                    <span className="block truncate font-medium" title={leaf.title}>
                      {leaf.title}
                    </span>
                    <span className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                      <span className="font-mono" title={leaf.leaf_uuid}>
                        {shortUuid(leaf.leaf_uuid)}
                      </span>
                      <span className={cn('rounded-full px-1.5 py-px', kind.tone)} title={kind.hint}>
                        {kind.label}
                      </span>
                    </span>
                  </label>
                </td>
                <td className="max-w-[260px] px-3 py-3">
                  <Clamp
                    text={branch.firstUserTextAfterBranchPoint}
                    empty={branch.branchPointUuid === null ? 'No prompt' : 'No new prompt: the reply differs'}
                  />
                  <span className="mt-0.5 block text-xs text-muted-foreground">
                    {branch.branchPointUuid === null ? 'shares nothing with the others' : `forks after ${shortUuid(branch.branchPointUuid)}`}
                  </span>
                </td>
                <td className="max-w-[300px] px-3 py-3">
                  <Clamp text={branch.lastUserText} empty="No user text" prefix="You" />
                  <Clamp text={branch.lastAssistantText} empty="No reply" prefix="Agent" muted />
                </td>
                <td className="px-3 py-3 text-right tabular-nums" data-testid="leaf-turns">
                  {leaf.turn_count}
                </td>
                <td className="whitespace-nowrap px-3 py-3 text-xs tabular-nums text-muted-foreground">
                  <RecordCounts counts={branch.recordCounts} />
                </td>
                <td className="whitespace-nowrap px-3 py-3 text-xs text-muted-foreground" title={formatFullTime(branch.updatedAt)}>
                  {formatMessageTime(branch.updatedAt) || '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Clamp({ text, empty, prefix, muted }: { text: string | undefined; empty: string; prefix?: string; muted?: boolean }) {
  if (text === undefined) return <span className="block text-xs italic text-muted-foreground">{empty}</span>;
  return (
    <span className={cn('line-clamp-2 break-words', muted && 'text-muted-foreground')} title={text}>
      {prefix && <span className="mr-1 text-xs font-medium text-muted-foreground">{prefix}:</span>}
      {text}
    </span>
  );
}

function RecordCounts({ counts }: { counts: TranscriptBranchSummary['recordCounts'] }) {
  const title = `${counts.user} user, ${counts.assistant} assistant, ${counts.toolResult} tool result and ${counts.system} system records on this chain`;
  return (
    <span className="block leading-5" title={title}>
      <span className="block">
        <b className="font-medium text-foreground">{counts.user}</b> user · <b className="font-medium text-foreground">{counts.assistant}</b> assistant
      </span>
      <span className="block">
        <b className="font-medium text-foreground">{counts.toolResult}</b> tool · <b className="font-medium text-foreground">{counts.system}</b> system
      </span>
    </span>
  );
}
