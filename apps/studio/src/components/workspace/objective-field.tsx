'use client';
import { Target } from 'lucide-react';
import { EditableText } from '@/components/ui/editable-text';
import { WorkspaceSection } from './workspace-section';

export function ObjectiveField({
  objective,
  onChange,
}: {
  objective: string | null;
  onChange: (next: string | null) => void;
}) {
  return (
    <WorkspaceSection title="Objective" icon={Target}>
      <EditableText
        value={objective ?? ''}
        placeholder="What should this document achieve? Click to set the objective."
        label="Objective"
        multiline
        testId="objective"
        className="-mx-2 w-[calc(100%+1rem)] text-[15px] leading-snug"
        onCommit={(next) => onChange(next === '' ? null : next)}
      />
    </WorkspaceSection>
  );
}
