// The definition of a conversation (docs/transcripts.md) over generated files: a known tree of
// answered prompts, written with every break a writer is known to make (re-appended and
// replayed stretches, lost parents, prompts hung on a progress chain or an API-error record,
// withdrawn drafts, a copied session). The oracle is the tree itself: the reader counts exactly
// its leaves, one per distinct line of answered prompts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectConversationBranches } from '../inspect';
import { trueTreeArbitrary, writeTrueTree, type TrueTree } from '../testing/arbitrary-true-tree';
import { parseClaudeCodeJsonl } from './claude-code';

const RUNS = 400;
const TIMEOUT_MS = 120_000;

function counted(text: string): number {
  return inspectConversationBranches(parseClaudeCodeJsonl(text).records).branches.length;
}

function check(tree: fc.Arbitrary<TrueTree>) {
  fc.assert(
    fc.property(tree, (generated) => {
      const { text, conversations } = writeTrueTree(generated);
      expect(counted(text)).toBe(conversations);
    }),
    { numRuns: RUNS },
  );
}

const none = { drafts: 0, replay: false, carry: 'none' as const };
const only = (overrides: Partial<TrueTree['turns'][number]>, rest: Partial<TrueTree> = {}) =>
  trueTreeArbitrary.map((tree) => ({
    ...tree,
    reappendAfter: undefined,
    lostParents: [],
    copiedSession: 'none' as const,
    ...rest,
    turns: tree.turns.map((turn) => ({ ...turn, ...none, ...overrides })),
  }));

describe('a conversation is a distinct line of answered prompts', () => {
  it('counts the true tree written plainly', { timeout: TIMEOUT_MS }, () => check(only({})));

  it(
    'a stretch re-appended under new uuids, the first prompt split in two, is no new conversation',
    { timeout: TIMEOUT_MS },
    () =>
      check(
        trueTreeArbitrary.map((tree) => ({
          ...tree,
          lostParents: [],
          copiedSession: 'none' as const,
          reappendAfter: tree.reappendAfter ?? 0,
          turns: tree.turns.map((turn) => ({ ...turn, ...none })),
        })),
      ),
  );

  it(
    'the last turn replayed beside itself before going on is no new conversation',
    { timeout: TIMEOUT_MS },
    () => check(only({ replay: true })),
  );

  it(
    'records whose parent was never written are joined to the record written before them',
    { timeout: TIMEOUT_MS },
    () =>
      check(
        trueTreeArbitrary.map((tree) => ({
          ...tree,
          reappendAfter: undefined,
          copiedSession: 'none' as const,
          lostParents: tree.lostParents.length > 0 ? tree.lostParents : [0],
          turns: tree.turns.map((turn) => ({ ...turn, ...none })),
        })),
      ),
  );

  it(
    'the next prompt hung on a progress chain below the tool call goes on from the work',
    { timeout: TIMEOUT_MS },
    () => check(only({ tool: true, carry: 'progress' })),
  );

  it(
    'the next prompt hung below an API-error record beside the answer goes on from the answer',
    { timeout: TIMEOUT_MS },
    () => check(only({ carry: 'error' })),
  );

  it('withdrawn drafts beside the answered prompt are no conversation', { timeout: TIMEOUT_MS }, () =>
    check(only({ drafts: 2 })),
  );

  it(
    'a copied session before the new root is one conversation, however often written',
    { timeout: TIMEOUT_MS },
    () => check(only({}, { copiedSession: 'twice' })),
  );

  it('every class at once', { timeout: TIMEOUT_MS }, () => check(trueTreeArbitrary));
});
