'use client';
import { FileUp } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { MAX_TRANSCRIPT_BYTES } from '@trellis/domain';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

export interface TranscriptDropZoneProps {
  onFile: (file: File) => void;
  isBusy: boolean;
  /** Compact once a file is shown below it. */
  isCompact: boolean;
}

/** Choose or drop one `.jsonl` file, or a `.zip` of a project folder. */
export function TranscriptDropZone({ onFile, isBusy, isCompact }: TranscriptDropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [isOver, setOver] = useState(false);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && !isBusy) onFile(file);
  };

  return (
    <div
      data-testid="transcript-drop-zone"
      data-over={isOver}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={cn(
        'flex flex-col gap-3 rounded-xl border-2 border-dashed bg-card transition-colors',
        isCompact
          ? 'items-stretch px-4 py-4 text-left sm:flex-row sm:items-center sm:justify-between'
          : 'items-center justify-center px-6 py-14 text-center',
        isOver ? 'border-primary bg-accent' : 'border-border',
      )}
    >
      <div className={cn('flex items-center gap-3', !isCompact && 'flex-col')}>
        <span className="grid size-10 shrink-0 place-items-center rounded-full bg-accent text-accent-foreground">
          <FileUp aria-hidden className="size-5" />
        </span>
        <div className="space-y-0.5">
          <p className="font-medium">{isCompact ? 'Inspect another transcript' : 'Drop a transcript here'}</p>
          <p className="text-sm text-muted-foreground">
            A Qwen Code or Claude Code session (<span className="font-mono text-xs">.jsonl</span>), or a
            Claude Code project folder as a <span className="font-mono text-xs">.zip</span>, up to{' '}
            {MAX_TRANSCRIPT_BYTES / (1024 * 1024)} MB.
          </p>
        </div>
      </div>
      <input
        ref={input}
        type="file"
        accept=".jsonl,.json,.txt,.zip,application/jsonl,application/x-ndjson,application/zip"
        className="sr-only"
        data-testid="transcript-file-input"
        aria-label="Transcript file"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) onFile(file);
        }}
      />
      <Button
        type="button"
        variant={isCompact ? 'outline' : 'default'}
        disabled={isBusy}
        onClick={() => input.current?.click()}
        data-testid="choose-transcript"
      >
        Choose a file
      </Button>
    </div>
  );
}
