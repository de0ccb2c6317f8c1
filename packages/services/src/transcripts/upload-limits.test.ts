import { describe, expect, it } from 'vitest';
import { AppError } from '@trellis/domain';
import { assertNestingWithinLimit, MAX_JSON_DEPTH, storableJson, storableText } from './upload-limits';

describe('storableText', () => {
  it('removes NUL characters and replaces lone surrogates, keeping pairs', () => {
    expect(storableText('a\u0000b')).toBe('ab');
    expect(storableText('x\ud800y')).toBe('x\ufffdy');
    expect(storableText('x\udc00')).toBe('x\ufffd');
    expect(storableText('\udc00\ud800')).toBe('\ufffd\ufffd');
    expect(storableText('emoji 😀 stays')).toBe('emoji 😀 stays');
  });

  it('cleans every string and key of a JSON value', () => {
    expect(storableJson({ 'k\u0000': ['v\ud83d', 1, null, { n: 'ok' }] })).toEqual({ k: ['v\ufffd', 1, null, { n: 'ok' }] });
  });
});

describe('assertNestingWithinLimit', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, naming the line`, () => {
    expect(() => assertNestingWithinLimit(nested(MAX_JSON_DEPTH))).not.toThrow();
    const error = (() => {
      try {
        assertNestingWithinLimit(`{}\n${nested(MAX_JSON_DEPTH + 1)}`);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toMatch(/^Line 2 nests JSON deeper than 256 levels/);
  });

  it('counts each line on its own and ignores brackets inside strings, escaped quotes included', () => {
    expect(() => assertNestingWithinLimit('{\n'.repeat(10_000))).not.toThrow();
    expect(() => assertNestingWithinLimit(`{"t":"\\"${'['.repeat(1_000)}"}`)).not.toThrow();
  });
});
