import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { FamilyGraph } from '@trellis/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { familyGraphQuery, invalidateFamilyGraphs } from './use-family-graph';

function graph(threadId: string, title: string, family: string[] = [threadId]): FamilyGraph {
  return {
    thread_id: threadId,
    root_thread_id: family[0] ?? threadId,
    nodes: [],
    edges: [],
    threads: family.map((id, i) => ({
      thread_id: id,
      parent_thread_id: i === 0 ? null : (family[0] ?? null),
      branch_point_turn: i === 0 ? null : 1,
      reason: null,
      title,
      starred: false,
      archived: false,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      is_deleted: false,
      suffix: i === 0 ? '' : `.${i}`,
      owned_turn_count: 0,
    })),
    truncated: false,
  };
}

/** A fetch whose answers are released by the test, in any order. */
function controlledFetch() {
  const pending: { url: string; resolve: (body: FamilyGraph) => void }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    return new Promise<Response>((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      pending.push({ url, resolve: (body) => resolve(Response.json(body)) });
    });
  });
  return pending;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => vi.unstubAllGlobals());

describe('family graph query', () => {
  it.each([
    ['the first read', false],
    ['a refresh', true],
  ])('never lets %s that started before a turn ended win over the read after it', async (_, hasData) => {
    const pending = controlledFetch();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new QueryObserver(client, familyGraphQuery('th_a'));
    const unsubscribe = observer.subscribe(() => undefined);
    await settle();
    if (hasData) {
      pending.shift()?.resolve(graph('th_a', 'first'));
      await settle();
      void observer.refetch();
      await settle();
    }
    void invalidateFamilyGraphs(client); // a turn ended while a read was in flight
    await settle();
    expect(pending).toHaveLength(2);
    pending[1]?.resolve(graph('th_a', 'new'));
    await settle();
    pending[0]?.resolve(graph('th_a', 'old'));
    await settle();
    expect(observer.getCurrentResult().data?.threads[0]?.title).toBe('new');
    unsubscribe();
  });

  it('keeps a late answer for the thread the user left out of the displayed one', async () => {
    const pending = controlledFetch();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new QueryObserver(client, familyGraphQuery('th_a'));
    const unsubscribe = observer.subscribe(() => undefined);
    await settle();
    observer.setOptions(familyGraphQuery('th_b'));
    await settle();
    pending.find((p) => p.url.includes('th_b'))?.resolve(graph('th_b', 'family b'));
    await settle();
    pending.find((p) => p.url.includes('th_a'))?.resolve(graph('th_a', 'family a'));
    await settle();
    expect(observer.getCurrentResult().data?.thread_id).toBe('th_b');
    unsubscribe();
  });

  it('shows the graph in hand while another thread of the same family loads, not a stranger family', async () => {
    const pending = controlledFetch();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new QueryObserver(client, familyGraphQuery('th_root'));
    const unsubscribe = observer.subscribe(() => undefined);
    await settle();
    pending[0]?.resolve(graph('th_root', 'root', ['th_root', 'th_branch']));
    await settle();
    observer.setOptions(familyGraphQuery('th_branch'));
    expect(observer.getCurrentResult().data?.thread_id).toBe('th_root');
    expect(observer.getCurrentResult().isPlaceholderData).toBe(true);
    observer.setOptions(familyGraphQuery('th_other'));
    expect(observer.getCurrentResult().data).toBeUndefined();
    unsubscribe();
  });
});
