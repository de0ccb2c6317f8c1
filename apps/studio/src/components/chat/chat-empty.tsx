import { Sparkles } from 'lucide-react';

const EXAMPLES = [
  'objective: A one-page brief on urban beekeeping',
  'doc: # Urban beekeeping\n\nWhy cities are good for bees.',
  'prefer: Short paragraphs, British spelling',
  'todo: Research local regulations\n  todo: Call the city council',
  'artifact: Sources | A list of references',
];

/** The empty conversation: what the agent can do, with examples that fill the composer. */
export function ChatEmpty({
  isNew,
  modelLabel,
  onExample,
}: {
  isNew: boolean;
  modelLabel: string;
  onExample: (text: string) => void;
}) {
  return (
    <div
      className="mx-auto flex max-w-xl flex-col items-center gap-4 px-6 py-12 text-center"
      data-testid="chat-empty"
    >
      <Sparkles aria-hidden className="size-7 text-brand" />
      <div className="space-y-1">
        <h2 className="text-lg font-semibold">{isNew ? 'Start a conversation' : 'No messages yet'}</h2>
        <p className="text-sm text-muted-foreground">
          Write a document together with the agent. Every message you send commits the whole workspace, so you
          can come back to any step.
        </p>
      </div>
      {modelLabel === 'offline model' && (
        <div className="w-full space-y-2 text-left">
          <p className="text-xs text-muted-foreground">
            The offline model applies directives, one per line (indent{' '}
            <code className="font-mono">todo:</code> by two spaces to nest it):
          </p>
          <ul className="flex flex-col gap-1.5">
            {EXAMPLES.map((example) => (
              <li key={example}>
                <button
                  type="button"
                  onClick={() => onExample(example)}
                  className="w-full whitespace-pre-wrap rounded-md border bg-card px-3 py-1.5 text-left font-mono text-xs hover:border-ring hover:bg-accent"
                >
                  {example}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
