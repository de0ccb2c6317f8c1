import { AIMessage, HumanMessage, RemoveMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { budgetedMessagesReducer, resolveBudget, trimToBudget } from './state';

const human = (text: string) => new HumanMessage({ id: text, content: text });
const ai = (text: string) => new AIMessage({ id: text, content: text });
const aiCalls = (id: string, ...calls: string[]) =>
  new AIMessage({ id, content: '', tool_calls: calls.map((c) => ({ id: c, name: 'add_todo', args: {} })) });
const tool = (call: string) => new ToolMessage({ id: `r-${call}`, tool_call_id: call, content: 'ok' });
const ids = (messages: BaseMessage[]) => messages.map((m) => m.id);

describe('trimToBudget', () => {
  it('keeps a list within budget unchanged', () => {
    const list = [ai('a0'), human('u1'), ai('a1')];
    expect(ids(trimToBudget(list, 3))).toEqual(['a0', 'u1', 'a1']);
  });

  it('keeps the newest messages and starts the window on a user message', () => {
    const list = [human('u1'), ai('a1'), human('u2'), ai('a2'), human('u3'), ai('a3')];
    // The last 3 would start on a2; the window starts at the next user message.
    expect(ids(trimToBudget(list, 3))).toEqual(['u3', 'a3']);
    expect(ids(trimToBudget(list, 4))).toEqual(['u2', 'a2', 'u3', 'a3']);
  });

  it('never starts on an orphan tool result or inside a tool-call group', () => {
    const list = [human('u1'), aiCalls('c1', 'x', 'y'), tool('x'), tool('y'), ai('a1'), human('u2'), ai('a2')];
    for (let max = 1; max <= list.length; max += 1) {
      const kept = trimToBudget(list, max);
      // Over budget only when the last turn (from u2) is longer than the budget.
      expect(kept.length).toBeLessThanOrEqual(Math.max(max, 2));
      expect(kept[0]?.type).toBe('human');
      // Every kept tool result has its assistant call in the window.
      const callIds = new Set(kept.flatMap((m) => (m instanceof AIMessage ? (m.tool_calls ?? []).map((c) => c.id) : [])));
      for (const m of kept) if (m instanceof ToolMessage) expect(callIds.has(m.tool_call_id)).toBe(true);
    }
  });

  it('keeps the whole last turn when it alone is longer than the budget', () => {
    const list = [human('u0'), ai('a0'), human('u1'), aiCalls('c1', 'x'), tool('x'), aiCalls('c2', 'y'), tool('y'), ai('a1')];
    expect(ids(trimToBudget(list, 4))).toEqual(['u1', 'c1', 'r-x', 'c2', 'r-y', 'a1']);
    // A message with more directives than the budget: the turn in progress keeps its request and calls.
    const calls = Array.from({ length: 50 }, (_, i) => `t${i}`);
    const big = trimToBudget([human('u0'), ai('a0'), human('u1'), aiCalls('c1', ...calls), ...calls.map(tool)], 40);
    expect(big.length).toBe(52);
    expect(big[0]?.id).toBe('u1');
  });

  it('falls back to the first non-tool message when the window holds no user message at all', () => {
    expect(ids(trimToBudget([aiCalls('c1', 'x'), tool('x'), aiCalls('c2', 'y'), tool('y'), ai('a1')], 3))).toEqual(['c2', 'r-y', 'a1']);
    expect(ids(trimToBudget([ai('a0'), tool('x'), tool('y')], 2))).toEqual([]);
  });
});

describe('budgetedMessagesReducer', () => {
  it('appends, replaces by id, removes, then trims', () => {
    const reduce = budgetedMessagesReducer(4);
    let state = reduce([], [human('u1'), ai('a1')]);
    state = reduce(state, [new AIMessage({ id: 'a1', content: 'a1 edited' })]);
    expect(state.map((m) => m.text)).toEqual(['u1', 'a1 edited']);
    state = reduce(state, [new RemoveMessage({ id: 'u1' })]);
    expect(ids(state)).toEqual(['a1']);
    state = reduce(state, [human('u2'), ai('a2'), human('u3'), ai('a3')]);
    expect(ids(state)).toEqual(['u2', 'a2', 'u3', 'a3']);
    state = reduce(state, [human('u4')]);
    expect(ids(state)).toEqual(['u3', 'a3', 'u4']);
  });

  it('bounds the state whatever the number of turns', () => {
    const reduce = budgetedMessagesReducer(10);
    let state: BaseMessage[] = [];
    for (let turn = 0; turn < 500; turn += 1) {
      state = reduce(state, [human(`u${turn}`)]);
      state = reduce(state, [aiCalls(`c${turn}`, `t${turn}`)]);
      state = reduce(state, [tool(`t${turn}`)]);
      state = reduce(state, [ai(`a${turn}`)]);
      expect(state.length).toBeLessThanOrEqual(10);
    }
    expect(state[0]?.type).toBe('human');
    expect(state.at(-1)?.id).toBe('a499');
  });
});

describe('resolveBudget', () => {
  it('defaults to 40 messages and rejects nonsense', () => {
    expect(resolveBudget(undefined)).toEqual({ maxMessages: 40 });
    expect(() => resolveBudget({ maxMessages: 0 })).toThrow(RangeError);
    expect(() => resolveBudget({ maxMessages: 2.5 })).toThrow(RangeError);
  });
});
