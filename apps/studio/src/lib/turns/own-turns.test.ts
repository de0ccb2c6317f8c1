import { describe, expect, it } from 'vitest';
import { isOwnTurn, rememberOwnTurn, type TurnMemory } from './own-turns';

function memory(initial: Record<string, string> = {}): TurnMemory & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('own turns', () => {
  it('knows the attempts this tab started, and no other', () => {
    const tab = memory();
    rememberOwnTurn(tab, 'th_a', 3, 1);
    expect(isOwnTurn(tab, 'th_a', 3, 1)).toBe(true);
    // Another attempt of the same turn (a retry from another tab), another turn, another path.
    expect(isOwnTurn(tab, 'th_a', 3, 2)).toBe(false);
    expect(isOwnTurn(tab, 'th_a', 4, 1)).toBe(false);
    expect(isOwnTurn(tab, 'th_b', 3, 1)).toBe(false);
    // A second tab has storage of its own.
    expect(isOwnTurn(memory(), 'th_a', 3, 1)).toBe(false);
  });

  it('keeps the newest fifty, once each', () => {
    const tab = memory();
    for (let turn = 1; turn <= 60; turn++) rememberOwnTurn(tab, 'th_a', turn, 1);
    rememberOwnTurn(tab, 'th_a', 60, 1);
    expect(isOwnTurn(tab, 'th_a', 10, 1)).toBe(false);
    expect(isOwnTurn(tab, 'th_a', 11, 1)).toBe(true);
    expect(JSON.parse(tab.items.get('trellis.own-turns') ?? '[]')).toHaveLength(50);
  });

  it('reads unreadable storage as no turns and survives a refused write', () => {
    expect(isOwnTurn(memory({ 'trellis.own-turns': '{not json' }), 'th_a', 1, 1)).toBe(false);
    expect(isOwnTurn(memory({ 'trellis.own-turns': '{"a":1}' }), 'th_a', 1, 1)).toBe(false);
    const full: TurnMemory = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(() => rememberOwnTurn(full, 'th_a', 1, 1)).not.toThrow();
  });
});
