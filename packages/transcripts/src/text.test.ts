import { describe, expect, it } from 'vitest';
import { isUserPrompt, summarizeText } from './text';
import { user } from './testing/records';

describe('summarizeText', () => {
  it('joins fragments with a space, collapses whitespace and trims', () => {
    expect(summarizeText(['  Hello\n\n', '\tworld ', 'again'])).toBe('Hello world again');
  });

  it('collapses exactly the characters \\s matches, across the basic multilingual plane', () => {
    const mismatches: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      const expected = /\s/.test(char) ? 'a b' : `a${char}b`;
      if (summarizeText([`a${char}b`]) !== expected) mismatches.push(code);
    }
    expect(mismatches).toEqual([]);
  });

  it('is undefined when nothing but whitespace remains', () => {
    expect(summarizeText([])).toBeUndefined();
    expect(summarizeText([' \n', '\u00a0\u2003'])).toBeUndefined();
  });

  it('keeps exactly 200 characters and truncates the 201st', () => {
    expect(summarizeText(['a'.repeat(200)])).toBe('a'.repeat(200));
    expect(summarizeText(['a'.repeat(200), 'b'])).toBe(`${'a'.repeat(200)}...`);
    expect(summarizeText([`${'a'.repeat(200)}   `])).toBe('a'.repeat(200));
  });

  it('keeps a collapsed space that falls on the 200th character', () => {
    expect(summarizeText([`${'a'.repeat(199)}    bcd`])).toBe(`${'a'.repeat(199)} ...`);
  });

  it('counts code points so a surrogate pair is never split', () => {
    expect(summarizeText(['😀'.repeat(201)])).toBe(`${'😀'.repeat(200)}...`);
  });
});

describe('isUserPrompt', () => {
  it('accepts plain user records only', () => {
    expect(isUserPrompt(user('u', null, 'x'))).toBe(true);
    expect(isUserPrompt(user('u', null, 'x', { subtype: 'slash_command' }))).toBe(true);
    expect(isUserPrompt(user('u', null, 'x', { subtype: 'cron' }))).toBe(false);
    expect(isUserPrompt(user('u', null, 'x', { externalInputKind: 'notification' }))).toBe(false);
    expect(isUserPrompt(user('u', null, 'x', { externalInputKind: 'webhook' }))).toBe(true);
    expect(isUserPrompt({ ...user('u', null, 'x'), type: 'assistant' })).toBe(false);
  });
});
