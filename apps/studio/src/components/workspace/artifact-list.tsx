import type { Artifact } from '@trellis/domain';
import { Package } from 'lucide-react';
import { ArtifactItem } from './artifact-item';
import { WorkspaceSection } from './workspace-section';

/** Newest first: the latest turn's output is what the user looks for. */
export function ArtifactList({ artifacts }: { artifacts: Artifact[] }) {
  const ordered = [...artifacts].sort(
    (a, b) => b.turn_index - a.turn_index || b.created_at.localeCompare(a.created_at),
  );
  return (
    <WorkspaceSection title="Artifacts" icon={Package} count={artifacts.length} testId="artifacts-section">
      {ordered.length === 0 ? (
        <p className="px-1 text-sm text-muted-foreground" data-testid="artifacts-empty">
          Nothing yet. The agent files notes, drafts and tables here (“artifact: Title | content”).
        </p>
      ) : (
        <ul className="space-y-1.5" data-testid="artifact-list">
          {ordered.map((a) => (
            <ArtifactItem key={a.id} artifact={a} />
          ))}
        </ul>
      )}
    </WorkspaceSection>
  );
}
