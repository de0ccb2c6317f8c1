import { describe, expect, it } from 'vitest';
import { readJsonlObjects, scanJsonShape, splitConcatenatedJson } from './jsonl';

describe('readJsonlObjects', () => {
  it('numbers physical lines, skipping blank ones, with a BOM and CRLF endings', () => {
    const items = [...readJsonlObjects('\ufeff{"a":1}\r\n\r\n  \n{"b":2}\r\n')];
    expect(items).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: { b: 2 } },
    ]);
  });

  it('skips lines over the length bound with a diagnostic', () => {
    const items = [...readJsonlObjects('{"a":1}\n{"long":"xxxxxxxxxx"}\n{"c":3}', { maxLineLength: 10 })];
    expect(items).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, diagnostic: { kind: 'line-too-long', line: 2, length: 21 } },
      { line: 3, value: { c: 3 } },
    ]);
  });

  it('reports a broken line alike whether it is parsed or scanned first', () => {
    // The first broken lines are parsed before they are scanned; after enough of them every
    // line is scanned first. Either way each line reads as the scan or the parser says.
    const broken = ['{"a":"x}', '{"a":1]', '{"a":1}}', '{"a":[1', '{"a":1}{"b":2}', '[1]'];
    const text = [...Array.from({ length: 40 }, () => broken).flat(), '{"ok":true}'].join('\n');
    const items = [...readJsonlObjects(text)];
    const group = (at: number) =>
      items.slice(at * 8, at * 8 + 8).map((item) => JSON.stringify(item).replace(/"line":\d+/g, '"line":0'));
    const malformed = (message: string) => ({
      line: 0,
      diagnostic: { kind: 'malformed-line', line: 0, message },
    });
    const first = group(0);
    expect(first.map((item) => JSON.parse(item) as unknown)).toEqual([
      malformed('not valid JSON: unterminated string'),
      malformed(expect.any(String) as string),
      malformed('not valid JSON: a bracket closes that never opened'),
      malformed('not valid JSON: unexpected end of input (unclosed bracket)'),
      { line: 0, diagnostic: { kind: 'glued-objects', line: 0, count: 2 } },
      { line: 0, value: { a: 1 } },
      { line: 0, value: { b: 2 } },
      { line: 0, diagnostic: { kind: 'invalid-record', line: 0, reason: 'not a JSON object' } },
    ]);
    for (let at = 1; at < 40; at++) expect(group(at)).toEqual(first);
    expect(items.at(-1)).toEqual({ line: 241, value: { ok: true } });
  });

  it('recovers glued objects and reports them', () => {
    expect([...readJsonlObjects('{"a":"}{"} {"b":[1,{"c":2}]}')]).toEqual([
      { line: 1, diagnostic: { kind: 'glued-objects', line: 1, count: 2 } },
      { line: 1, value: { a: '}{' } },
      { line: 1, value: { b: [1, { c: 2 }] } },
    ]);
  });
});

describe('splitConcatenatedJson', () => {
  it('splits only whole top-level values', () => {
    expect(splitConcatenatedJson('{"a":1}{"b":"\\"}"}')).toEqual([{ a: 1 }, { b: '"}' }]);
    expect(splitConcatenatedJson('{"a":1}')).toBeUndefined();
    expect(splitConcatenatedJson('{"a":1}{"b":')).toBeUndefined();
    expect(splitConcatenatedJson('{"a":1} x {"b":2}')).toBeUndefined();
    expect(splitConcatenatedJson('{"a":1}}{')).toBeUndefined();
    expect(splitConcatenatedJson('{"a":tru}{"b":2}')).toBeUndefined();
  });
});

describe('scanJsonShape', () => {
  it('balances brackets outside strings only, and honours escaped quotes', () => {
    expect(scanJsonShape('{"a":"}]\\\\"}', 4)).toBe('balanced');
    expect(scanJsonShape('{"a":"\\"}"}', 4)).toBe('balanced');
    expect(scanJsonShape('{"a":"\\\\"}"}', 4)).toBe('not valid JSON: unterminated string');
    expect(scanJsonShape('{"a":[[[1]]]}', 3)).toBe('too deep');
    expect(scanJsonShape('{"a":[[[1]]]}', 4)).toBe('balanced');
    expect(scanJsonShape('{"a":1}}', 4)).toBe('not valid JSON: a bracket closes that never opened');
    expect(scanJsonShape('{"a":[1', 4)).toBe('not valid JSON: unexpected end of input (unclosed bracket)');
  });
});
