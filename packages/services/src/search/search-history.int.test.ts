import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchResultSchema, type SearchHit } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { createBranch } from '../branching/create-branch';
import { deleteConversation } from '../conversations/delete-conversation';
import { getFamilyGraph } from '../graph/get-family-graph';
import { createPreference } from '../workspace/create-preference';
import { createTodo } from '../workspace/create-todo';
import { regenerateTurn } from '../siblings/regenerate-turn';
import { patchWorkspace } from '../workspace/patch-workspace';
import { searchHistory } from './search-history';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

/** Words no other test writes, so each search sees only this file's rows. */
// A unique word whose stem is itself: the random letters sit in the middle and the fixed ending
// "ond" is no English suffix, so "<word>ing" stems to "<word>" whatever letters were drawn (a word
// ending in, say, "e" or a doubled consonant stemmed differently and failed one run in many).
const word = (stem: string) => `${stem}${Math.random().toString(36).slice(2, 8).replace(/\d/g, 'q')}ond`;

async function search(actor: { userId: string }, q: string, family?: string): Promise<SearchHit[]> {
  const result = await searchHistory(h.deps, actor, { q, page: 1, ...(family === undefined ? {} : { family }) });
  expect(SearchResultSchema.parse(result)).toEqual(result);
  return result.hits;
}

describe('search', () => {
  it('finds a word in a message, a reply, a document version, a preference and a todo, with the graph’s labels', async () => {
    const actor = await h.newUser();
    const [inMessage, inReply, inDocument, inTodo, inPreference] = ['quokka', 'zeppelin', 'marzipan', 'lantern', 'velvet'].map(word) as [
      string,
      string,
      string,
      string,
      string,
    ];
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'Start an essay');
    await h.turn(actor, root, 'Carry on');
    const branch = (await createBranch(h.deps, actor, { threadId: root, from_turn: 1 })).thread_id;
    await h.turn(actor, branch, `Tell me about the ${inMessage}`);
    await h.turn(actor, branch, `objective: write about ${inReply}`);
    // The offline model's reply counts what it did without quoting it: give the reply the word a model's reply would hold.
    await h.deps.db.execute(sql`update messages set content = content || ${` The essay is about ${inReply}.`}
      where thread_id = ${branch} and turn_index = 3 and role = 'assistant'`);
    await patchWorkspace(h.deps, actor, { threadId: branch, patch: { document: { content: `# Notes\n\nA ${inDocument} cake.` } } });
    await h.turn(actor, branch, 'Keep going');
    // the live document moves on: the matching body is only a version in the history now
    await patchWorkspace(h.deps, actor, { threadId: branch, patch: { document: { content: '# Notes\n\nSomething else.' } } });
    await h.turn(actor, branch, 'And again');
    await createTodo(h.deps, actor, { threadId: branch, todo: { text: `Buy a ${inTodo}` } });
    await createPreference(h.deps, actor, { threadId: branch, preference: { text: `Prefer ${inPreference} prose` } });

    const graph = await getFamilyGraph(h.deps, actor, { threadId: branch });
    const graphLabel = (hit: SearchHit) => graph.nodes.find((n) => n.thread_id === hit.thread_id && n.turn_index === hit.turn_index)?.label;

    const [message] = await search(actor, inMessage);
    expect(message).toMatchObject({ thread_id: branch, turn_index: 2, kind: 'message' });
    expect(message!.snippet).toContain(inMessage);
    expect(message!.label).toBe(graphLabel(message!));
    expect(message!.label).toBe('2.1');

    const reply = (await search(actor, inReply)).find((hit) => hit.kind === 'reply');
    expect(reply).toMatchObject({ thread_id: branch, turn_index: 3, label: '3.1' });
    expect(reply!.snippet).toContain(inReply);

    const documents = await search(actor, inDocument);
    // snapshot 4 holds the body typed after step 3, so the restore view of step 3 shows it; one hit for the one body
    expect(documents).toEqual([
      {
        thread_id: branch,
        path_title: `Tell me about the ${inMessage}`,
        turn_index: 3,
        label: '3.1',
        first_turn_index: 3,
        first_label: '3.1',
        is_latest_step: false,
        kind: 'document',
        snippet: `A ${inDocument} cake.`,
        highlights: [[2, 2 + inDocument.length]],
      },
    ]);
    expect(documents[0]!.label).toBe(graphLabel(documents[0]!));

    const [todo] = await search(actor, inTodo);
    expect(todo).toMatchObject({ thread_id: branch, turn_index: 5, kind: 'todo', label: '5.1', snippet: `Buy a ${inTodo}` });
    const [preference] = await search(actor, inPreference);
    expect(preference).toMatchObject({ thread_id: branch, kind: 'preference', label: '5.1' });
  });

  it('a sentence kept through seven document versions is one hit, naming its path and its steps', async () => {
    const actor = await h.newUser();
    const marker = word('heliotrope');
    const sentence = `The ${marker} results hold across every cohort.`;
    const root = await h.newConversation(actor);
    await h.turn(actor, root, '## 1. Introduction');
    await h.turn(actor, root, 'Go on');
    const path = (await createBranch(h.deps, actor, { threadId: root, from_turn: 2 })).thread_id;
    await h.turn(actor, path, 'append: ## 3. Findings of the **review**');
    // seven versions of the document hold the sentence, each with more text after it
    let document = `# Review\n\n${sentence}`;
    for (let version = 1; version <= 7; version++) {
      document += `\n\nParagraph ${version} of the findings.`;
      await patchWorkspace(h.deps, actor, { threadId: path, patch: { document: { content: document } } });
      if (version < 7) await h.turn(actor, path, `Step ${version}`);
    }
    const nodes = (await getFamilyGraph(h.deps, actor, { threadId: path })).nodes.filter((n) => n.thread_id === path);
    const latest = nodes.reduce((max, n) => Math.max(max, n.turn_index), 0);
    const labelAt = (turn: number) => nodes.find((n) => n.turn_index === turn)?.label;

    const hits = await search(actor, marker);
    expect(hits).toHaveLength(1);
    const [hit] = hits;
    expect(hit).toMatchObject({
      thread_id: path,
      path_title: '3. Findings of the review',
      kind: 'document',
      first_turn_index: 3,
      first_label: labelAt(3),
      turn_index: latest,
      label: labelAt(latest),
      // the newest version is the live document after the path's latest step: open the path live
      is_latest_step: true,
      snippet: sentence,
    });
    expect(latest).toBe(9);
    expect(hit!.highlights.map(([a, b]) => hit!.snippet.slice(a, b))).toEqual([marker]);

    // a reply regenerated at the path's step 5 inherits the document (one step of it): the hit stays
    // on the path that held the sentence through seven steps
    const regenerated = await regenerateTurn(h.deps, actor, { threadId: path, turn: 5 });
    for await (const _ of regenerated) void _;
    const [again] = await search(actor, marker);
    expect(again).toMatchObject({ thread_id: path, first_turn_index: 3, turn_index: latest });
    expect(await search(actor, marker)).toHaveLength(1);
  });

  it('a message sent again by regenerating its reply is one hit; a hit on a latest step says so', async () => {
    const actor = await h.newUser();
    const marker = word('saffron');
    const root = await h.newConversation(actor);
    await h.turn(actor, root, 'First');
    await h.turn(actor, root, `Write about ${marker}`);
    for (let i = 0; i < 3; i++) {
      const regenerated = await regenerateTurn(h.deps, actor, { threadId: root, turn: 2 });
      for await (const _ of regenerated) void _;
    }
    const messages = (await search(actor, marker)).filter((hit) => hit.kind === 'message');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ thread_id: root, turn_index: 2, is_latest_step: true, path_title: 'First' });
    await h.turn(actor, root, 'Later');
    const [later] = (await search(actor, marker)).filter((hit) => hit.kind === 'message');
    expect(later).toMatchObject({ turn_index: 2, is_latest_step: false });
  });

  it('never answers another user’s rows, nor a deleted thread’s', async () => {
    const actor = await h.newUser();
    const stranger = await h.newUser();
    const secret = word('albatross');
    const theirs = await h.newConversation(stranger);
    await h.turn(stranger, theirs, `My ${secret} diary`);
    await createTodo(h.deps, stranger, { threadId: theirs, todo: { text: `feed the ${secret}` } });
    expect(await search(actor, secret)).toEqual([]);
    expect((await search(stranger, secret)).map((hit) => hit.kind).sort()).toEqual(['message', 'todo']);
    await expect(searchHistory(h.deps, actor, { q: secret, page: 1, family: theirs })).rejects.toMatchObject({ code: 'forbidden' });

    await deleteConversation(h.deps, stranger, { threadId: theirs });
    expect(await search(stranger, secret)).toEqual([]);
  });

  it('stems words, narrows to a family, ranks and pages', async () => {
    const actor = await h.newUser();
    const stem = word('swarm');
    const one = await h.newConversation(actor);
    const two = await h.newConversation(actor);
    for (let i = 0; i < 21; i++) await h.turn(actor, one, `${stem} ${i}`);
    await h.turn(actor, two, `${stem}ing ${stem}ing ${stem}ing`);

    const all = await searchHistory(h.deps, actor, { q: stem, page: 1 });
    // the message that says it three times ranks first
    expect(all.hits[0]).toMatchObject({ thread_id: two, kind: 'message' });
    expect(all.hits).toHaveLength(20);
    expect(all.next_page).toBe(2);
    const second = await searchHistory(h.deps, actor, { q: stem, page: 2 });
    expect(second.next_page).toBeNull();
    const seen = [...all.hits, ...second.hits].map((hit) => `${hit.thread_id}:${hit.turn_index}:${hit.kind}`);
    expect(new Set(seen).size).toBe(seen.length);
    expect((await search(actor, stem, two)).every((hit) => hit.thread_id === two)).toBe(true);
    expect(await search(actor, `"${stem} 999"`)).toEqual([]);
  });
});
