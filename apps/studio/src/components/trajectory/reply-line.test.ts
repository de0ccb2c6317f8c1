import { describe, expect, it } from 'vitest';
import { replyLine } from './reply-line';

describe('the reply line of a step card', () => {
  it('reads "no reply yet" only while the step has no reply', () => {
    expect(replyLine(null, null)).toEqual({ text: null, note: 'no reply yet' });
  });

  it('reads "stopped", not "no reply yet", for a step stopped before any text', () => {
    expect(replyLine('', 'stopped')).toEqual({ text: null, note: 'stopped' });
    expect(replyLine('  ', 'stopped').note).toBe('stopped');
  });

  it('reads "interrupted" for a step the server stopped, and "failed" for a failed one', () => {
    expect(replyLine(null, 'interrupted').note).toBe('interrupted');
    expect(replyLine('', 'failed').note).toBe('failed');
  });

  it('keeps the partial text of a stopped reply and says it stopped', () => {
    expect(replyLine(' Half an ans', 'stopped')).toEqual({ text: 'Half an ans', note: 'stopped' });
  });

  it('shows a finished reply as its text alone', () => {
    expect(replyLine('Done.', 'complete')).toEqual({ text: 'Done.', note: null });
  });

  it('reads "applied, no model call" for an apply step, not "empty reply"', () => {
    expect(replyLine(null, 'complete', true)).toEqual({ text: null, note: 'applied, no model call' });
    expect(replyLine(null, 'complete')).toEqual({ text: null, note: 'empty reply' });
    expect(replyLine('A summary.', 'complete', true)).toEqual({ text: 'A summary.', note: null });
  });

  it('reads "replying…", never "no reply yet", for the step whose reply streams now', () => {
    expect(replyLine(null, null, false, true)).toEqual({ text: null, note: 'replying…' });
    expect(replyLine('Added', null, false, true)).toEqual({ text: 'Added', note: 'replying…' });
    // Once the reply is stored, its status speaks.
    expect(replyLine('Added 2 todos.', 'complete', false, true)).toEqual({ text: 'Added 2 todos.', note: null });
  });
});
