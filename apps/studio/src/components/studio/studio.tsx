'use client';
import { SignOutButton } from './sign-out-button';

export interface StudioProps {
  user: { id: string; name: string; email: string };
  modelLabel: string;
  initialThreadId: string | null;
  initialStep: number | null;
}

export function Studio({ user, modelLabel }: StudioProps) {
  return (
    <div className="flex h-full flex-col" data-testid="studio">
      <header className="flex items-center justify-between border-b px-4 py-2">
        <span className="font-semibold text-primary">Trellis</span>
        <div className="flex items-center gap-3 text-sm text-muted-foreground">
          <span data-testid="model-label">{modelLabel}</span>
          <span data-testid="user-email">{user.email}</span>
          <SignOutButton />
        </div>
      </header>
      <main className="flex flex-1 items-center justify-center" data-testid="studio-empty">
        <p className="text-muted-foreground">No conversations yet.</p>
      </main>
    </div>
  );
}
