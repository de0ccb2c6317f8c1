import { MAX_MESSAGE_CHARS } from '@trellis/domain';
import { describe, expect, it } from 'vitest';
import { isTooLong, lengthNotice, tooLongMessage } from './message-length';

describe('the composer length limit', () => {
  it('says by how much a message is over the limit, with the length and the limit', () => {
    expect(tooLongMessage(100_000)).toBe('Message too long by 68,000 characters (100,000 of 32,000)');
    expect(tooLongMessage(MAX_MESSAGE_CHARS + 1)).toBe('Message too long by 1 character (32,001 of 32,000)');
  });

  it('counts the trimmed text, as the server does', () => {
    expect(isTooLong(`${'a'.repeat(MAX_MESSAGE_CHARS)}   \n`)).toBe(false);
    expect(isTooLong('a'.repeat(MAX_MESSAGE_CHARS + 1))).toBe(true);
  });

  it('shows no counter well under the limit, a counter near it and an over-limit mark past it', () => {
    expect(lengthNotice(100)).toBeNull();
    expect(lengthNotice(MAX_MESSAGE_CHARS - 100)).toEqual({ isOver: false });
    expect(lengthNotice(MAX_MESSAGE_CHARS + 1)).toEqual({ isOver: true });
  });
});
