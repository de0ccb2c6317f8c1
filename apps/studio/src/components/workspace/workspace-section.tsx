import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface WorkspaceSectionProps {
  title: string;
  icon: LucideIcon;
  count?: number;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
}

export function WorkspaceSection({
  title,
  icon: Icon,
  count,
  actions,
  children,
  className,
  testId,
}: WorkspaceSectionProps) {
  return (
    <section
      aria-label={title}
      className={cn('border-b px-4 py-3 last:border-b-0', className)}
      data-testid={testId}
    >
      <header className="mb-2 flex min-h-7 items-center gap-2">
        <Icon aria-hidden className="size-4 text-muted-foreground" />
        <h3 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{title}</h3>
        {count !== undefined && count > 0 && (
          <span className="rounded-full bg-muted px-1.5 text-[11px] text-muted-foreground">{count}</span>
        )}
        <div className="ml-auto flex items-center gap-1">{actions}</div>
      </header>
      {children}
    </section>
  );
}
