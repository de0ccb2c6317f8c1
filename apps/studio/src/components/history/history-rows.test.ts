import { regeneratedTitle, type Conversation } from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { conversationFixture } from './conversation-fixture';
import { historyRows, rowsToMount } from './history-rows';
import { countDescendants } from './nest-conversations';

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

  it('puts families shared with the caller under their own group, branches nested, archived ones with the archived', () => {
    const rows = historyRows([
      {
        conversations: [
          conversation('mine', 9),
          conversation('theirs', 8, { role: 'viewer' }),
          conversation('theirs-b', 7, { parent: 'theirs', role: 'viewer' }),
          conversation('put-away', 6, { role: 'editor', archived: true }),
        ],
      },
    ]);
    expect(shape(rows.active)).toEqual(['mine']);
    expect(shape(rows.shared)).toEqual(['theirs', '  theirs-b']);
    expect(shape(rows.archived)).toEqual(['put-away']);
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

describe('regenerated replies in the history', () => {
  const regen = (id: string, minute: number, step: number, over: Parameters<typeof conversation>[2] = {}) =>
    conversation(id, minute, { parent: 'root', at: step - 1, reason: 'regenerate', title: regeneratedTitle(step), turns: step, ...over });

  it('folds three regenerations of one reply into the row they branched from, as one count', () => {
    const rows = historyRows([
      {
        conversations: [
          conversation('root', 1, { turns: 12 }),
          regen('r1', 2, 3),
          regen('r2', 3, 3),
          regen('r3', 4, 3),
          conversation('kept', 5, { parent: 'root', at: 4 }),
        ],
      },
    ]);
    expect(shape(rows.active)).toEqual(['root', '  kept']);
    const [root] = rows.active;
    expect(root!.alternatives).toHaveLength(1);
    // the root's own reply at step 3 and the three regenerations
    expect(root!.alternatives[0]).toMatchObject({ step: 3, replyCount: 4 });
    expect(root!.alternatives[0]!.threads.map((c) => c.thread_id)).toEqual(['r3', 'r2', 'r1']);
  });

  it('keeps a renamed, starred, continued or branched-from regeneration as a path of its own', () => {
    const rows = historyRows([
      {
        conversations: [
          conversation('root', 1, { turns: 12 }),
          regen('named', 2, 3, { title: 'The shorter answer' }),
          regen('starred', 3, 3, { starred: true }),
          regen('went-on', 4, 3, { turns: 5 }),
          regen('has-child', 5, 3),
          conversation('child', 6, { parent: 'has-child', at: 3 }),
          regen('folded', 7, 3),
        ],
      },
    ]);
    expect(shape(rows.active).map((s) => s.trim()).sort()).toEqual(['child', 'has-child', 'named', 'root', 'starred', 'went-on']);
    expect(rows.active[0]!.alternatives.map((g) => g.threads.map((c) => c.thread_id))).toEqual([['folded']]);
  });

  it('leaves an archived regeneration in the archived group, uncounted', () => {
    const rows = historyRows([{ conversations: [conversation('root', 1, { turns: 5 }), regen('away', 2, 3, { archived: true })] }]);
    expect(rows.active[0]!.alternatives).toEqual([]);
    expect(shape(rows.archived)).toEqual(['away']);
  });
});

describe('starred paths in the history', () => {
  it('are pinned at the top of their family, nesting kept', () => {
    const rows = historyRows([
      {
        conversations: [
          conversation('root', 1),
          conversation('recent', 9, { parent: 'root' }),
          conversation('starred', 2, { parent: 'root', starred: true }),
          conversation('holder', 3, { parent: 'root' }),
          conversation('deep-star', 4, { parent: 'holder', at: 2, starred: true }),
        ],
      },
    ]);
    expect(shape(rows.active)).toEqual(['root', '  holder', '    deep-star', '  starred', '  recent']);
  });
});

describe('archiving a path', () => {
  it('counts the paths that go with it', () => {
    const list = [
      conversation('root', 1),
      conversation('a', 2, { parent: 'root' }),
      conversation('a1', 3, { parent: 'a', at: 2 }),
      conversation('a11', 4, { parent: 'a1', at: 3 }),
      conversation('b', 5, { parent: 'root' }),
    ];
    expect(countDescendants(list, 'a')).toBe(2);
    expect(countDescendants(list, 'root')).toBe(4);
    expect(countDescendants(list, 'b')).toBe(0);
  });
});
