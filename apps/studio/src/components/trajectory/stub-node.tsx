'use client';
import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { cn } from '@/lib/cn';
import { cardClassName, CardHandles, HereBadge, LaneDot, stepDomId } from './card-parts';
import type { StubCardNode } from './trajectory-layout';

/**
 * The head of a freshly opened path that owns no step yet: where its first message will land. Named
 * by its content (visible text plus screen-reader words), so the name contains what is on screen.
 */
export const StubNode = memo(function StubNode({ id, data }: NodeProps<StubCardNode>) {
  return (
    <div
      id={stepDomId(id)}
      role="button"
      data-testid="trajectory-stub"
      data-node-id={id}
      data-label={data.label}
      data-on-path={data.isDisplayed}
      data-current={data.isCurrent}
      data-focused={data.isFocused}
      data-selected={data.isSelected}
      title={data.title}
      className={cn(cardClassName(data), 'border-dashed bg-background/80 shadow-none')}
    >
      <CardHandles />
      <div className="flex h-5 shrink-0 items-center gap-1.5">
        <LaneDot isDisplayed={data.isDisplayed} isHollow />
        <span
          className={cn(
            'font-mono text-xs font-semibold',
            data.isDisplayed ? 'text-brand' : 'text-muted-foreground',
          )}
        >
          <span className="sr-only">New path, its first message becomes step </span>
          {data.label}
        </span>
        <span className="truncate text-[10px] text-muted-foreground">
          <span className="sr-only">{data.isCurrent ? ', you are here, ' : ', '}</span>
          {data.title}
        </span>
      </div>
      <p className="truncate italic text-muted-foreground">new path · step {data.turn_index}</p>
      {data.isCurrent && <HereBadge />}
    </div>
  );
});
