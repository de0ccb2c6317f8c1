// A zip is taken at its word only as far as its word goes: an entry that inflates past the size the
// directory claims is refused as soon as it does (not after inflating a gigabyte), entries whose
// data overlap are refused before anything is inflated, and an honest zip opens as it always did.
import { strFromU8, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { AppError } from '@trellis/domain';
import { unzipProject } from './unzip-project';

const CENTRAL = 0x02014b50;
const EOCD = 0x06054b50;

function directoryOffsets(zip: Uint8Array): { entries: number[]; eocd: number } {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = zip.length - 22;
  while (view.getUint32(eocd, true) !== EOCD) eocd--;
  const entries: number[] = [];
  let at = view.getUint32(eocd + 16, true);
  for (let i = 0; i < view.getUint16(eocd + 10, true); i++) {
    expect(view.getUint32(at, true)).toBe(CENTRAL);
    entries.push(at);
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return { entries, eocd };
}

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return ((error as AppError).details as { reason?: string }).reason;
  }
  return undefined;
}

describe('unzipProject', () => {
  it('opens an honest project zip', () => {
    const zip = zipSync({ 'project/a.jsonl': strToU8('{"a":1}\n'), 'project/subagents/agent-1.jsonl': strToU8('{"b":2}\n') });
    const entries = unzipProject(zip);
    expect(entries.map((e) => e.path).sort()).toEqual(['project/a.jsonl', 'project/subagents/agent-1.jsonl']);
    expect(entries.find((e) => e.path === 'project/a.jsonl')?.text).toBe('{"a":1}\n');
  });

  it('refuses an entry that inflates past the size it claims, before inflating the rest of it', () => {
    // 4 MB of zeros deflate to a few KB; the directory is made to claim 1 KB.
    const zip = zipSync({ 'project/huge.jsonl': new Uint8Array(4 * 1024 * 1024) }, { level: 1 });
    const { entries } = directoryOffsets(zip);
    new DataView(zip.buffer).setUint32(entries[0]! + 24, 1024, true);
    expect(reasonOf(() => unzipProject(zip))).toBe('size-mismatch');
  });

  it('refuses entries that point at one stream (overlapping data)', () => {
    const zip = zipSync({ 'project/a.jsonl': strToU8('x'.repeat(1000)), 'project/b.jsonl': strToU8('y'.repeat(1000)) });
    const { entries } = directoryOffsets(zip);
    const view = new DataView(zip.buffer);
    // The second entry's local header offset becomes the first's.
    view.setUint32(entries[1]! + 42, view.getUint32(entries[0]! + 42, true), true);
    expect(reasonOf(() => unzipProject(zip))).toBe('overlapping-entries');
  });

  it('still refuses paths out of the folder and bytes that are not a zip', () => {
    expect(reasonOf(() => unzipProject(zipSync({ '../evil.jsonl': strToU8('{}') })))).toBe('unsafe-path');
    expect(reasonOf(() => unzipProject(strToU8('not a zip at all')))).toBe('not-a-zip');
    expect(strFromU8(strToU8('ok'))).toBe('ok');
  });
});
