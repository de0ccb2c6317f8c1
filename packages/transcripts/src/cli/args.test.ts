import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './args';

describe('parseCliArgs', () => {
  it('reads inspect with its file and options', () => {
    expect(parseCliArgs(['inspect', 'a.jsonl'])).toEqual({ kind: 'inspect', file: 'a.jsonl', json: false });
    expect(parseCliArgs(['inspect', '--json', 'a.jsonl', '--format', 'claude-code'])).toEqual({
      kind: 'inspect',
      file: 'a.jsonl',
      json: true,
      format: 'claude-code',
    });
    expect(parseCliArgs(['inspect', 'a.jsonl', '--format=qwen-code'])).toMatchObject({ format: 'qwen-code' });
    expect(parseCliArgs(['inspect', 'folder', '--project'])).toEqual({
      kind: 'inspect',
      file: 'folder',
      json: false,
      project: true,
    });
  });

  it('asks for help when there is nothing to do or when told to', () => {
    expect(parseCliArgs([])).toEqual({ kind: 'help' });
    expect(parseCliArgs(['inspect', '--help'])).toEqual({ kind: 'help' });
  });

  it('rejects what it does not understand', () => {
    expect(parseCliArgs(['show', 'a.jsonl'])).toEqual({
      kind: 'usage-error',
      message: 'unknown command "show"',
    });
    expect(parseCliArgs(['inspect'])).toEqual({
      kind: 'usage-error',
      message: 'inspect takes exactly one transcript file or folder',
    });
    expect(parseCliArgs(['inspect', 'a', 'b'])).toMatchObject({ kind: 'usage-error' });
    expect(parseCliArgs(['inspect', 'a', '--verbose'])).toEqual({
      kind: 'usage-error',
      message: 'unknown option --verbose',
    });
    expect(parseCliArgs(['inspect', 'a', '--format', 'gemini'])).toEqual({
      kind: 'usage-error',
      message: '--format must be one of qwen-code, claude-code',
    });
    expect(parseCliArgs(['inspect', 'a', '--format'])).toMatchObject({ kind: 'usage-error' });
  });
});
