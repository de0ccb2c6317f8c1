import { MutationObserver, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRereadScheduler } from './coalesced-reread';

describe('createRereadScheduler', () => {
  let client: QueryClient;
  let started = 0;
  let aborted = 0;
  let unsubscribe: () => void;

  beforeEach(async () => {
    vi.useFakeTimers();
    client = new QueryClient();
    started = 0;
    aborted = 0;
    // An observed query (as a mounted component holds it) whose read takes 120 ms.
    const observer = new QueryObserver(client, {
      queryKey: ['thread', 'th_a', 'workspace'],
      queryFn: ({ signal }) => {
        started += 1;
        signal.addEventListener('abort', () => (aborted += 1));
        return new Promise((resolve) => setTimeout(() => resolve(started), 120));
      },
    });
    unsubscribe = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(200);
    expect(started).toBe(1);
  });
  /** An edit under `mutationKey` whose save takes 300 ms. */
  const slowEdit = (mutationKey: string[]) =>
    new MutationObserver(client, { mutationKey, mutationFn: () => new Promise((resolve) => setTimeout(resolve, 300)) });

  afterEach(() => {
    unsubscribe();
    client.clear();
    vi.useRealTimers();
  });

  it('reads at most twice a second through a long burst of asks, and never cancels a read', async () => {
    const rereads = createRereadScheduler(client);
    // A reply's tool writes: an ask every 5 ms for ten seconds (2,000 asks).
    for (let i = 0; i < 2_000; i++) {
      rereads.ask(['thread', 'th_a', 'workspace']);
      await vi.advanceTimersByTimeAsync(5);
    }
    await vi.advanceTimersByTimeAsync(1_000);
    const reads = started - 1;
    expect(reads).toBeGreaterThanOrEqual(10);
    expect(reads).toBeLessThanOrEqual(2 * 11);
    expect(aborted).toBe(0);
  });

  it('serves an ask that comes after a read with one more read', async () => {
    const rereads = createRereadScheduler(client);
    rereads.ask(['thread', 'th_a', 'workspace']);
    await vi.advanceTimersByTimeAsync(10); // the read starts
    expect(started).toBe(2);
    await vi.advanceTimersByTimeAsync(500);
    rereads.ask(['thread', 'th_a', 'workspace']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(started).toBe(3);
    expect(aborted).toBe(0);
  });

  it("leaves a read to the tab's own edit when that edit began after the ask, and reads as asked when it ends first", async () => {
    const rereads = createRereadScheduler(client);
    const edit = slowEdit(['workspace-edit']);
    // An event asks for a read; before it starts, the person ticks a box (an edit in flight).
    rereads.ask(['thread', 'th_a', 'workspace'], { heldBy: ['workspace-edit'] });
    void edit.mutate();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started).toBe(1);

    // With no edit in flight when the read is due, it starts.
    rereads.ask(['thread', 'th_a', 'workspace'], { heldBy: ['workspace-edit'] });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started).toBe(2);

    // An edit of other data holds nothing.
    const other = slowEdit(['conversation-edit']);
    rereads.ask(['thread', 'th_a', 'workspace'], { heldBy: ['workspace-edit'] });
    void other.mutate();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started).toBe(3);
  });
});
