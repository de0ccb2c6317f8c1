// Who wrote each word is one truth: the overlay's spans (`GET …/authorship`), the authorship report
// and the dataset's step word counts agree with a reference attribution kept independently of the
// change log — each section is written whole by one side and travels whole by branch and apply — over
// random families of person sections, agent appends, edits, branches and applies.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeIdParamSchema, documentSections, wordStarts } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { applyItems } from '../apply/apply-items';
import { createBranch } from '../branching/create-branch';
import { exportDataset } from '../export/export-dataset';
import { getWorkspace } from '../workspace/get-workspace';
import { patchWorkspace } from '../workspace/patch-workspace';
import { exportAuthorshipReport } from './export-authorship-report';
import { getAuthorship } from './get-authorship';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

type Side = 'person' | 'agent';

/** The reference: a path's sections by heading, each wholly one side's; its turn and branch point. */
interface PathModel {
  threadId: string;
  turn: number;
  branchPoint: number;
  sections: Map<string, Side>;
}

type Op =
  | { kind: 'person' | 'agent' | 'edit' | 'branch'; path: number }
  | { kind: 'apply'; path: number; from: number; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('person' as const, 'agent' as const, 'edit' as const, 'branch' as const), path: fc.nat({ max: 5 }) }),
  fc.record({ kind: fc.constant('apply' as const), path: fc.nat({ max: 5 }), from: fc.nat({ max: 5 }), pick: fc.nat({ max: 9 }) }),
);

const words = (text: string) => wordStarts(text).length;

async function runFamily(ops: readonly Op[]) {
  const actor = await h.newUser();
  const root = await h.newConversation(actor, 'One truth');
  const paths: PathModel[] = [{ threadId: root, turn: 0, branchPoint: 0, sections: new Map() }];
  // Words each step wrote that are in the document after it, by side (the dataset's `steps` counts).
  const stepWords = new Map<string, { person: number; agent: number }>();
  const credit = (path: PathModel, side: Side, n: number) => {
    if (path.turn < 1 || path.turn <= path.branchPoint) return; // step 0, or a step the path inherits
    const id = `${path.threadId}:${path.turn}`;
    const counts = stepWords.get(id) ?? { person: 0, agent: 0 };
    counts[side] += n;
    stepWords.set(id, counts);
  };
  let n = 0;
  const live = async (path: PathModel) => (await getWorkspace(h.deps, actor, { threadId: path.threadId })).document.content;
  const joined = (text: string, section: string) => (text.replace(/\n+$/, '') === '' ? section : `${text.replace(/\n+$/, '')}\n\n${section}`);

  for (const op of ops) {
    const path = paths[op.path % paths.length]!;
    if (op.kind === 'person') {
      n++;
      const section = `## P${n}\nThe person wrote part ${n} here.`;
      await patchWorkspace(h.deps, actor, { threadId: path.threadId, patch: { document: { content: joined(await live(path), section) } } });
      path.sections.set(`P${n}`, 'person');
      credit(path, 'person', words(section));
    } else if (op.kind === 'agent') {
      n++;
      const section = `## A${n}\nThe agent drafted claim ${n} with evidence.`;
      await h.turn(actor, path.threadId, `append: ${section}`);
      path.turn++;
      path.sections.set(`A${n}`, 'agent');
      credit(path, 'agent', words(section));
    } else if (op.kind === 'edit') {
      const own = [...path.sections].find(([, side]) => side === 'person')?.[0];
      if (own === undefined) continue;
      const text = await live(path);
      const range = documentSections(text).find((s) => s.title === own)!;
      const body = text.slice(range.start, range.end).replace(/\s+$/, '');
      const at = range.start + body.length;
      await patchWorkspace(h.deps, actor, { threadId: path.threadId, patch: { document: { content: `${text.slice(0, at)} More${text.slice(at)}` } } });
      credit(path, 'person', 1);
    } else if (op.kind === 'branch') {
      // A branch's steps up to its branch point are its parent's to branch from.
      if (path.threadId !== root && path.turn <= path.branchPoint) continue;
      const { thread_id } = await createBranch(h.deps, actor, { threadId: path.threadId, from_turn: path.turn });
      paths.push({ threadId: thread_id, turn: path.turn, branchPoint: path.turn, sections: new Map(path.sections) });
    } else if (op.kind === 'apply') {
      const source = paths[op.from % paths.length]!;
      const headings = [...source.sections.keys()];
      if (source === path || source.turn < 1 || headings.length === 0) continue;
      const heading = headings[op.pick < 0 ? headings.length - 1 : op.pick % headings.length]!;
      await applyItems(h.deps, actor, {
        threadId: path.threadId,
        source: NodeIdParamSchema.parse(`${source.threadId}:${source.turn}`),
        items: [{ kind: 'section', heading }],
      });
      path.turn++;
      path.sections.set(heading, source.sections.get(heading)!);
    }
  }
  return { actor, root, paths, stepWords };
}

/** The report's "By section" rows: title → [person, agent, agent edited, unknown, total]. */
function reportSections(report: string): Map<string, number[]> {
  const part = report.slice(report.indexOf('## By section'), report.indexOf('## Steps where'));
  const rows = new Map<string, number[]>();
  for (const line of part.split('\n').slice(4)) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length === 6) rows.set(cells[0]!, cells.slice(1).map((c) => Number.parseInt(c, 10)));
  }
  return rows;
}

describe('authorship is one truth across the overlay, the report and the dataset', () => {
  it('every word of every path is its section’s author in each; an applied agent section stays the agent’s', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 2, maxLength: 7 }), async (middle) => {
        // Every family holds at least one agent section applied onto another path (`pick: -1`: the
        // source's newest section, the agent's just above).
        const ops: Op[] = [
          { kind: 'person', path: 0 },
          { kind: 'agent', path: 0 },
          { kind: 'branch', path: 0 },
          ...middle,
          { kind: 'agent', path: 1 },
          { kind: 'apply', path: 0, from: 1, pick: -1 },
        ];
        const { actor, root, paths, stepWords } = await runFamily(ops);

        for (const path of paths) {
          const text = (await getWorkspace(h.deps, actor, { threadId: path.threadId })).document.content;
          const authorship = await getAuthorship(h.deps, actor, { threadId: path.threadId });
          const report = reportSections(String((await exportAuthorshipReport(h.deps, actor, { threadId: path.threadId })).body));
          const expected = { person: 0, agent: 0 };
          for (const section of documentSections(text)) {
            const side = path.sections.get(section.title);
            expect(side, `section ${section.title} of ${path.threadId}`).toBeDefined();
            const starts = wordStarts(text).filter((w) => w >= section.start && w < section.end);
            expected[side!] += starts.length;
            // The overlay and the endpoint: the span holding each word's first character.
            for (const w of starts) {
              const span = authorship.spans.find((s) => s.start <= w && w < s.end)!;
              expect(`${section.title}:${span.author}`).toBe(`${section.title}:${side}`);
            }
            // The report's row: every word of the section under its author.
            const row = report.get(section.title)!;
            expect(row[4]).toBe(starts.length);
            expect(side === 'person' ? row[0] : row[1]).toBe(starts.length);
          }
          expect(authorship.summary).toEqual({ person_words: expected.person, agent_words: expected.agent, agent_edited_words: 0, unknown_words: 0 });
          // Hover text names applied steps by label and path title.
          for (const span of authorship.spans.filter((s) => s.via === 'apply' && s.author === 'agent')) {
            expect(authorship.sources.map((s) => s.node_id)).toContain(span.source);
            expect(authorship.sources.map((s) => s.node_id)).toContain(`${span.thread_id}:${span.turn}`);
          }
        }

        // The dataset: each step's words by author are what the reference says that step wrote.
        const bytes = new Uint8Array(await new Response((await exportDataset(h.deps, actor, { threadId: root })).stream).arrayBuffer());
        const steps = parse<Record<string, string>>(strFromU8(unzipSync(bytes)['steps.csv']!), { columns: true, skip_empty_lines: true });
        expect(steps.length).toBeGreaterThan(0);
        for (const step of steps) {
          const want = stepWords.get(step.step_id!) ?? { person: 0, agent: 0 };
          expect(`${step.step_id} ${step.person_words}/${step.agent_words}`).toBe(`${step.step_id} ${want.person}/${want.agent}`);
        }
      }),
      { numRuns: 6 },
    );
  }, 600_000);
});
