'use client';
import { useCurrentUser } from '@/components/members/current-user';
import type { Message } from '@trellis/domain';
import { memo, useRef, useState, type ReactNode } from 'react';
import { Markdown } from '@/components/ui/markdown';
import { ApplyEntry } from './apply-entry';
import { EditBox } from './edit-box';
import { AttemptsPager, type AttemptsPage } from './attempts-pager';
import { ReplyNotice } from './reply-notice';
import { EditMessageButton, RegenerateButton, useMessageActions } from './message-actions';
import { MessageTime } from './message-time';
import { SiblingSwitcher } from './sibling-switcher';
import { StepTag } from './step-tag';
import { ToolChip } from './tool-chip';
import { toolArgsForDisplay } from './tool-args';
import { MessageRefs, ReplyCitations } from './path-refs';

const STATUS_LABEL = { interrupted: 'Stopped', failed: 'Failed' } as const;

/** A stored message. Memoised: rows never re-render while a reply streams below them. */
export const MessageRow = memo(function MessageRow({
  message,
  attempts,
  undoneAt,
}: {
  message: Message;
  attempts?: AttemptsPage | undefined;
  /** For an apply entry: the step of the transcript that undid it, if one did. */
  undoneAt?: number | undefined;
}) {
  // Edit, regenerate and `‹ i/n ›` come from the studio's MessageActions context.
  const actions = useMessageActions();
  const currentUser = useCurrentUser();
  const [isEditing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  if (message.role === 'system') return <ApplyEntry message={message} undoneAt={undoneAt} />;
  if (message.role === 'user') {
    if (isEditing && actions) {
      return (
        <div className="flex justify-end" data-testid="message-user" data-turn={message.turn_index} data-editing>
          <div className="w-full md:max-w-[85%]">
            <EditBox
              initial={message.content}
              onSubmit={(content) => actions.edit(message.turn_index, content)}
              onCancel={() => {
                setEditing(false);
                requestAnimationFrame(() => editButton.current?.focus());
              }}
            />
          </div>
        </div>
      );
    }
    const sender = message.author && message.author.user_id !== currentUser?.id ? message.author.name : null;
    return (
      <UserBubble testId="message-user" turnIndex={message.turn_index} content={message.content}>
        {message.refs && <MessageRefs refs={message.refs} />}
        <div className="flex items-center gap-1">
          {sender !== null && (
            <span className="text-xs font-medium text-muted-foreground" data-testid="message-author">
              {sender}
            </span>
          )}
          <EditMessageButton ref={editButton} onClick={() => setEditing(true)} />
          <SiblingSwitcher turn={message.turn_index} place="message" />
          <MessageTime iso={message.created_at} />
          <StepTag turn={message.turn_index} />
        </div>
      </UserBubble>
    );
  }
  return (
    <AssistantBubble testId="message-assistant" turnIndex={message.turn_index} status={message.status}>
      {message.tool_calls.length > 0 && (
        <div className="flex flex-wrap gap-1.5" data-testid="tool-chips">
          {message.tool_calls.map((call) => (
            <ToolChip
              key={call.id}
              name={call.name}
              args={toolArgsForDisplay(call.name, call.args, message.citations)}
              result={call.result}
              isError={call.is_error}
              subagent={call.subagent}
            />
          ))}
        </div>
      )}
      {message.content && (
        <div data-testid="message-content">
          <Markdown source={message.content} className="text-sm" />
        </div>
      )}
      {message.citations && <ReplyCitations citations={message.citations} />}
      <div className="flex items-center gap-2">
        <SiblingSwitcher turn={message.turn_index} place="reply" />
        {attempts && <AttemptsPager turn={message.turn_index} page={attempts} />}
        <MessageTime iso={message.created_at} />
        {message.status !== 'complete' && (
          <span
            className="rounded bg-muted px-1.5 text-[11px] text-muted-foreground"
            data-testid="message-status"
          >
            {STATUS_LABEL[message.status]}
          </span>
        )}
        {message.usage && (
          <span
            className="text-[11px] text-muted-foreground tabular-nums"
            data-testid="message-usage"
            title={`${message.usage.input_tokens} tokens in, ${message.usage.output_tokens} tokens out, as the provider counted them`}
          >
            {message.usage.model} · {message.usage.input_tokens} in / {message.usage.output_tokens} out
          </span>
        )}
        <RegenerateButton turn={message.turn_index} />
      </div>
      <ReplyNotice message={message} isEarlierAttempt={attempts !== undefined && attempts.index < attempts.count - 1} />
    </AssistantBubble>
  );
});

export function UserBubble({
  content,
  turnIndex,
  testId,
  children,
}: {
  content: string;
  turnIndex: number | null;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <div className="group/message flex justify-end" data-testid={testId} data-turn={turnIndex ?? undefined}>
      <div className="flex max-w-[85%] flex-col items-end gap-1">
        <div
          dir="auto"
          className="whitespace-pre-wrap break-words rounded-2xl rounded-br-md bg-primary px-3.5 py-2 text-sm text-primary-foreground"
          data-testid="message-content"
        >
          {content}
        </div>
        {children}
      </div>
    </div>
  );
}

export function AssistantBubble({
  turnIndex,
  status,
  testId,
  children,
}: {
  turnIndex: number | null;
  status: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div
      className="group/message flex justify-start"
      data-testid={testId}
      data-turn={turnIndex ?? undefined}
      data-status={status}
    >
      <div className="flex w-full max-w-[92%] flex-col gap-1.5">{children}</div>
    </div>
  );
}
