'use client';
import type { Preference } from '@trellis/domain';
import { SlidersHorizontal } from 'lucide-react';
import { useCallback } from 'react';
import { AddItemInput } from './add-item-input';
import { PreferenceItem } from './preference-item';
import { isPendingId, type WorkspaceActions } from './workspace-source';
import { WorkspaceSection } from './workspace-section';

export function PreferenceList({
  preferences,
  actions,
}: {
  preferences: Preference[];
  actions: WorkspaceActions;
}) {
  const onMove = useCallback(
    (id: string, direction: 'up' | 'down') => {
      const index = preferences.findIndex((p) => p.id === id);
      const swap = direction === 'up' ? index - 1 : index + 1;
      if (
        index === -1 ||
        swap < 0 ||
        swap >= preferences.length ||
        preferences.some((p) => isPendingId(p.id))
      )
        return;
      const ids = preferences.map((p) => p.id);
      [ids[index], ids[swap]] = [ids[swap] ?? id, id];
      actions.reorderPreferences(ids);
    },
    [preferences, actions],
  );
  const locked = preferences.filter((p) => p.locked).length;
  return (
    <WorkspaceSection
      title="Preferences"
      icon={SlidersHorizontal}
      count={preferences.length}
      testId="preferences-section"
      actions={
        locked > 0 ? <span className="text-xs text-muted-foreground">{locked} locked</span> : undefined
      }
    >
      {preferences.length === 0 ? (
        <p className="px-1 text-sm text-muted-foreground" data-testid="preferences-empty">
          No preferences yet. Add how you want the document written; lock the ones the agent must keep.
        </p>
      ) : (
        <ul className="space-y-0.5" data-testid="preference-list">
          {preferences.map((p) => (
            <PreferenceItem
              key={p.id}
              preference={p}
              onUpdate={actions.updatePreference}
              onRemove={actions.removePreference}
              onMove={onMove}
            />
          ))}
        </ul>
      )}
      <AddItemInput placeholder="Add a preference" testId="preference-add" onAdd={actions.addPreference} />
    </WorkspaceSection>
  );
}
