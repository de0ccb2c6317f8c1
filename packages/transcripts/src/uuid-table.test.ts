import { describe, expect, it } from 'vitest';
import { UuidTable } from './uuid-table';

describe('UuidTable', () => {
  it('assigns dense ids in first-seen order and finds them again through probe collisions', () => {
    const table = new UuidTable(8);
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    expect(keys.map((key) => table.idFor(key))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(keys.map((key) => table.idFor(key))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(keys.map((key) => table.get(key))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(table.get('z')).toBe(-1);
    expect(table.get('')).toBe(-1);
    expect(table.size).toBe(8);
    expect(table.uuids).toEqual(keys);
  });

  it('holds its full capacity of distinct uuids', () => {
    const count = 20_000;
    const table = new UuidTable(count);
    for (let i = 0; i < count; i++) table.idFor(`uuid-${i}`);
    const misplaced = Array.from({ length: count }, (_, i) => i).filter((i) => table.get(`uuid-${i}`) !== i);
    expect(misplaced).toEqual([]);
    expect(table.get('uuid-20000')).toBe(-1);
  });
});
