import type { ReactNode } from 'react';

/** A participant-facing page with one thing to say (a closed study, a declined consent, a lost session). */
export function StudyMessage({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <main className="flex min-h-dvh items-center justify-center p-6" data-testid={testId}>
      <div className="max-w-md space-y-3 text-center">
        <h1 className="text-lg font-semibold">{title}</h1>
        <div className="space-y-2 text-sm text-muted-foreground">{children}</div>
      </div>
    </main>
  );
}
