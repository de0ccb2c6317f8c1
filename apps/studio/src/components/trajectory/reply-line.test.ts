import { describe, expect, it } from 'vitest';
import { replyAriaText, replyLine } from './reply-line';

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
    expect(replyAriaText(replyLine('Half an ans', 'stopped'))).toBe('reply (stopped): Half an ans');
  });

  it('shows a finished reply as its text alone', () => {
    expect(replyLine('Done.', 'complete')).toEqual({ text: 'Done.', note: null });
    expect(replyAriaText(replyLine('Done.', 'complete'))).toBe('reply: Done.');
  });

  it('names the state in the accessible text when there is no reply text', () => {
    expect(replyAriaText(replyLine(null, null))).toBe('no reply yet');
    expect(replyAriaText(replyLine('', 'stopped'))).toBe('stopped');
  });
});
