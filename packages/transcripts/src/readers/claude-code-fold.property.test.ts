// Folding re-appended chains (class 1) over generated files: a base conversation and
// copies of stretches of it written again under new uuids, some copies altered (another text or
// another timestamp) and some going on with new turns. The oracle: two records are one exactly
// when their whole paths from the root agree record by record on (role, timestamp, content).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildOrderedUuidChain } from '../chain';
import { inspectConversationBranches } from '../inspect';
import { parseClaudeCodeJsonl } from './claude-code';
import { ccAssistant, ccUser, jsonl, text } from './fixtures/claude-code-lines';

const RUNS = 1_000;
const TIMEOUT_MS = 120_000;

/** Few words and few timestamps, so that coincidences are frequent. */
const wordArbitrary = fc.constantFrom('alpha', 'beta', 'gamma');
const secondArbitrary = fc.integer({ min: 0, max: 2 });

const copyArbitrary = fc.record({
  source: fc.nat(),
  start: fc.nat(),
  length: fc.integer({ min: 1, max: 5 }),
  /** Per position: 0 as written, 1 another text, 2 another timestamp. */
  changes: fc.array(fc.constantFrom(0, 0, 0, 1, 2), { minLength: 5, maxLength: 5 }),
  words: fc.array(wordArbitrary, { minLength: 5, maxLength: 5 }),
  seconds: fc.array(secondArbitrary, { minLength: 5, maxLength: 5 }),
});

const fileArbitrary = fc.record({
  base: fc.array(fc.tuple(wordArbitrary, secondArbitrary), { minLength: 1, maxLength: 5 }),
  copies: fc.array(copyArbitrary, { maxLength: 4 }),
});

interface Written {
  uuid: string;
  parentUuid: string;
  path: string;
}

type GeneratedFile = typeof fileArbitrary extends fc.Arbitrary<infer T> ? T : never;

function build({ base, copies }: GeneratedFile) {
  const lines: Record<string, unknown>[] = [ccUser('r0', null, 'start', { timestamp: stamp(0) })];
  const written: Written[] = [];
  const pathOf = new Map<string, string>([['r0', 'r0']]);
  const chains: string[][] = [];
  const write = (uuid: string, parentUuid: string, depth: number, word: string, second: number) => {
    const isAssistant = depth % 2 === 0;
    const content = `${word} ${depth}`;
    const extra = { timestamp: stamp(second) };
    lines.push(
      isAssistant
        ? ccAssistant(uuid, parentUuid, `msg_${uuid}`, text(content), extra)
        : ccUser(uuid, parentUuid, content, extra),
    );
    const path = `${pathOf.get(parentUuid)!}|${JSON.stringify([isAssistant, second, content])}`;
    pathOf.set(uuid, path);
    written.push({ uuid, parentUuid, path });
  };

  chains.push(base.map((_, i) => `b${i}`));
  base.forEach(([word, second], i) => write(`b${i}`, i === 0 ? 'r0' : `b${i - 1}`, i, word, second));
  copies.forEach((copy, j) => {
    const source = chains[copy.source % chains.length]!;
    const start = copy.start % (source.length + 1);
    const chain: string[] = [];
    for (let k = 0; k < copy.length; k++) {
      const depth = start + k;
      const uuid = `c${j}_${k}`;
      const parent = k > 0 ? chain[k - 1]! : start === 0 ? 'r0' : source[start - 1]!;
      const original = base[depth];
      const change = original === undefined ? 1 : copy.changes[k]!;
      const word = change === 1 || original === undefined ? copy.words[k]! : original[0];
      const second = change === 2 || original === undefined ? copy.seconds[k]! : original[1];
      write(uuid, parent, depth, word, second);
      chain.push(uuid);
    }
    chains.push(chain);
  });
  return { text: jsonl(...lines), written, pathOf };
}

function stamp(second: number): string {
  return `2025-07-01T10:00:0${second}.000Z`;
}

describe('folding re-appended Claude Code chains', () => {
  it(
    'folds exactly the records whose paths agree, and leaves an antichain of one leaf per distinct path',
    () => {
      fc.assert(
        fc.property(fileArbitrary, (file) => {
          const { text: input, written, pathOf } = build(file);
          const result = parseClaudeCodeJsonl(input);

          // Never merges two records whose content (or timestamp, or any record above) differs.
          for (const { uuid, sameAs } of result.foldedDuplicates ?? [])
            expect(pathOf.get(uuid), `${uuid} folded into ${sameAs}`).toBe(pathOf.get(sameAs));
          // Every record repeating an earlier path is folded: one record per distinct path.
          const distinct = new Set(written.map((w) => w.path));
          expect(result.records.map((r) => r.uuid).filter((u) => u !== 'r0')).toHaveLength(distinct.size);

          // Expected leaves: of the paths no other path extends, those whose replies (the
          // assistant records on them, one per distinct path) no other such path carries on
          // beyond, or carries as well and was written later (docs/transcripts.md).
          const hasChild = new Set<string>();
          for (const { parentUuid } of written) hasChild.add(pathOf.get(parentUuid)!);
          const firstOfPath = new Map<string, string>();
          const writtenAt = new Map<string, number>();
          written.forEach(({ uuid, path }, at) => {
            if (firstOfPath.has(path)) return;
            firstOfPath.set(path, uuid);
            writtenAt.set(path, at);
          });
          const replies = (path: string) => {
            const segments = path.split('|');
            const keys: string[] = [];
            for (let end = 2; end <= segments.length; end++)
              if ((JSON.parse(segments[end - 1]!) as [boolean])[0])
                keys.push(segments.slice(0, end).join('|'));
            return keys.join('\u0002');
          };
          const terminals = [...firstOfPath.keys()].filter((path) => !hasChild.has(path));
          const anyReplied = terminals.some((path) => replies(path) !== '');
          const expected = terminals
            .filter((path) => {
              const mine = replies(path);
              if (mine === '') return !anyReplied;
              return terminals.every((other) => {
                const theirs = replies(other);
                if (other === path) return true;
                if (theirs === mine) return writtenAt.get(other)! < writtenAt.get(path)!;
                return !theirs.startsWith(`${mine}\u0002`);
              });
            })
            .map((path) => firstOfPath.get(path)!);

          const { branches } = inspectConversationBranches(result.records);
          const leaves = branches.map((b) => b.leafUuid);
          expect([...leaves].sort()).toEqual(expected.sort());

          // Still an antichain: no leaf lies on another leaf's chain.
          for (const leafUuid of leaves) {
            const chain = buildOrderedUuidChain(result.records, { leafUuid }).uuids;
            expect(chain.at(-1)).toBe(leafUuid);
            expect(chain[0]).toBe('r0');
            const onChain = new Set(chain);
            expect(leaves.filter((other) => other !== leafUuid && onChain.has(other))).toEqual([]);
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it('generates folds, altered copies that stay apart, and copies that go on', () => {
    const samples = fc.sample(fileArbitrary, { numRuns: 300, seed: 11 }).map((file) => {
      const { text: input, written } = build(file);
      const result = parseClaudeCodeJsonl(input);
      const leaves = inspectConversationBranches(result.records).branches.length;
      return { folded: result.foldedDuplicates?.length ?? 0, written: written.length, leaves };
    });
    expect(samples.filter((s) => s.folded > 0).length).toBeGreaterThan(50);
    expect(samples.filter((s) => s.folded > 0 && s.leaves > 1).length).toBeGreaterThan(20);
    expect(samples.filter((s) => s.folded === 0 && s.leaves > 1).length).toBeGreaterThan(10);
  });
});
