import { Scissors } from 'lucide-react';

/** Where an imported transcript's history was compacted: what came before was summarised for the model. */
export function CompactionDivider() {
  return (
    <div className="flex items-center gap-2" data-testid="compaction-divider" role="separator" aria-label="Conversation compacted here">
      <span aria-hidden className="h-px flex-1 border-t border-dashed border-border" />
      <span className="inline-flex items-center gap-1 px-2 py-0.5 text-[11px] text-muted-foreground">
        <Scissors aria-hidden className="size-3" />
        Conversation compacted here
      </span>
      <span aria-hidden className="h-px flex-1 border-t border-dashed border-border" />
    </div>
  );
}
