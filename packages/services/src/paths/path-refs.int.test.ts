// Another path in the conversation: a message's refs make `read_path` available, the agent reads
// exactly the referenced step (the restore view), its reply cites it, text it copies keeps where it
// came from (change log, authorship, dataset, graph), and without refs nothing of another path
// reaches a model — checked over the whole request body a real provider class sends.
import { parse } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '@trellis/agent/testing';
import { testDatabaseUrl } from '@trellis/db/testing';
import { READ_PATH_MAX_BYTES, utf8Length, type ReadPathAnswer, type TurnEvent } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { expectCode } from '../testing/expect-code';
import { collect } from '../testing/test-harness';
import { createServiceDeps } from '../deps';
import { createBranch } from '../branching/create-branch';
import { deleteConversation } from '../conversations/delete-conversation';
import { getRestoreView } from '../branching/get-restore-view';
import { getAuthorship } from '../authorship/get-authorship';
import { exportDataset } from '../export/export-dataset';
import { getFamilyGraph } from '../graph/get-family-graph';
import { listMessages } from '../lineage/list-messages';
import { regenerateTurn } from '../siblings/regenerate-turn';
import { sendTurn } from '../turns/send-turn';
import { createShare } from '../shares/manage-shares';
import { getSharedView, listSharedMessages } from '../shares/read-shared';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

type Actor = { userId: string };
const MARKER = 'ZEBRA-7731';
const METHODS = `## Methods\n\n${MARKER}: we sampled forty sites by drone, twice a season.`;

/**
 * A root with two steps, and a sibling path from step 1 whose step 2 (so labelled "2.1": the root's
 * own step 2 came first) rewrote the document with a Methods section.
 */
async function family(actor: Actor) {
  const root = await h.newConversation(actor, 'Review');
  await h.turn(actor, root, 'doc: # Review\n\n## Intro\n\nBees dance.\nprefer: Plain words\ntodo: Outline');
  await h.turn(actor, root, 'append: The root goes on.');
  const sibling = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
  await h.turn(actor, sibling, `doc: # Review\n\n## Intro\n\nBees dance.\n\n${METHODS}\n\n## Notes\n\nLater.\ntodo: Check drones`);
  const graph = await getFamilyGraph(h.deps, actor, { threadId: root });
  const label = graph.nodes.find((n) => n.id === `${sibling}:2`)!.label;
  return { root, sibling, label };
}

async function send(actor: Actor, threadId: string, content: string, refs?: { thread_id: string; turn?: number }[]): Promise<TurnEvent[]> {
  const events = await collect(await sendTurn(h.deps, actor, { threadId, content, refs }));
  await h.deps.gate.followUpsOf([threadId]);
  return events;
}

describe('a message that references another path', () => {
  it('makes the offline agent read the step once (its restore view), cite it, and copy a section with its source recorded', async () => {
    const actor = await h.newUser();
    const { root, sibling, label } = await family(actor);
    expect(label).toBe('2.1');

    const events = await send(actor, root, `append from ${label}: Methods`, [{ thread_id: sibling }]);
    const tools = events.flatMap((e) => (e.event === 'tool' ? [e.data] : []));
    const reads = tools.filter((t) => t.name === 'read_path');
    expect(reads).toHaveLength(1);
    expect(reads[0]!.args).toEqual({ thread_id: sibling, turn: 2 });
    expect(reads[0]!.is_error).toBe(false);

    // The result is the restore view of that step: its document and items.
    const answer = JSON.parse(reads[0]!.result) as ReadPathAnswer;
    const view = await getRestoreView(h.deps, actor, { threadId: sibling, turn: 2 });
    expect(answer.path).toBe(label);
    expect(answer.document).toEqual({ title: view.workspace.document.title, content: view.workspace.document.content });
    expect(answer.objective).toBe(view.workspace.objective);
    expect(answer.preferences).toEqual(view.workspace.preferences.map(({ text, locked }) => ({ text, locked })));
    expect(answer.todos).toEqual(view.workspace.todos.map(({ text, done, depth }) => ({ text, done, depth })));
    expect(answer.messages!.map((m) => m.turn)).toEqual(view.messages.map((m) => m.turn_index));

    // The section was appended, and the reply names the label.
    const writes = tools.filter((t) => t.name === 'write_document');
    expect(writes).toHaveLength(1);
    expect(writes[0]!.args).toEqual({ mode: 'append', content: METHODS });
    const { messages } = await listMessages(h.deps, actor, { threadId: root, limit_turns: 10 });
    const question = messages.find((m) => m.turn_index === 3 && m.role === 'user')!;
    const reply = messages.find((m) => m.turn_index === 3 && m.role === 'assistant')!;
    expect(question.refs).toEqual([{ thread_id: sibling, turn: 2, label }]);
    expect(reply.citations).toEqual([{ thread_id: sibling, turn: 2, label }]);
    expect(reply.content).toContain(`I read ${label}`);
    expect(reply.tool_calls.map((c) => c.name)).toEqual(['read_path', 'write_document']);

    // Provenance: the change row names the cited step; authorship says "agent, from <label>".
    const [change] = await h.deps.db.execute<{ actor: string; via: string; via_source: string | null }>(sql`
      select actor, via, via_source from workspace_changes where thread_id = ${root} and kind = 'document' and turn = 3 order by seq desc limit 1`);
    expect(change).toEqual({ actor: 'agent', via: 'agent_tool', via_source: `${sibling}:2` });
    const authorship = await getAuthorship(h.deps, actor, { threadId: root });
    const live = view.workspace.document.content; // the sibling's text holds the copied section verbatim
    expect(live).toContain(METHODS);
    const body = (await getRestoreView(h.deps, actor, { threadId: root, turn: 3 })).workspace.document.content;
    const at = body.indexOf(METHODS);
    const cited = authorship.spans.filter((s) => s.via === 'cite');
    expect(cited).toEqual([expect.objectContaining({ author: 'agent', source: `${sibling}:2`, turn: 3 })]);
    expect(body.slice(cited[0]!.start, cited[0]!.end).trim()).toBe(METHODS);
    expect(cited[0]!.start).toBeLessThanOrEqual(at);
    // Named like applied text's source: by label and the path's title, never by its id.
    const [path] = await h.deps.db.execute<{ title: string }>(sql`select title from conversations where thread_id = ${sibling}`);
    expect(authorship.sources).toEqual([{ node_id: `${sibling}:2`, label, path_title: path!.title }]);

    // The dataset's changes name the source; its edges hold the citation.
    const files = unzipSync(new Uint8Array(await new Response((await exportDataset(h.deps, actor, { threadId: root })).stream).arrayBuffer()));
    const table = (name: string) => parse<Record<string, string>>(strFromU8(files[`${name}.csv`]!), { columns: true, skip_empty_lines: true });
    expect(table('changes').filter((c) => c.via_source === `${sibling}:2`)).toEqual([
      expect.objectContaining({ path_id: root, actor: 'agent', via: 'agent_tool', kind: 'document', step_id: `${root}:3` }),
    ]);
    expect(table('edges')).toContainEqual({ source_step_id: `${sibling}:2`, target_step_id: `${root}:3`, kind: 'cite' });

    // The map draws the citation edge.
    const graph = await getFamilyGraph(h.deps, actor, { threadId: root });
    expect(graph.edges).toContainEqual({ id: `cite:${sibling}:2->${root}:3`, source: `${sibling}:2`, target: `${root}:3`, kind: 'cite', reason: `cited ${label}` });

    // Regenerating the step keeps its refs: the new answer reads the path again.
    const regenerated = await regenerateTurn(h.deps, actor, { threadId: root, turn: 3 });
    const again: TurnEvent[] = [];
    for await (const event of regenerated) again.push(event);
    await h.deps.gate.followUpsOf([regenerated.threadId]);
    expect(again.filter((e) => e.event === 'tool' && e.data.name === 'read_path')).toHaveLength(1);
    const sibling2 = await listMessages(h.deps, actor, { threadId: regenerated.threadId, limit_turns: 10 });
    expect(sibling2.messages.find((m) => m.turn_index === 3 && m.role === 'user')!.refs).toEqual([{ thread_id: sibling, turn: 2, label }]);
  });

  it('a path link of the citing path keeps the copied text as cited, without the path it read or what it found there', async () => {
    const actor = await h.newUser();
    const { root, sibling, label } = await family(actor);
    await send(actor, root, `append from ${label}: Methods`, [{ thread_id: sibling }]);
    const share = await createShare(h.deps, actor, { threadId: root, scope: 'path', follows_latest: false });
    const token = share.url!.replace(/^\/s\//, '');
    const view = await getSharedView(h.deps, { token });
    expect(view.workspace.document.content).toContain(MARKER);
    const cited = view.authorship.spans.filter((s) => s.via === 'cite');
    expect(cited).toEqual([{ start: expect.any(Number), end: expect.any(Number), author: 'agent', turn: 3, seq: expect.any(Number), via: 'cite' }]);
    expect(view.authorship.sources).toEqual([]);
    const page = await listSharedMessages(h.deps, { token, limit_turns: 100 });
    const reply = page.messages.find((m) => m.turn_index === 3 && m.role === 'assistant')!;
    expect(reply.tool_calls.map((c) => c.name)).toEqual(['read_path', 'write_document']);
    expect(reply.tool_calls[0]!.args).toEqual({});
    // The sibling's id and its text that was not copied (its Notes, its todo) stay out of both answers.
    for (const body of [JSON.stringify(view), JSON.stringify(page)]) {
      expect(body).not.toContain(sibling);
      expect(body).not.toContain('Later.');
      expect(body).not.toContain('Check drones');
    }
  });

  it('refuses a ref to another family of the caller’s (422), a stranger’s path (like any access to it) and a step the path lacks (422)', async () => {
    const actor = await h.newUser();
    const { root, sibling } = await family(actor);
    const other = await h.newConversation(actor, 'Elsewhere');
    await h.turn(actor, other, 'doc: Another family.');
    const error = await expectCode(sendTurn(h.deps, actor, { threadId: root, content: 'hello', refs: [{ thread_id: other }] }), 'validation_failed');
    expect(error.details).toEqual({ issues: [{ path: 'refs.0.thread_id', message: 'is not a path of this conversation' }] });
    await expectCode(sendTurn(h.deps, actor, { threadId: root, content: 'hello', refs: [{ thread_id: sibling, turn: 9 }] }), 'validation_failed');

    const stranger = await h.newUser();
    const theirs = await h.newConversation(stranger, 'Theirs');
    const refused = await sendTurn(h.deps, actor, { threadId: root, content: 'hello', refs: [{ thread_id: theirs }] }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: expect.stringMatching(/^(forbidden|not_found)$/) });
    // Nothing was stored: the turn never opened.
    const { messages } = await listMessages(h.deps, actor, { threadId: root, limit_turns: 10 });
    expect(messages.filter((m) => m.role === 'user')).toHaveLength(2);
  });

  it('refuses to regenerate a step whose ref names a path deleted since, and leaves no branch behind', async () => {
    const actor = await h.newUser();
    const { root, sibling, label } = await family(actor);
    await send(actor, root, `append from ${label}: Methods`, [{ thread_id: sibling }]);
    await deleteConversation(h.deps, actor, { threadId: sibling });
    const paths = async () =>
      (await h.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from conversations where root_thread_id = ${root}`))[0]!.n;
    const before = await paths();
    const refused = await regenerateTurn(h.deps, actor, { threadId: root, turn: 3 }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: expect.stringMatching(/^(forbidden|not_found)$/) });
    expect(await paths()).toBe(before);
  });

  it('names a step a path inherited by the path that owns it, once however it is referenced', async () => {
    const actor = await h.newUser();
    const { root, sibling } = await family(actor);
    const graph = await getFamilyGraph(h.deps, actor, { threadId: root });
    const label = graph.nodes.find((n) => n.id === `${root}:1`)!.label;
    await send(actor, root, 'look at the first step', [{ thread_id: sibling, turn: 1 }, { thread_id: root, turn: 1 }]);
    const { messages } = await listMessages(h.deps, actor, { threadId: root, limit_turns: 10 });
    expect(messages.find((m) => m.turn_index === 3 && m.role === 'user')!.refs).toEqual([{ thread_id: root, turn: 1, label }]);
  });

  it('a step cites what its latest reply read: a superseded attempt’s citations are no edge of the dataset or the graph', async () => {
    const actor = await h.newUser();
    const { root, sibling, label } = await family(actor);
    await send(actor, root, `append from ${label}: Methods`, [{ thread_id: sibling }]);
    // A later attempt at the step that read nothing (as a retry in place stores it).
    await h.deps.db.execute(sql`insert into messages (thread_id, turn_index, role, content, attempt) values (${root}, 3, 'assistant', 'Again.', 2)`);
    const files = unzipSync(new Uint8Array(await new Response((await exportDataset(h.deps, actor, { threadId: root })).stream).arrayBuffer()));
    const edges = parse<Record<string, string>>(strFromU8(files['edges.csv']!), { columns: true, skip_empty_lines: true });
    expect(edges.filter((e) => e.kind === 'cite')).toEqual([]);
    const graph = await getFamilyGraph(h.deps, actor, { threadId: root });
    expect(graph.edges.filter((e) => e.kind === 'cite')).toEqual([]);
  });

  it('refuses read_path for a step the message did not reference', async () => {
    const actor = await h.newUser();
    const { root, sibling } = await family(actor);
    const { createPathReader } = await import('./path-reader');
    const { resolveRefs } = await import('./resolve-refs');
    const reader = createPathReader(h.deps, actor, await resolveRefs(h.deps.db, actor, root, [{ thread_id: sibling }]));
    await expect(reader.read({ thread_id: root, turn: 1 })).rejects.toMatchObject({ name: 'ToolRefusal' });
    expect(reader.citations()).toEqual([]);
    const answer = JSON.parse(await reader.read({ thread_id: sibling, turn: 2, part: 'items' })) as ReadPathAnswer;
    expect(answer.document).toBeUndefined();
    expect(answer.todos?.map((t) => t.text)).toEqual(['Outline', 'Check drones']);
  });

  it('bounds a long step to 24 KB and says what it cut', async () => {
    const actor = await h.newUser();
    const root = await h.newConversation(actor, 'Long');
    await h.turn(actor, root, `doc: # Long\n\n${'All work and no play. '.repeat(3000)}`);
    await h.turn(actor, root, 'append: More.');
    const sibling = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
    await h.turn(actor, sibling, 'append: The end.');
    const events = await send(actor, root, 'What does it say?', [{ thread_id: sibling }]);
    const read = events.flatMap((e) => (e.event === 'tool' && e.data.name === 'read_path' ? [e.data] : []))[0]!;
    expect(utf8Length(read.result)).toBeLessThanOrEqual(READ_PATH_MAX_BYTES);
    const answer = JSON.parse(read.result) as ReadPathAnswer;
    expect(answer.truncated).toMatch(/the document is cut after \d+ of \d+ characters/);
  });
});

describe('real providers', () => {
  it('without refs, no request body holds anything of another path; with refs, read_path is a normal tool', async () => {
    const actor = await h.newUser();
    for (const protocol of ['openai', 'anthropic'] as const) {
      // A family per protocol: the first one's referencing turn is in its root's context from then on.
      const { root, sibling, label } = await family(actor);
      await h.turn(actor, sibling, `append: ${MARKER} in the sibling's later step.`);
      const server = await startFakeProvider(protocol, [
        { text: 'Plain answer.' },
        { toolCalls: [{ id: 'call_r1', name: 'read_path', args: { thread_id: sibling, turn: 2 } }] },
        { text: `From ${label}: drones.` },
      ]);
      const model =
        protocol === 'openai'
          ? ({ provider: 'openai', baseUrl: server.url, apiKey: 'sk-test', model: 'gpt-test' } as const)
          : ({ provider: 'anthropic', baseUrl: server.url, apiKey: 'sk-test', model: 'claude-test' } as const);
      const deps = createServiceDeps({ databaseUrl: testDatabaseUrl(), model, poolSize: 2 });
      try {
        await collect(await sendTurn(deps, actor, { threadId: root, content: 'Summarise the document.' }));
        const [plain] = server.requests;
        const whole = JSON.stringify(plain!.body);
        expect(whole).toContain('Summarise the document.');
        for (const foreign of [sibling, MARKER, 'read_path', 'Check drones']) expect(whole).not.toContain(foreign);

        const events = await collect(await sendTurn(deps, actor, { threadId: root, content: 'Compare with the sibling.', refs: [{ thread_id: sibling, turn: 2 }] }));
        const asked = JSON.stringify(server.requests[1]!.body);
        expect(asked).toContain('read_path');
        expect(asked).toContain(`- ${label}: thread_id ${sibling}, turn 2`);
        expect(asked).not.toContain(MARKER); // named, not read, until the tool call
        const read = events.find((e) => e.event === 'tool')!;
        expect(read).toMatchObject({ data: { name: 'read_path', is_error: false } });
        expect(JSON.stringify(server.requests[2]!.body)).toContain(MARKER);
      } finally {
        await deps.close();
        await server.close();
      }
    }
  });
});
