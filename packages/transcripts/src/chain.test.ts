import { describe, expect, it } from 'vitest';
import { buildOrderedUuidChain } from './chain';
import { assistant, user } from './testing/records';

describe('buildOrderedUuidChain', () => {
  const records = [
    user('u1', null, 'root'),
    assistant('a1', 'u1', 'answer'),
    user('u2', 'a1', 'left'),
    user('u3', 'a1', 'right'),
  ];

  it('returns nothing for empty input', () => {
    expect(buildOrderedUuidChain([])).toEqual({ uuids: [], gaps: [] });
  });

  it('starts at the last physical record by default and lists root → leaf', () => {
    expect(buildOrderedUuidChain(records)).toEqual({ uuids: ['u1', 'a1', 'u3'], gaps: [] });
  });

  it('starts at the given leaf', () => {
    expect(buildOrderedUuidChain(records, { leafUuid: 'u2' }).uuids).toEqual(['u1', 'a1', 'u2']);
  });

  it('gives an empty chain for an unknown leaf', () => {
    expect(buildOrderedUuidChain(records, { leafUuid: 'nope', detectGaps: true })).toEqual({
      uuids: [],
      gaps: [],
    });
  });

  it('lets the first record of a uuid define its parent', () => {
    const duplicated = [...records, user('u3', 'u2', 'rewritten')];
    expect(buildOrderedUuidChain(duplicated).uuids).toEqual(['u1', 'a1', 'u3']);
  });

  it('stops at a missing parent and reports the gap only when asked', () => {
    const island = [user('x1', 'gone', 'orphan'), assistant('x2', 'x1', 'answer'), ...records];
    expect(buildOrderedUuidChain(island, { leafUuid: 'x2' })).toEqual({ uuids: ['x1', 'x2'], gaps: [] });
    expect(buildOrderedUuidChain(island, { leafUuid: 'x2', detectGaps: true })).toEqual({
      uuids: ['x1', 'x2'],
      gaps: [{ childUuid: 'x1', missingParentUuid: 'gone' }],
    });
  });

  it('stops quietly on a cycle, cut at its earliest-written member', () => {
    const cyclic = [
      user('c1', 'c3', 'one'),
      user('c2', 'c1', 'two'),
      user('c3', 'c2', 'three'),
      user('tail', 'c2', 'x'),
    ];
    expect(buildOrderedUuidChain(cyclic, { leafUuid: 'tail', detectGaps: true })).toEqual({
      uuids: ['c1', 'c2', 'tail'],
      gaps: [],
    });
    expect(buildOrderedUuidChain(cyclic, { leafUuid: 'c3' }).uuids).toEqual(['c1', 'c2', 'c3']);
    expect(buildOrderedUuidChain(cyclic, { leafUuid: 'c1' }).uuids).toEqual(['c1']);
    expect(buildOrderedUuidChain([user('s', 's', 'self')]).uuids).toEqual(['s']);
  });
});
