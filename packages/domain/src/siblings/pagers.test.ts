import { describe, expect, it } from 'vitest';
import { assembleFamilyGraph, type FamilyThreadRow, type TurnMetaRow } from '../graph/index';
import { regeneratedTitle } from './reply-alternatives';
import { pagersAtStep } from './pagers';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const thread = (id: string, parent: string | null, k: number | null, created: number, extra: Partial<FamilyThreadRow> = {}): FamilyThreadRow => ({
  thread_id: id,
  parent_thread_id: parent,
  branch_point_turn: k,
  reason: null,
  title: id,
  created_at: at(created),
  deleted_at: null,
  ...extra,
});
const regen = (id: string, parent: string, k: number, created: number, extra: Partial<FamilyThreadRow> = {}) =>
  thread(id, parent, k, created, { reason: 'regenerate', title: regeneratedTitle(k + 1), ...extra });
const turn = (id: string, k: number, s: number, message = `q${k}`): TurnMetaRow => ({
  thread_id: id,
  turn_index: k,
  user_message: message,
  reply_preview: `${id} a${k}`,
  tool_count: 0,
  captured_at: at(s),
  artifact_count: 0,
});

/**
 * root: 1, 2, 3 · r1, r2: regenerations of step 2 (same message) · e: an edit of step 2 (another
 * message) · re: a regeneration of e's reply · c: continue-from-here at 1 (new message at step 2)
 */
function family(extraThreads: FamilyThreadRow[] = [], extraTurns: TurnMetaRow[] = []) {
  const threads = [
    thread('root', null, null, 0),
    regen('r1', 'root', 1, 10),
    thread('e', 'root', 1, 20, { reason: 'edit' }),
    regen('r2', 'root', 1, 30),
    regen('re', 'root', 1, 40),
    thread('c', 'root', 1, 50),
    ...extraThreads,
  ];
  const turns = [
    turn('root', 1, 1),
    turn('root', 2, 2),
    turn('root', 3, 3),
    turn('r1', 2, 11),
    turn('e', 2, 21, 'q2 edited'),
    turn('e', 3, 22),
    turn('r2', 2, 31),
    turn('re', 2, 41, 'q2 edited'),
    turn('c', 2, 51, 'something else'),
    ...extraTurns,
  ];
  return (requested: string) => assembleFamilyGraph({ requestedThreadId: requested, threads, turns });
}

const ids = (pager: { siblings: { thread_id: string }[] }) => pager.siblings.map((s) => s.thread_id);

describe('pagersAtStep', () => {
  it("the reply's pager pages through the regenerations of that reply; the message's through edits and continues only", () => {
    const graphFor = family();
    const fromRoot = pagersAtStep(graphFor('root'), 2);
    expect(ids(fromRoot.reply)).toEqual(['root', 'r1', 'r2']);
    expect(fromRoot.reply.index).toBe(0);
    expect(ids(fromRoot.message)).toEqual(['root', 'e', 'c']);
    expect(fromRoot.message.index).toBe(0);
  });

  it('on an alternative, the reply pager shows where it stands and the message pager stands on its anchor', () => {
    const graphFor = family();
    const fromR2 = pagersAtStep(graphFor('r2'), 2);
    expect(ids(fromR2.reply)).toEqual(['root', 'r1', 'r2']);
    expect(fromR2.reply.index).toBe(2);
    expect(fromR2.message.index).toBe(0);
    // every page of the reply answers the same message at the same step: never another path's step
    expect(new Set(fromR2.reply.siblings.map((s) => s.preview))).toEqual(new Set(['q2']));
  });

  it("an edit's regenerations page with the edit's reply, not the original's", () => {
    const graphFor = family();
    const fromE = pagersAtStep(graphFor('e'), 2);
    expect(ids(fromE.reply)).toEqual(['e', 're']);
    expect(fromE.message.index).toBe(1);
    const fromRe = pagersAtStep(graphFor('re'), 2);
    expect(ids(fromRe.reply)).toEqual(['e', 're']);
    expect(fromRe.reply.index).toBe(1);
    expect(fromRe.message.index).toBe(1);
  });

  it('a regeneration that went on, was renamed, starred or grew a branch is a path: it moves to the message pager', () => {
    const wentOn = family([], [turn('r1', 3, 12)]);
    expect(ids(pagersAtStep(wentOn('root'), 2).message)).toEqual(['root', 'r1', 'e', 'c']);
    expect(ids(pagersAtStep(wentOn('root'), 2).reply)).toEqual(['root', 'r2']);

    const renamedThreads = [thread('root', null, null, 0), regen('r1', 'root', 1, 10, { title: 'Shorter answer' })];
    const renamed = assembleFamilyGraph({ requestedThreadId: 'root', threads: renamedThreads, turns: [turn('root', 1, 1), turn('root', 2, 2), turn('r1', 2, 11)] });
    expect(ids(pagersAtStep(renamed, 2).message)).toEqual(['root', 'r1']);
    expect(ids(pagersAtStep(renamed, 2).reply)).toEqual(['root']);

    const starred = assembleFamilyGraph({
      requestedThreadId: 'root',
      threads: [thread('root', null, null, 0), regen('r1', 'root', 1, 10, { is_starred: true })],
      turns: [turn('root', 1, 1), turn('root', 2, 2), turn('r1', 2, 11)],
    });
    expect(ids(pagersAtStep(starred, 2).reply)).toEqual(['root']);

    const branched = family([thread('x', 'r1', 2, 60)], [turn('x', 3, 61)]);
    expect(ids(pagersAtStep(branched('root'), 2).reply)).toEqual(['root', 'r2']);
  });

  it('a step without alternatives has one page each', () => {
    const pagers = pagersAtStep(family()('root'), 3);
    expect(ids(pagers.reply)).toEqual(['root']);
    expect(ids(pagers.message)).toEqual(['root']);
  });
});
