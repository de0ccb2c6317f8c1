import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectConversationBranches } from '../inspect';
import { claudeCodeSessionArbitrary } from '../testing/arbitrary-claude-code';
import { danglingFanOutLeaves } from '../testing/fan-out-oracle';
import { parseClaudeCodeJsonl } from './claude-code';

const RUNS = 2_000;
/** Thousands of runs take seconds on a loaded machine; a hang still fails. */
const TIMEOUT_MS = 120_000;

describe('the Claude Code reader over generated sessions', () => {
  it(
    'never reports a tool result whose siblings are tool calls of the same message as a leaf',
    () => {
      fc.assert(
        fc.property(claudeCodeSessionArbitrary, ({ text }) => {
          const { records } = parseClaudeCodeJsonl(text);
          const leaves = inspectConversationBranches(records).branches.map((b) => b.leafUuid);
          expect(danglingFanOutLeaves(records, leaves)).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'finds exactly one leaf per conversation: the main line and each genuine fork',
    () => {
      fc.assert(
        fc.property(claudeCodeSessionArbitrary, ({ text, conversations }) => {
          const { branches } = inspectConversationBranches(parseClaudeCodeJsonl(text).records);
          expect(branches).toHaveLength(conversations);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it('generates the shapes it claims: fan-outs with dangling results, forks, several rounds', () => {
    const samples = fc.sample(claudeCodeSessionArbitrary, { numRuns: 300, seed: 7 });
    // Read without the join, these sessions do have dangling results as leaves.
    const unjoined = samples.filter((s) => {
      const records = parseClaudeCodeJsonl(s.text).records.map((r) => {
        const original = (r.claudeCode as { originalParentUuid?: string | null }).originalParentUuid;
        return original === undefined ? r : { ...r, parentUuid: original };
      });
      const leaves = inspectConversationBranches(records).branches.map((b) => b.leafUuid);
      return danglingFanOutLeaves(records, leaves).length > 0;
    });
    expect(unjoined.length).toBeGreaterThan(30);
    expect(samples.some((s) => s.forks > 0)).toBe(true);
    expect(samples.some((s) => /_r1_call/.test(s.text))).toBe(true);
    expect(samples.some((s) => /_next\d/.test(s.text))).toBe(true);
  });
});
