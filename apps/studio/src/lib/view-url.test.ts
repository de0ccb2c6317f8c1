import { describe, expect, it } from 'vitest';
import { parseStepParam, parseViewPath, viewPath } from './view-url';

describe('view url', () => {
  it('round-trips the displayed thread and step', () => {
    for (const view of [
      { threadId: null, step: null },
      { threadId: 'th_0123', step: null },
      { threadId: 'th_0123', step: 4 },
      { threadId: 'th_0123', step: null, replay: 12 },
    ]) {
      const url = new URL(viewPath(view), 'http://x');
      expect(parseViewPath(url.pathname, url.search)).toEqual(view);
    }
  });

  it('ignores a malformed step and unknown paths', () => {
    expect(parseViewPath('/c/th_1', '?step=abc')).toEqual({ threadId: 'th_1', step: null });
    expect(parseViewPath('/sign-in', '')).toEqual({ threadId: null, step: null });
  });

  it('keeps a replay position only as a change number from 1', () => {
    expect(viewPath({ threadId: 'th_1', step: null, replay: 3 })).toBe('/c/th_1?replay=3');
    for (const bad of ['0', '-1', '1.5', 'x']) {
      expect(parseViewPath('/c/th_1', `?replay=${bad}`)).toEqual({ threadId: 'th_1', step: null });
    }
  });
});

describe('view url under a narrowed studio', () => {
  it('round-trips under its root, and leaves it for nothing else', () => {
    const root = '/join/s/Ab-c_9';
    for (const view of [
      { threadId: null, step: null },
      { threadId: 'th_0123', step: null },
      { threadId: 'th_0123', step: 4 },
    ]) {
      const url = new URL(viewPath(view, root), 'http://x');
      expect(url.pathname.startsWith(root)).toBe(true);
      expect(parseViewPath(url.pathname, url.search, root)).toEqual(view);
    }
    expect(viewPath({ threadId: 'th_1', step: null }, root)).toBe('/join/s/Ab-c_9/c/th_1');
    expect(parseViewPath('/c/th_1', '', root)).toEqual({ threadId: null, step: null });
  });

  it('reads ?step= as a whole number or not at all, on the server as in the address bar', () => {
    expect(parseStepParam('4')).toBe(4);
    expect(parseStepParam('0')).toBe(0);
    for (const bad of [undefined, null, '', '-1', '4.5', '4x', ' 4']) expect(parseStepParam(bad)).toBeNull();
  });
});
