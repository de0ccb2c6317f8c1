import { BookOpen, Cpu, FileUp, FlaskConical, KeyRound } from 'lucide-react';
import type { ReactNode } from 'react';
import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { SignOutButton } from './sign-out-button';
import { TrellisMark } from '@/components/ui/trellis-mark';

export function StudioHeader({
  email,
  modelLabel,
  search,
  exportMenu,
  presence,
  people,
  share,
}: {
  email: string;
  modelLabel: string;
  search?: ReactNode;
  exportMenu?: ReactNode;
  /** Who has the displayed family open. */
  presence?: ReactNode;
  /** Who is in the displayed family (the members dialog). */
  people?: ReactNode;
  share?: ReactNode;
}) {
  return (
    <header className="flex h-12 shrink-0 items-center justify-between gap-3 border-b px-3 md:px-4">
      <div className="flex items-center gap-2">
        <TrellisMark />
      </div>
      <div className="flex min-w-0 items-center gap-1 text-sm text-muted-foreground sm:gap-2 md:gap-3">
        {presence}
        <span
          data-testid="model-label"
          title="The model answering in this studio"
          className="hidden shrink-0 items-center gap-1 rounded-full border px-2 py-0.5 text-xs sm:inline-flex"
        >
          <Cpu aria-hidden className="size-3" />
          {modelLabel}
        </span>
        {search}
        {people}
        {exportMenu}
        {share}
        <Button asChild variant="ghost" size="sm" className="px-2 md:px-3">
          <Link href="/import" data-testid="import-link" title="Import an agent transcript (JSONL)">
            <FileUp aria-hidden /> <span className="hidden md:inline">Import</span>
          </Link>
        </Button>
        <Button asChild variant="ghost" size="sm" className="hidden md:inline-flex">
          <a href="/api/docs" target="_blank" rel="noreferrer" title="REST API reference">
            <BookOpen aria-hidden /> <span className="hidden md:inline">API</span>
          </a>
        </Button>
        <Button asChild variant="ghost" size="sm" className="px-2 md:px-3">
          <Link href="/studies" data-testid="studies-link" title="Studies: run a co-writing study with participants" aria-label="Studies">
            <FlaskConical aria-hidden /> <span className="hidden lg:inline">Studies</span>
          </Link>
        </Button>
        <span data-testid="user-email" className="hidden truncate sm:inline">
          {email}
        </span>
        {/* A developer's page, like the API reference: in the header from md up (a phone reaches it at /settings/tokens). */}
        <Button asChild variant="ghost" size="sm" className="hidden md:inline-flex md:px-3">
          <Link href="/settings/tokens" data-testid="tokens-link" title="API tokens" aria-label="API tokens">
            <KeyRound aria-hidden /> <span className="hidden md:inline">Tokens</span>
          </Link>
        </Button>
        <SignOutButton />
      </div>
    </header>
  );
}
