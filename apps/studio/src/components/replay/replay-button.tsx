import { History } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Opens the replay of the displayed path at its first change. */
export function ReplayButton({ onOpen }: { onOpen: () => void }) {
  return (
    <Button
      size="sm"
      variant="ghost"
      className="h-7 px-2"
      data-testid="replay-open"
      onClick={onOpen}
      title="Replay every change of this path"
    >
      <History /> Replay
    </Button>
  );
}
