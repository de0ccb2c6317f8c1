'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/input';
import { apiCall, errorMessage } from '@/lib/api/http';

/** Where to go after signing in: a path of this site only (never another origin), else the studio. */
export function safeNextPath(next: string | undefined | null): string | null {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : null;
}

export function AuthForm({ mode, next }: { mode: 'sign-in' | 'sign-up'; next?: string | undefined }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const isSignUp = mode === 'sign-up';

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    const email = field('email');
    const password = field('password');
    setPending(true);
    setError(null);
    try {
      await apiCall(isSignUp ? '/api/auth/sign-up/email' : '/api/auth/sign-in/email', {
        method: 'POST',
        body: isSignUp ? { email, password, name: field('name') || email.split('@')[0]! } : { email, password },
      });
    } catch (failure) {
      setPending(false);
      setError(errorMessage(failure));
      return;
    }
    setPending(false);
    router.replace(safeNextPath(next) ?? '/');
    router.refresh();
  }

  return (
    <main className="flex min-h-full items-center justify-center p-4">
      <form
        onSubmit={(e) => void onSubmit(e)}
        className="w-full max-w-sm space-y-4 rounded-xl border bg-card p-6 shadow-sm"
        data-testid={`${mode}-form`}
      >
        <div className="space-y-1">
          <h1 className="text-xl font-semibold">
            <span className="text-primary">Trellis</span> · {isSignUp ? 'Create your account' : 'Sign in'}
          </h1>
          <p className="text-sm text-muted-foreground">
            A branching studio for documents you write with an AI agent.
          </p>
        </div>
        {isSignUp && (
          <div className="space-y-1.5">
            <Label htmlFor="name">Name</Label>
            <Input id="name" name="name" autoComplete="name" placeholder="Ada Lovelace" />
          </div>
        )}
        <div className="space-y-1.5">
          <Label htmlFor="email">Email</Label>
          <Input id="email" name="email" type="email" required autoComplete="email" />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="password">Password</Label>
          <Input
            id="password"
            name="password"
            type="password"
            required
            minLength={8}
            autoComplete={isSignUp ? 'new-password' : 'current-password'}
          />
        </div>
        {error && (
          <p role="alert" className="text-sm text-destructive" data-testid="auth-error">
            {error}
          </p>
        )}
        <Button type="submit" className="w-full" disabled={isPending}>
          {isPending ? 'Please wait…' : isSignUp ? 'Sign up' : 'Sign in'}
        </Button>
        <p className="text-center text-sm text-muted-foreground">
          {isSignUp ? (
            <>
              Already have an account? <Link className="text-primary underline" href={withNext('/sign-in', next)}>Sign in</Link>
            </>
          ) : (
            <>
              New here? <Link className="text-primary underline" href={withNext('/sign-up', next)}>Create an account</Link>
            </>
          )}
        </p>
      </form>
    </main>
  );
}

function withNext(page: string, next: string | undefined): string {
  const path = safeNextPath(next);
  return path === null ? page : `${page}?next=${encodeURIComponent(path)}`;
}
