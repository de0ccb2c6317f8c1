// The committed real-corpus manifest is one `compare` can read, and every entry says
// where its file comes from and why a person counts what it counts. The files themselves are not
// in the repository; `npm run corpus:real` compares them when REAL_CORPUS names a folder of them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest';

const manifestText = readFileSync(new URL('../../corpus/real-manifest.json', import.meta.url), 'utf8');

describe('the real-corpus manifest', () => {
  it('parses, names at least 30 files once each, with repository, commit and reasons', () => {
    const entries = parseManifest(manifestText);
    if (typeof entries === 'string') throw new Error(entries);
    expect(entries.length).toBeGreaterThanOrEqual(30);
    expect(new Set(entries.map((entry) => entry.path)).size).toBe(entries.length);
    for (const entry of entries) {
      expect(entry.repository, entry.path).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(entry.commit, entry.path).toMatch(/^[0-9a-f]{40}$/);
      expect(entry.reasons?.length ?? 0, entry.path).toBeGreaterThan(20);
      expect(entry.path.startsWith(`${entry.repository!.replace('/', '__')}/`), entry.path).toBe(true);
    }
  });

  it('samples at least 250 files from at least 30 repositories, none holding more than a tenth', () => {
    const entries = parseManifest(manifestText);
    if (typeof entries === 'string') throw new Error(entries);
    expect(entries.length).toBeGreaterThanOrEqual(250);
    const perRepository = new Map<string, number>();
    for (const { repository } of entries)
      perRepository.set(repository!, (perRepository.get(repository!) ?? 0) + 1);
    expect(perRepository.size).toBeGreaterThanOrEqual(30);
    for (const [repository, count] of perRepository)
      expect(count, repository).toBeLessThanOrEqual(entries.length / 10);
  });

  it('holds both clients, subagent files and several Claude Code versions', () => {
    const entries = parseManifest(manifestText);
    if (typeof entries === 'string') throw new Error(entries);
    const paths = entries.map((entry) => entry.path);
    expect(paths.filter((path) => path.includes('/.qwen/projects/')).length).toBeGreaterThanOrEqual(40);
    expect(paths.filter((path) => path.includes('/subagents/agent-')).length).toBeGreaterThanOrEqual(10);
    const versions = new Set(entries.flatMap((entry) => entry.reasons?.match(/Claude Code [\d.]+/g) ?? []));
    expect(versions.size).toBeGreaterThanOrEqual(4);
  });
});
