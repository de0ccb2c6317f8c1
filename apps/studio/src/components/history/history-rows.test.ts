import type { Conversation } from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { conversationFixture } from './conversation-fixture';
import { historyRows, rowsToMount } from './history-rows';

const conversation = conversationFixture;

const shape = (rows: { conversation: Conversation; depth: number }[]) =>
  rows.map(({ conversation: c, depth }) => `${'  '.repeat(depth)}${c.thread_id}`);

describe('the history menu rows', () => {
  it('flattens each page into nested rows and appends the next page below the first', () => {
    const rows = historyRows([
      { conversations: [conversation('new', 9), conversation('new-b', 8, { parent: 'new' })] },
      { conversations: [conversation('old', 1), conversation('old-b', 2, { parent: 'old' })] },
    ]);
    // The old family's branch is newer than its root, but the page order holds: older pages go below.
    expect(shape(rows.active)).toEqual(['new', '  new-b', 'old', '  old-b']);
    expect(rows.archived).toEqual([]);
  });

  it('shows a conversation met on two pages once, where it came first', () => {
    const rows = historyRows([
      { conversations: [conversation('moved', 9)] },
      { conversations: [conversation('moved', 9), conversation('old', 1)] },
    ]);
    expect(shape(rows.active)).toEqual(['moved', 'old']);
  });

  it('puts an archived path and everything under it in the archived rows', () => {
    const rows = historyRows([
      {
        conversations: [
          conversation('root', 5),
          conversation('put-away', 6, { parent: 'root', archived: true }),
          conversation('under', 7, { parent: 'put-away' }),
        ],
      },
    ]);
    expect(shape(rows.active)).toEqual(['root']);
    expect(shape(rows.archived)).toEqual(['put-away', '  under']);
  });
});

describe('the mounted rows of the virtualised history menu', () => {
  it('is the visible window while focus is inside it or elsewhere', () => {
    expect(rowsToMount([3, 4, 5], 4, 10)).toEqual([3, 4, 5]);
    expect(rowsToMount([3, 4, 5], null, 10)).toEqual([3, 4, 5]);
  });

  it('keeps the focused row mounted, in list order, when it scrolls out of the window', () => {
    expect(rowsToMount([3, 4, 5], 0, 10)).toEqual([0, 3, 4, 5]);
    expect(rowsToMount([3, 4, 5], 9, 10)).toEqual([3, 4, 5, 9]);
  });

  it('ignores a focused index the list no longer has', () => {
    expect(rowsToMount([0, 1], 12, 2)).toEqual([0, 1]);
  });
});
