import { describe, expect, it } from 'vitest';
import { parseViewPath, viewPath } from './view-url';

describe('view url', () => {
  it('round-trips the displayed thread and step', () => {
    for (const view of [
      { threadId: null, step: null },
      { threadId: 'th_0123', step: null },
      { threadId: 'th_0123', step: 4 },
    ]) {
      const url = new URL(viewPath(view), 'http://x');
      expect(parseViewPath(url.pathname, url.search)).toEqual(view);
    }
  });

  it('ignores a malformed step and unknown paths', () => {
    expect(parseViewPath('/c/th_1', '?step=abc')).toEqual({ threadId: 'th_1', step: null });
    expect(parseViewPath('/sign-in', '')).toEqual({ threadId: null, step: null });
  });
});
