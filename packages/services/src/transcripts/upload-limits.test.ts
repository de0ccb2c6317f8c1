import { describe, expect, it } from 'vitest';
import { storableJson, storableText } from './upload-limits';

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
