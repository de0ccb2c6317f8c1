// A study's dataset, read back as a researcher would: the participants ⋈ families ⋈ steps join is
// complete, the package validates against its declaration, it holds no email and no pid unless
// asked, and a withdrawn participant's rows are gone.
import { parse } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStudySchema, studyDatasetTables, validateDataset } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { expectCode } from '../testing/expect-code';
import { createStudy, updateStudy } from './manage-studies';
import { joinStudy } from './join-study';
import { withdrawParticipant } from './study-participants';
import { exportStudyDataset } from './export-study';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

type Tables = Record<string, Record<string, string>[]>;

async function readPackage(stream: ReadableStream<Uint8Array>, includePid: boolean): Promise<{ text: string; tables: Tables; descriptor: { resources: { name: string }[] } }> {
  const files = unzipSync(new Uint8Array(await new Response(stream).arrayBuffer()));
  const tables: Tables = {};
  for (const table of studyDatasetTables({ includePid })) {
    tables[table.name] = parse<Record<string, string>>(strFromU8(files[`${table.name}.csv`]!), { columns: true, skip_empty_lines: true });
  }
  const text = Object.values(files).map((bytes) => strFromU8(bytes)).join('\n');
  return { text, tables, descriptor: JSON.parse(strFromU8(files['datapackage.json']!)) as { resources: { name: string }[] } };
}

async function studyWithParticipants() {
  const owner = await h.newUser();
  const { study_id, join_url } = await createStudy(
    h.deps,
    owner,
    CreateStudySchema.parse({
      title: 'Dataset study',
      seed: { document: { title: 'Draft', content: 'A first line.' } },
      conditions: [
        { name: 'branching', model: 'offline', branching: true },
        { name: 'linear', model: 'offline', branching: false, tools: ['write_document'] },
      ],
    }),
  );
  await updateStudy(h.deps, owner, { studyId: study_id, patch: { status: 'open' } });
  const slug = join_url.replace('/join/s/', '');
  const joined = [];
  for (const pid of ['PID-ALPHA', 'PID-BRAVO', 'PID-CHARLIE']) {
    const j = await joinStudy(h.deps, { slug, join: { consent: true, pid, STUDY_ID: 'prolific-study', SESSION_ID: `session-${pid}` } });
    const [row] = await h.deps.db.execute<{ user_id: string }>(sql`select user_id from study_participants where participant_id = ${j.participantId}`);
    const actor = { kind: 'participant' as const, userId: row!.user_id };
    await h.turn(actor, j.thread_id, `append: Words of ${j.participantId}.`);
    await h.turn(actor, j.thread_id, 'append: A second step.');
    joined.push(j);
  }
  // Another family of the same researcher, outside the study: never in its dataset.
  const outside = await h.newConversation(owner, 'Not part of the study');
  await h.turn(owner, outside, 'append: OUTSIDE-WORDS');
  return { owner, studyId: study_id, joined, outside };
}

describe("a study's dataset", () => {
  it('joins participants ⋈ families ⋈ steps completely, validates, and holds no email and no pid', async () => {
    const { owner, studyId, joined, outside } = await studyWithParticipants();
    const { text, tables, descriptor } = await readPackage((await exportStudyDataset(h.deps, owner, { studyId, includePid: false })).stream, false);
    expect(validateDataset(tables, studyDatasetTables({ includePid: false }))).toEqual([]);
    expect(descriptor.resources.map((r) => r.name)).toEqual(expect.arrayContaining(['families', 'steps', 'participants', 'conditions']));
    expect(tables.conditions!.map((c) => [c.name, c.branching, c.tools])).toEqual([
      ['branching', 'true', ''],
      ['linear', 'false', 'write_document'],
    ]);
    expect(tables.participants!.map((p) => p.participant_id).sort()).toEqual(joined.map((j) => j.participantId).sort());
    expect(tables.families!.map((f) => f.family_id).sort()).toEqual(joined.map((j) => j.thread_id).sort());
    expect(tables.families!.map((f) => f.family_id)).not.toContain(outside);
    // The join: each participant's family, and each family's steps (two per participant).
    for (const p of tables.participants!) {
      const family = tables.families!.find((f) => f.participant_id === p.participant_id);
      expect(family?.family_id).toBe(p.family_id);
      const paths = tables.paths!.filter((path) => path.family_id === family!.family_id).map((path) => path.path_id);
      expect(tables.steps!.filter((s) => paths.includes(s.path_id))).toHaveLength(2);
    }
    expect(text).not.toMatch(/@/);
    expect(text).not.toContain('PID-ALPHA');
    expect(text).not.toContain('OUTSIDE-WORDS');
    expect(Object.keys(tables.participants![0]!)).not.toContain('pid');
  });

  it('adds the pid and the Prolific ids when asked', async () => {
    const { owner, studyId } = await studyWithParticipants();
    const { tables } = await readPackage((await exportStudyDataset(h.deps, owner, { studyId, includePid: true })).stream, true);
    expect(validateDataset(tables, studyDatasetTables({ includePid: true }))).toEqual([]);
    expect(tables.participants!.map((p) => [p.pid, p.prolific_study_id]).sort()).toEqual([
      ['PID-ALPHA', 'prolific-study'],
      ['PID-BRAVO', 'prolific-study'],
      ['PID-CHARLIE', 'prolific-study'],
    ]);
  });

  it("leaves a withdrawn participant's rows out, and answers another researcher 404", async () => {
    const { owner, studyId, joined } = await studyWithParticipants();
    const gone = joined[1]!;
    await withdrawParticipant(h.deps, owner, { studyId, participantId: gone.participantId });
    const { text, tables } = await readPackage((await exportStudyDataset(h.deps, owner, { studyId, includePid: false })).stream, false);
    expect(validateDataset(tables, studyDatasetTables({ includePid: false }))).toEqual([]);
    expect(tables.participants).toHaveLength(2);
    expect(text).not.toContain(gone.participantId);
    expect(text).not.toContain(gone.thread_id);
    const stranger = await h.newUser();
    await expectCode(exportStudyDataset(h.deps, stranger, { studyId, includePid: true }), 'not_found');
  });
});
