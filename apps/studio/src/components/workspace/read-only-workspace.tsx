import type { Workspace } from '@trellis/domain';
import { Check, Lock } from 'lucide-react';
import { Markdown } from '@/components/ui/markdown';
import { ArtifactList } from './artifact-list';

/**
 * The workspace as someone who may read but not write sees it (a viewer or a commenter): the same
 * parts as the editable panel, as text — no field to type in, nothing that saves.
 */
export function ReadOnlyWorkspace({ workspace }: { workspace: Workspace }) {
  return (
    <div data-testid="workspace-read-only" className="space-y-5 px-4 py-4 text-sm">
      <section aria-labelledby="ro-objective">
        <h3 id="ro-objective" className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
          Objective
        </h3>
        <p data-testid="ro-objective">{workspace.objective || <span className="text-muted-foreground">No objective yet.</span>}</p>
      </section>
      <section aria-labelledby="ro-document">
        <h3 id="ro-document" className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
          Document{workspace.document.title ? ` · ${workspace.document.title}` : ''}
        </h3>
        {workspace.document.content ? (
          <Markdown source={workspace.document.content} className="rounded-md border p-3" />
        ) : (
          <p className="text-muted-foreground">The document is empty.</p>
        )}
      </section>
      <section aria-labelledby="ro-preferences">
        <h3 id="ro-preferences" className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
          Preferences
        </h3>
        {workspace.preferences.length === 0 ? (
          <p className="text-muted-foreground">None.</p>
        ) : (
          <ul className="list-disc space-y-0.5 pl-5">
            {workspace.preferences.map((p) => (
              <li key={p.id}>
                {p.text}
                {p.locked && <Lock role="img" aria-label="locked" className="ml-1 inline size-3 text-muted-foreground" />}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="ro-todos">
        <h3 id="ro-todos" className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
          Todos
        </h3>
        {workspace.todos.length === 0 ? (
          <p className="text-muted-foreground">None.</p>
        ) : (
          <ul className="space-y-0.5">
            {workspace.todos.map((t) => (
              <li key={t.id} style={{ paddingLeft: `${t.depth * 1.25}rem` }} className={t.done ? 'text-muted-foreground line-through' : ''}>
                {t.done && <Check role="img" aria-label="done" className="mr-1 inline size-3" />}
                {t.text}
              </li>
            ))}
          </ul>
        )}
      </section>
      <ArtifactList artifacts={workspace.artifacts} />
    </div>
  );
}
