'use client';
import { useEffect, useState } from 'react';
import { isOwnTurn, tabMemory } from '@/lib/turns/own-turns';
import type { TurnRun } from '@/lib/turns/turn-store';
import { isRunActive } from '@/lib/turns/turn-store';
import { Markdown } from '@/components/ui/markdown';
import { MessageTime } from './message-time';
import { AssistantBubble, UserBubble } from './message-row';
import { ToolChip } from './tool-chip';
import { WaitStatus } from './wait-status';

/** The turn in flight: the user's message and the reply as it streams (tools first, then text). */
export function StreamingTurn({ run }: { run: TurnRun }) {
  const isActive = isRunActive(run);
  const isElsewhere = useIsStartedElsewhere(run);
  return (
    <>
      <UserBubble testId="message-user" turnIndex={run.turnIndex} content={run.content}>
        <MessageTime iso={run.startedAt} />
      </UserBubble>
      <AssistantBubble
        testId="message-assistant"
        turnIndex={run.turnIndex}
        status={isActive ? 'streaming' : run.phase}
      >
        {run.tools.length > 0 && (
          <div className="flex flex-wrap gap-1.5" data-testid="tool-chips">
            {run.tools.map((tool, i) => (
              <ToolChip
                key={i}
                name={tool.name}
                args={tool.args}
                result={tool.result}
                isError={tool.is_error}
              />
            ))}
          </div>
        )}
        {run.text && (
          <div data-testid="message-content">
            <Markdown source={run.text} className="text-sm" />
          </div>
        )}
        {isActive && isElsewhere && (
          <p className="text-xs text-muted-foreground" data-testid="answering-elsewhere">
            The agent is answering in another tab.
          </p>
        )}
        {isActive && run.status && run.statusAt !== null && <WaitStatus status={run.status} since={run.statusAt} />}
        {isActive && (
          <span
            className="flex items-center gap-1 py-1"
            role="status"
            aria-label="The agent is replying"
            data-testid="typing-indicator"
          >
            {[0, 150, 300].map((delay) => (
              <span
                key={delay}
                className="size-1.5 animate-bounce rounded-full bg-muted-foreground/60"
                style={{ animationDelay: `${delay}ms` }}
              />
            ))}
          </span>
        )}
      </AssistantBubble>
    </>
  );
}

/**
 * Whether a followed reply was started by another tab, not by this one before a reload. Decided
 * after the page is up (the server cannot read the tab's storage): nothing is said until then.
 */
function useIsStartedElsewhere(run: TurnRun): boolean {
  const { isFollowed, threadId, turnIndex, attempt } = run;
  const [isElsewhere, setElsewhere] = useState(false);
  useEffect(() => {
    const memory = tabMemory();
    setElsewhere(isFollowed && !(memory && turnIndex !== null && isOwnTurn(memory, threadId, turnIndex, attempt)));
  }, [isFollowed, threadId, turnIndex, attempt]);
  return isElsewhere;
}
