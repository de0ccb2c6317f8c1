import { describe, expect, it } from 'vitest';
import { isReplyAlternative, regeneratedTitle, type AlternativeCandidate } from './reply-alternatives';

const regeneration = (over: Partial<AlternativeCandidate> = {}): AlternativeCandidate => ({
  reason: 'regenerate',
  title: regeneratedTitle(3),
  starred: false,
  branch_point_turn: 2,
  owned_turn_count: 1,
  child_count: 0,
  ...over,
});

describe('a regeneration alternative', () => {
  it('is a regenerated reply nobody made a path of its own', () => {
    expect(isReplyAlternative(regeneration())).toBe(true);
    // still streaming its first reply (or it failed before the turn opened)
    expect(isReplyAlternative(regeneration({ owned_turn_count: 0 }))).toBe(true);
  });

  it('is a path of its own once it went on, grew a branch, was renamed or starred', () => {
    expect(isReplyAlternative(regeneration({ owned_turn_count: 2 }))).toBe(false);
    expect(isReplyAlternative(regeneration({ child_count: 1 }))).toBe(false);
    expect(isReplyAlternative(regeneration({ title: 'The shorter answer' }))).toBe(false);
    expect(isReplyAlternative(regeneration({ starred: true }))).toBe(false);
  });

  it('is never an edit, a plain branch or a root', () => {
    expect(isReplyAlternative(regeneration({ reason: 'edit' }))).toBe(false);
    expect(isReplyAlternative(regeneration({ reason: null }))).toBe(false);
    expect(isReplyAlternative(regeneration({ branch_point_turn: null }))).toBe(false);
  });

  it('reads its title against its own step', () => {
    expect(isReplyAlternative(regeneration({ branch_point_turn: 4 }))).toBe(false);
    expect(isReplyAlternative(regeneration({ branch_point_turn: 4, title: regeneratedTitle(5) }))).toBe(true);
  });

  it('numbers the second and later regenerations of a step, and still reads them as alternatives', () => {
    expect([1, 2, 3].map((n) => regeneratedTitle(5, n))).toEqual([
      'Regenerated at step 5',
      'Regenerated at step 5 (2)',
      'Regenerated at step 5 (3)',
    ]);
    expect(isReplyAlternative(regeneration({ branch_point_turn: 4, title: regeneratedTitle(5, 2) }))).toBe(true);
    expect(isReplyAlternative(regeneration({ branch_point_turn: 4, title: 'Regenerated at step 5 (x)' }))).toBe(false);
    expect(isReplyAlternative(regeneration({ branch_point_turn: 4, title: 'Regenerated at step 5 (2) mine' }))).toBe(false);
  });
});
