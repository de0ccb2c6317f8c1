import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectConversationBranches } from '../inspect';
import { parseClaudeCodeJsonl } from './claude-code';
import { parseQwenJsonl } from './qwen';

const lineArbitrary = fc.oneof(
  fc.json(),
  fc.string(),
  fc
    .record({
      type: fc.constantFrom('user', 'assistant', 'system', 'progress', 'tool_result', 'summary'),
      uuid: fc.constantFrom('a', 'b', 'c', 'd'),
      parentUuid: fc.constantFrom(null, 'a', 'b', 'c', 'd', 'x'),
      logicalParentUuid: fc.option(fc.constantFrom('a', 'b', 'x'), { nil: undefined }),
      isSidechain: fc.boolean(),
      message: fc.option(
        fc.record({ id: fc.constantFrom('m1', 'm2'), content: fc.anything(), parts: fc.anything() }),
        {
          nil: undefined,
        },
      ),
    })
    .map((value) => JSON.stringify(value)),
);

describe('readers on arbitrary text', () => {
  it('never throw, and every diagnostic points at a real line', () => {
    fc.assert(
      fc.property(fc.array(lineArbitrary, { maxLength: 12 }), fc.boolean(), (lines, glue) => {
        const text = lines.join(glue ? '' : '\n');
        const lineCount = text.split('\n').length;
        for (const read of [parseClaudeCodeJsonl, parseQwenJsonl]) {
          const result = read(text);
          for (const diagnostic of result.diagnostics) {
            expect(diagnostic.line).toBeGreaterThanOrEqual(1);
            expect(diagnostic.line).toBeLessThanOrEqual(lineCount);
          }
          inspectConversationBranches(result.records);
        }
      }),
      { numRuns: 2_000 },
    );
  }, 120_000);
});
