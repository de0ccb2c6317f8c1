'use client';
import { Bot, FileText } from 'lucide-react';
import type { TranscriptProject } from '@trellis/domain';

/** What a zipped project folder holds: its sessions in continuation order and its subagent runs. */
export function ProjectSummary({ project }: { project: TranscriptProject }) {
  const attached = project.subagents.filter((run) => run.tool_use_id !== null).length;
  return (
    <div className="space-y-2 rounded-lg border bg-card p-3 text-sm" data-testid="project-summary">
      <p>
        <span data-testid="project-session-count">
          {project.sessions.length} {project.sessions.length === 1 ? 'session' : 'sessions'}
        </span>{' '}
        read as one family ·{' '}
        <span data-testid="project-subagent-count">
          {project.subagents.length} {project.subagents.length === 1 ? 'subagent run' : 'subagent runs'}
        </span>
        {project.subagents.length > 0 && <>, {attached} attached to the step that started them</>}
      </p>
      <ul className="space-y-1 text-xs text-muted-foreground">
        {project.sessions.map((session) => (
          <li key={session.path} className="flex items-center gap-1.5" data-testid="project-session">
            <FileText aria-hidden className="size-3.5 shrink-0" />
            <span className="truncate font-mono">{session.path}</span>
            <span>
              · {session.record_count} records
              {session.continues !== null && <> · continues {session.continues.split('/').at(-1)}</>}
            </span>
          </li>
        ))}
        {project.subagents.map((run) => (
          <li key={run.path} className="flex items-center gap-1.5" data-testid="project-subagent">
            <Bot aria-hidden className="size-3.5 shrink-0" />
            <span className="truncate font-mono">{run.path}</span>
            <span>
              · {run.description ?? run.agent_id}
              {run.tool_use_id === null && ' · no starting call found'}
            </span>
          </li>
        ))}
      </ul>
      {project.diagnostics.length > 0 && (
        <ul
          className="list-disc pl-5 text-xs text-amber-700 dark:text-amber-400"
          data-testid="project-diagnostics"
        >
          {project.diagnostics.map((d) => (
            <li key={`${d.kind}:${d.path}`}>{describe(d)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function describe(diagnostic: TranscriptProject['diagnostics'][number]): string {
  switch (diagnostic.kind) {
    case 'missing-continuation':
      return `${diagnostic.path} continues record ${diagnostic.uuid}, which no file of the folder holds`;
    case 'unattached-subagent':
      return `${diagnostic.path}: no Task call in the sessions started this run; it is not imported`;
    case 'ignored-entry':
      return `${diagnostic.path} was skipped: ${diagnostic.reason}`;
  }
}
