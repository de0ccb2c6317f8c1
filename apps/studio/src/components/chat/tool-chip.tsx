'use client';
import { CircleAlert, Wrench } from 'lucide-react';
import { memo, useState } from 'react';
import type { SubagentRun } from '@trellis/domain';
import { cn } from '@/lib/cn';

export interface ToolChipProps {
  name: string;
  args: Record<string, unknown>;
  result?: string;
  isError?: boolean;
  /** An imported subagent run this call started: shown collapsed under the call, never as a path. */
  subagent?: SubagentRun;
}

/** A tool call: its name and result at a glance; the arguments on click. */
export const ToolChip = memo(function ToolChip({
  name,
  args,
  result,
  isError = false,
  subagent,
}: ToolChipProps) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <div className={cn('max-w-full', (isOpen || subagent) && 'w-full')}>
      <button
        type="button"
        data-testid="tool-chip"
        data-tool={name}
        data-error={isError}
        aria-expanded={isOpen}
        onClick={() => setIsOpen((o) => !o)}
        className={cn(
          'inline-flex max-w-full items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs transition-colors',
          isError
            ? 'border-destructive/40 bg-destructive/5 text-destructive'
            : 'bg-secondary text-secondary-foreground hover:bg-accent',
        )}
      >
        {isError ? (
          <CircleAlert aria-hidden className="size-3 shrink-0" />
        ) : (
          <Wrench aria-hidden className="size-3 shrink-0" />
        )}
        <span className="shrink-0 font-mono font-medium" data-testid="tool-name">
          {name}
        </span>
        {result !== undefined && (
          <span className="truncate text-muted-foreground" data-testid="tool-result">
            · {result}
          </span>
        )}
      </button>
      {isOpen && (
        <div className="mt-1 space-y-1 rounded-md border bg-muted/50 p-2 text-xs" data-testid="tool-details">
          <pre className="whitespace-pre-wrap break-words font-mono" data-testid="tool-args">
            {JSON.stringify(args, null, 2)}
          </pre>
          {result !== undefined && <p className="whitespace-pre-wrap break-words">{result}</p>}
        </div>
      )}
      {subagent && <SubagentDetails run={subagent} />}
    </div>
  );
});

/** The run a Task/Agent call started, folded under the call: its prompt, the tools it used, its answer. */
function SubagentDetails({ run }: { run: SubagentRun }) {
  return (
    <details
      className="mt-1 rounded-md border bg-muted/30 text-xs"
      data-testid="subagent-run"
      data-agent-id={run.agent_id}
    >
      <summary className="cursor-pointer px-2 py-1 text-muted-foreground">
        Subagent run{run.description ? `: ${run.description}` : ''} · {run.tools.length}{' '}
        {run.tools.length === 1 ? 'tool call' : 'tool calls'}
      </summary>
      <div className="space-y-1.5 border-t px-2 py-1.5" data-testid="subagent-run-body">
        <p className="whitespace-pre-wrap break-words">
          <span className="font-medium">Asked: </span>
          {run.prompt}
        </p>
        {run.tools.length > 0 && <p className="font-mono text-muted-foreground">{run.tools.join(' → ')}</p>}
        <p className="whitespace-pre-wrap break-words">
          <span className="font-medium">Answered: </span>
          {run.reply ?? '(no answer)'}
        </p>
      </div>
    </details>
  );
}
