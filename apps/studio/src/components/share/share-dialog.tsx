'use client';
import type { Share, ShareScope } from '@trellis/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Link2, Share2, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/input';
import { errorMessage } from '@/lib/api/http';
import { sharesApi } from '@/lib/api/shares';

const EXPIRIES = [
  { value: 'never', label: 'Never', days: null },
  { value: '1', label: 'In 1 day', days: 1 },
  { value: '7', label: 'In 7 days', days: 7 },
  { value: '30', label: 'In 30 days', days: 30 },
] as const;

const TIME = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

/**
 * "Share…" (docs/sharing.md): a read-only link to this path or the whole family, pinned at a step or
 * following the latest, with an expiry; the URL is shown once to copy. Below, the family's live links
 * with their views, each revocable at once.
 */
export function ShareDialog({ threadId, step }: { threadId: string | null; step: number | null }) {
  const [isOpen, setOpen] = useState(false);
  if (threadId === null) return null;
  return (
    <Dialog open={isOpen} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="px-2 md:px-3" data-testid="share-open" title="Share a read-only link">
          <Share2 aria-hidden /> <span className="hidden md:inline">Share</span>
          <span className="sr-only md:hidden">Share</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-lg" data-testid="share-dialog">
        <DialogTitle>Share a read-only link</DialogTitle>
        <DialogDescription>
          Anyone with the link can read it, without an account: the chat, the map, who wrote what and the replay. Nobody can write through it.
        </DialogDescription>
        {isOpen && <ShareForm threadId={threadId} step={step} />}
      </DialogContent>
    </Dialog>
  );
}

function ShareForm({ threadId, step }: { threadId: string; step: number | null }) {
  const ids = useId();
  const queryClient = useQueryClient();
  const listKey = ['thread', threadId, 'shares'];
  const shares = useQuery({ queryKey: listKey, queryFn: ({ signal }) => sharesApi.list(threadId, signal) });
  const [scope, setScope] = useState<ShareScope>('path');
  const [followsLatest, setFollowsLatest] = useState(false);
  const [expiry, setExpiry] = useState<(typeof EXPIRIES)[number]['value']>('never');
  const [created, setCreated] = useState<Share | null>(null);
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () => {
      const days = EXPIRIES.find((e) => e.value === expiry)?.days ?? null;
      return sharesApi.create(threadId, {
        scope,
        follows_latest: followsLatest,
        ...(step !== null && !followsLatest ? { turn: step } : {}),
        ...(days !== null ? { expires_at: new Date(Date.now() + days * 86_400_000).toISOString() } : {}),
      });
    },
    onSuccess: (share) => {
      setCreated(share);
      setCopied(false);
      void queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
  const revoke = useMutation({
    mutationFn: (shareId: string) => sharesApi.revoke(shareId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
  const url = created?.url ? `${window.location.origin}${created.url}` : null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const copy = async () => {
    if (url === null) return;
    await navigator.clipboard?.writeText(url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} className="space-y-3" data-testid="share-form">
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium">What the link shows</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name={`${ids}-scope`} checked={scope === 'path'} onChange={() => setScope('path')} data-testid="share-scope-path" />
            This path only
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name={`${ids}-scope`} checked={scope === 'family'} onChange={() => setScope('family')} data-testid="share-scope-family" />
            Every path of this family
          </label>
        </fieldset>
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium">Which step</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name={`${ids}-step`} checked={!followsLatest} onChange={() => setFollowsLatest(false)} data-testid="share-pinned" />
            {step === null ? 'The latest step, as it is now' : `Step ${step}, as it is now`}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name={`${ids}-step`} checked={followsLatest} onChange={() => setFollowsLatest(true)} data-testid="share-follows" />
            Always the latest step
          </label>
        </fieldset>
        <div className="flex items-center gap-2">
          <Label htmlFor={`${ids}-expiry`}>Expires</Label>
          <select
            id={`${ids}-expiry`}
            value={expiry}
            onChange={(event) => setExpiry(event.target.value as typeof expiry)}
            className="h-8 rounded-md border bg-background px-2 text-sm"
            data-testid="share-expiry"
          >
            {EXPIRIES.map((e) => (
              <option key={e.value} value={e.value}>
                {e.label}
              </option>
            ))}
          </select>
          <span className="flex-1" />
          <Button type="submit" size="sm" disabled={create.isPending} data-testid="share-create">
            <Link2 aria-hidden /> {create.isPending ? 'Creating…' : 'Create link'}
          </Button>
        </div>
        {create.isError && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(create.error)}
          </p>
        )}
      </form>
      {url !== null && (
        <div className="space-y-1.5 rounded-md border bg-muted/40 p-2" data-testid="share-created">
          <p className="text-xs text-muted-foreground">Copy it now: it is shown only once.</p>
          <div className="flex items-center gap-2">
            <input readOnly value={url} aria-label="The new link" data-testid="share-url" className="h-8 min-w-0 flex-1 rounded-md border bg-background px-2 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <Button size="sm" variant="outline" onClick={() => void copy()} data-testid="share-copy">
              <Copy aria-hidden /> {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
        </div>
      )}
      <section aria-label="Links of this family" className="space-y-1.5">
        <h3 className="text-sm font-medium">Links of this family</h3>
        {shares.isLoading ? (
          <p className="text-sm text-muted-foreground">Loading…</p>
        ) : shares.isError ? (
          <p role="alert" className="text-sm text-destructive">{errorMessage(shares.error)}</p>
        ) : shares.data!.shares.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="share-list-empty">No links yet.</p>
        ) : (
          <ul className="max-h-48 space-y-1 overflow-y-auto" data-testid="share-list">
            {shares.data!.shares.map((share) => (
              <li key={share.share_id} className="flex items-center gap-2 rounded-md border px-2 py-1 text-xs" data-testid="share-row">
                <span className="min-w-0 flex-1">
                  <span className="font-medium">{share.scope === 'family' ? 'Family' : 'Path'}</span>
                  {' · '}
                  {share.follows_latest ? 'latest step' : `step ${share.turn}`}
                  {share.expires_at ? ` · expires ${TIME.format(new Date(share.expires_at))}` : ''}
                  <span className="block text-muted-foreground" data-testid="share-views">
                    {share.view_count === 1 ? '1 view' : `${share.view_count} views`}
                    {share.last_viewed_at ? `, last ${TIME.format(new Date(share.last_viewed_at))}` : ''}
                  </span>
                </span>
                <Button
                  size="icon-sm"
                  variant="ghost"
                  aria-label="Revoke this link"
                  data-testid="share-revoke"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(share.share_id)}
                >
                  <Trash2 />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
