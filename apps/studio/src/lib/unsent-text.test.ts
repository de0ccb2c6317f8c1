import { describe, expect, it, vi } from 'vitest';
import { UnsentText, type UnsentSource } from './unsent-text';

/** An editor whose text can be changed by the test, as typing would. */
function editor(store: UnsentText, what: string, text = '') {
  const state = { text, discarded: 0, focused: 0 };
  const source: UnsentSource = {
    what: () => what,
    hasUnsent: () => state.text.trim() !== '',
    discard: () => {
      state.discarded++;
      state.text = '';
    },
    focus: () => {
      state.focused++;
    },
  };
  return { state, unregister: store.register(source) };
}

describe('unsent text', () => {
  it('takes a way out at once when nothing unsent would be lost, and asks nothing', () => {
    const store = new UnsentText();
    editor(store, 'your draft', '   ');
    const leave = vi.fn();
    store.guard(leave);
    expect(leave).toHaveBeenCalledOnce();
    expect(store.getQuestion()).toBeNull();
  });

  it('holds a way out while an editor has text, naming every editor that would lose some', () => {
    const store = new UnsentText();
    editor(store, 'your edit of a message', 'Fixed typo');
    editor(store, 'your draft', '');
    editor(store, 'your edits to the workspace', 'x');
    const leave = vi.fn();
    store.guard(leave);
    expect(leave).not.toHaveBeenCalled();
    expect(store.getQuestion()?.what).toEqual(['your edit of a message', 'your edits to the workspace']);
  });

  it('"Keep editing" drops the way out and keeps the text; the cursor goes back to the first editor holding some', () => {
    const store = new UnsentText();
    const empty = editor(store, 'your draft');
    const edit = editor(store, 'your edit of a message', 'Fixed typo');
    const leave = vi.fn();
    store.guard(leave);
    store.keepEditing();
    expect(store.getQuestion()).toBeNull();
    expect(leave).not.toHaveBeenCalled();
    expect(edit.state).toMatchObject({ text: 'Fixed typo', discarded: 0 });
    expect(store.focusUnsent()).toBe(true);
    expect([edit.state.focused, empty.state.focused]).toEqual([1, 0]);
  });

  it('"Discard" throws away every unsent text, then takes the way out', () => {
    const store = new UnsentText();
    const edit = editor(store, 'your edit of a message', 'Fixed typo');
    const draft = editor(store, 'your draft', 'Next question');
    const order: string[] = [];
    store.guard(() => order.push(`leave after ${edit.state.discarded + draft.state.discarded} discards`));
    store.discard();
    expect(order).toEqual(['leave after 2 discards']);
    expect(store.hasUnsent()).toBe(false);
    expect(store.getQuestion()).toBeNull();
    // Answered once: a second answer does nothing.
    store.discard();
    expect(order).toHaveLength(1);
  });

  it('an editor that went away is no longer asked about; listeners hear of each question and answer', () => {
    const store = new UnsentText();
    const edit = editor(store, 'your edit of a message', 'Fixed typo');
    const heard = vi.fn();
    const unsubscribe = store.subscribe(heard);
    store.guard(() => undefined);
    store.keepEditing();
    expect(heard).toHaveBeenCalledTimes(2);
    edit.unregister();
    const leave = vi.fn();
    store.guard(leave);
    expect(leave).toHaveBeenCalledOnce();
    unsubscribe();
    store.guard(() => undefined);
    expect(heard).toHaveBeenCalledTimes(2);
  });
});
