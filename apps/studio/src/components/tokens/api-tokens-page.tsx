'use client';
import { Check, Copy, KeyRound, Loader2, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { ApiToken, TokenCreated } from '@trellis/domain';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api/http';
import { tokensApi } from './tokens-api';
import { LoadingNote } from '@/components/ui/list-states';

/**
 * Personal API tokens: the list (never the secrets), a form that creates one and shows its secret
 * once — with a copy button — and a revoke per token. Tokens authenticate REST calls with
 * `Authorization: Bearer …` (see /api/docs).
 */
export function ApiTokensPage({ email }: { email: string }) {
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<TokenCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [isRevoking, setIsRevoking] = useState(false);

  const refresh = useCallback(async () => {
    try {
      setTokens(await tokensApi.list());
    } catch (e) {
      setError(errorMessage(e));
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const revoke = async () => {
    if (!revoking) return;
    setIsRevoking(true);
    try {
      await tokensApi.revoke(revoking.id);
      if (created?.id === revoking.id) setCreated(null);
      setRevoking(null);
      await refresh();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setIsRevoking(false);
    }
  };

  return (
    <div className="min-h-full" data-testid="tokens-page">
      <PageHeader section="API tokens" email={email} />

      <main className="mx-auto max-w-3xl space-y-6 px-4 py-6 md:py-8">
        <div className="space-y-1">
          <h1 className="text-xl font-semibold">API tokens</h1>
          <p className="text-sm text-muted-foreground">
            A token lets a script call the <a className="underline underline-offset-2" href="/api/docs">REST API</a> as you:
            send it as <code className="rounded bg-muted px-1">Authorization: Bearer …</code>. Anyone holding it can read
            and change your conversations, so keep it secret and revoke it when it is no longer needed.
          </p>
        </div>

        {error !== null && (
          <p role="alert" data-testid="tokens-error" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm">
            {error}
          </p>
        )}

        <CreateTokenForm
          onCreated={(token) => {
            setError(null);
            setCreated(token);
            void refresh();
          }}
          onError={setError}
        />

        {created && <NewTokenSecret token={created} onDone={() => setCreated(null)} />}

        <section aria-labelledby="tokens-list-title" className="space-y-2">
          <h2 id="tokens-list-title" className="text-base font-semibold">
            Your tokens
          </h2>
          {tokens === null ? (
            <LoadingNote />
          ) : tokens.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="tokens-empty">
              No tokens yet.
            </p>
          ) : (
            <ul className="divide-y rounded-md border" data-testid="tokens-list">
              {tokens.map((token) => (
                <li key={token.id} data-testid="token-row" data-token-id={token.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
                  <KeyRound aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium" data-testid="token-name">
                      {token.name}
                    </p>
                    <p className="text-xs text-muted-foreground">
                      <code>{token.prefix}…</code> · created {formatDate(token.created_at)} ·{' '}
                      {token.last_used_at === null ? 'never used' : `last used ${formatDate(token.last_used_at)}`}
                    </p>
                  </div>
                  <Button variant="outline" size="sm" data-testid="token-revoke" aria-label={`Revoke ${token.name}`} onClick={() => setRevoking(token)}>
                    <Trash2 aria-hidden /> Revoke
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </main>

      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        title="Revoke this token?"
        description={`Scripts that use “${revoking?.name ?? ''}” will be refused from now on. This cannot be undone.`}
        confirmLabel="Revoke"
        destructive
        busy={isRevoking}
        onConfirm={() => void revoke()}
      />
    </div>
  );
}

function CreateTokenForm({ onCreated, onError }: { onCreated: (token: TokenCreated) => void; onError: (message: string) => void }) {
  const inputId = useId();
  const [name, setName] = useState('');
  const [isCreating, setIsCreating] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '' || isCreating) return;
    setIsCreating(true);
    try {
      onCreated(await tokensApi.create(name.trim()));
      setName('');
    } catch (e) {
      onError(errorMessage(e));
    } finally {
      setIsCreating(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-2 rounded-md border p-3" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="text-base font-semibold">
        Create a token
      </h2>
      <label htmlFor={inputId} className="block text-sm">
        Name <span className="text-muted-foreground">(what will use it, e.g. “export script”)</span>
      </label>
      <div className="flex flex-wrap gap-2">
        <Input
          id={inputId}
          data-testid="token-name-input"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
          className="min-w-0 flex-1 basis-48"
          autoComplete="off"
        />
        <Button type="submit" data-testid="token-create" disabled={name.trim() === '' || isCreating}>
          {isCreating ? <Loader2 aria-hidden className="animate-spin" /> : <KeyRound aria-hidden />} Create token
        </Button>
      </div>
    </form>
  );
}

/** The secret, once: it is stored hashed and cannot be shown again. */
function NewTokenSecret({ token, onDone }: { token: TokenCreated; onDone: () => void }) {
  const [isCopied, setIsCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      setIsCopied(true);
    } catch {
      setIsCopied(false);
    }
  };
  return (
    <section
      data-testid="token-secret-panel"
      aria-labelledby="token-secret-title"
      className="space-y-2 rounded-md border border-primary/40 bg-primary/5 p-3"
    >
      <h2 id="token-secret-title" className="text-base font-semibold">
        Token “{token.name}” created
      </h2>
      <p className="text-sm">Copy it now: it is shown only once and cannot be shown again.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="token-secret" className="min-w-0 flex-1 break-all rounded bg-background px-2 py-1.5 font-mono text-sm">
          {token.token}
        </code>
        <Button variant="outline" size="sm" data-testid="token-copy" onClick={() => void copy()}>
          {isCopied ? <Check aria-hidden /> : <Copy aria-hidden />} {isCopied ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="ghost" size="sm" data-testid="token-secret-done" onClick={onDone}>
          Done
        </Button>
      </div>
    </section>
  );
}

function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
