import { ArrowLeft } from 'lucide-react';
import Link from 'next/link';
import { Button } from './button';
import { TrellisMark } from './trellis-mark';

/**
 * The header of a page outside the studio (import, API tokens, a compare): where you are, who you
 * are, the way back — to the studio, or to the conversation the page came from (`back`).
 */
export function PageHeader({
  section,
  email,
  back = { href: '/', label: 'Studio' },
}: {
  section: string;
  email: string;
  back?: { href: string; label: string };
}) {
  return (
    <header className="flex h-12 items-center justify-between gap-3 border-b px-3 md:px-4">
      <div className="flex min-w-0 items-center gap-2">
        <TrellisMark />
        <span className="text-muted-foreground">/</span>
        <span className="truncate text-sm">{section}</span>
      </div>
      <div className="flex min-w-0 items-center gap-3 text-sm text-muted-foreground">
        <span className="hidden truncate sm:inline">{email}</span>
        <Button asChild variant="ghost" size="sm">
          <Link href={back.href} data-testid="back-to-studio">
            <ArrowLeft aria-hidden /> {back.label}
          </Link>
        </Button>
      </div>
    </header>
  );
}
