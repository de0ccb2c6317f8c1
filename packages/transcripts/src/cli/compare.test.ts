// `trellis-transcripts compare <folder> <manifest.json>`: the script the real-corpus manifest is
// checked with. Here the folder holds the synthetic twins, and the manifest says what
// a person reads in each.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_CORPUS, corpusFileUrl } from '../testing/corpus';
import { parseManifest } from './manifest';
import { runCli, type CliIo } from './run';

function memoryIo(files: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    fileSize: (file) => {
      if (files[file] === undefined) throw new Error('no such file');
      return files[file].length;
    },
    readFile: (file) => {
      if (files[file] === undefined) throw new Error('no such file');
      return files[file];
    },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  };
  return { io, out: () => stdout, err: () => stderr };
}

const twins = Object.fromEntries(
  TRANSCRIPT_CORPUS.map((entry) => [`corpus/${entry.file}`, readFileSync(corpusFileUrl(entry.file), 'utf8')]),
);
const manifestOf = (entries: { path: string; expectedConversations: number }[]) =>
  JSON.stringify({ files: entries.map((entry) => ({ repository: 'synthetic/twins', ...entry })) });

describe('compare <folder> <manifest.json>', () => {
  it('agrees on every corpus file, and exits 0', () => {
    const manifest = manifestOf(
      TRANSCRIPT_CORPUS.map((entry) => ({ path: entry.file, expectedConversations: entry.leafUuids.length })),
    );
    const { io, out, err } = memoryIo({ ...twins, 'manifest.json': manifest });
    expect(runCli(['compare', 'corpus', 'manifest.json'], io)).toBe(0);
    expect(err()).toBe('');
    expect(out()).toContain(`${TRANSCRIPT_CORPUS.length} of ${TRANSCRIPT_CORPUS.length} files agree`);
    expect(out()).toMatch(/^reappended-chains\.jsonl\s+1\s+1\s+ok$/m);
  });

  it('reports each disagreement and an unreadable file, and exits 1', () => {
    const manifest = manifestOf([
      { path: 'two-sessions.jsonl', expectedConversations: 2 },
      { path: 'genuine-forks.jsonl', expectedConversations: 1 },
      { path: 'missing.jsonl', expectedConversations: 1 },
    ]);
    const { io, out, err } = memoryIo({ ...twins, 'manifest.json': manifest });
    expect(runCli(['compare', 'corpus/', 'manifest.json', '--json'], io)).toBe(1);
    expect(err()).toMatch(/cannot read corpus\/missing\.jsonl/);
    expect((JSON.parse(out()) as { files: unknown[] }).files).toEqual([
      { path: 'two-sessions.jsonl', expected: 2, reported: 2, agrees: true },
      { path: 'genuine-forks.jsonl', expected: 1, reported: 3, agrees: false },
      { path: 'missing.jsonl', expected: 1, agrees: false },
    ]);
  });

  it('refuses a manifest it cannot use, saying why', () => {
    expect(parseManifest('[')).toMatch(/^the manifest is not JSON/);
    expect(parseManifest('{}')).toBe('the manifest has no "files" array');
    expect(parseManifest('{"files":[{"expectedConversations":1}]}')).toBe('files[0] has no "path"');
    expect(parseManifest('{"files":[{"path":"a.jsonl","expectedConversations":1.5}]}')).toBe(
      'files[0] (a.jsonl) has no whole "expectedConversations"',
    );
    const { io, err } = memoryIo({ 'manifest.json': '{}' });
    expect(runCli(['compare', 'corpus', 'manifest.json'], io)).toBe(1);
    expect(err()).toBe('trellis-transcripts: manifest.json: the manifest has no "files" array\n');
  });

  it('takes exactly a folder and a manifest', () => {
    const { io, err } = memoryIo({});
    expect(runCli(['compare', 'corpus'], io)).toBe(2);
    expect(err()).toMatch(/compare takes a folder and a manifest file/);
  });
});
