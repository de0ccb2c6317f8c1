/**
 * The compare routes over HTTP, as a REST client sees them: `GET /api/conversations/{id}/compare`
 * (JSON, and `format=diff` as a plain-text unified diff), `GET …/turns/{k}/changes`, and their
 * answers to a malformed node id (422), a node outside the family (404) and someone else's family (403).
 */
import { test, expect } from './support/test';
import { CompareSchema, StepChangesSchema } from '@trellis/domain';
import { ApiClient } from './support/api-client';
import { uniqueEmail } from './support/browser';

/** This worker's studio (see support/test.ts). */
let baseUrl = '';
test.beforeAll(({ studio }) => {
  baseUrl = studio.baseUrl;
});

type ErrorBody = { error: { code: string; message: string } };

test.describe('the compare routes over HTTP', () => {
  let owner: ApiClient;
  let stranger: ApiClient;
  let root = '';
  let other = '';

  const send = async (threadId: string, content: string) => {
    const response = await owner.request('POST', `/api/conversations/${threadId}/messages`, { content });
    expect(response.status).toBeLessThan(300);
    // The event stream ends when the turn has answered.
    expect(await response.text()).toContain('event: done');
  };
  const compare = (client: ApiClient, query: string) =>
    client.request('GET', `/api/conversations/${root}/compare?${query}`);
  const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;

  test.beforeAll(async () => {
    owner = new ApiClient(baseUrl);
    stranger = new ApiClient(baseUrl);
    await owner.signUp(uniqueEmail('compare-api'));
    await stranger.signUp(uniqueEmail('compare-api-stranger'));
    root = (await owner.json<{ thread_id: string }>('POST', '/api/conversations', { title: 'Bees' }, 201))
      .thread_id;
    await send(root, 'doc: # Bees\n\nBees hum.\nprefer: Cite sources\ntodo: Outline');
    await send(root, 'append: Hives need shade.');
    const workspace = await owner.json<{ preferences: { id: string }[] }>(
      'GET',
      `/api/conversations/${root}/workspace`,
    );
    // Deleted by hand after step 2: the deletion belongs to step 2.
    expect(
      (
        await owner.request(
          'DELETE',
          `/api/conversations/${root}/preferences/${workspace.preferences[0]!.id}`,
        )
      ).status,
    ).toBe(204);
    await send(root, 'append: They dance.');
    other = (await owner.json<{ thread_id: string }>('POST', '/api/conversations', { title: 'Other' }, 201))
      .thread_id;
  });

  test('answers JSON by default, in the compare contract', async () => {
    const response = await compare(owner, `a=${root}:1&b=${root}:3`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const c = CompareSchema.parse(await response.json());
    expect([c.a.node_id, c.b.node_id, c.fork?.node_id]).toEqual([`${root}:1`, `${root}:3`, `${root}:1`]);
    expect(c.preferences).toMatchObject([
      { status: 'removed', a: { text: 'Cite sources' }, removed_at: { node_id: `${root}:2`, label: '2' } },
    ]);
  });

  test('answers format=diff with a plain-text unified diff: the document, then one line per changed item', async () => {
    const response = await compare(owner, `a=${root}:1&b=${root}:3&format=diff`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/x-diff; charset=utf-8');
    const lines = (await response.text()).split('\n');
    expect(lines).toContain(`--- a/1\t${root}:1`);
    expect(lines).toContain(`+++ b/3\t${root}:3`);
    expect(lines.some((line) => line.startsWith('@@ '))).toBe(true);
    expect(lines.filter((line) => line.startsWith('+') && !line.startsWith('+++')).join('\n')).toContain(
      'They dance.',
    );
    expect(lines).toContain('- preference "Cite sources" (removed at step 2 by hand)');
    // A step against itself: a diff with no hunk and no item line.
    const same = await (await compare(owner, `a=${root}:2&b=${root}:2&format=diff`)).text();
    expect(same).not.toMatch(/^@@ /m);
    expect(same).not.toMatch(/^[-+~] (preference|todo|artifact) /m);
  });

  test('answers 422 with a message for a malformed node id or format', async () => {
    for (const query of [
      `a=nope&b=${root}:1`,
      `a=${root}:1&b=${root}:-1`,
      `a=${root}:1`,
      `a=${root}:1&b=${root}:1&format=pdf`,
    ]) {
      const response = await compare(owner, query);
      expect(response.status, query).toBe(422);
      const error = await errorOf(response);
      expect(error.code, query).toBe('validation_failed');
      expect(error.message.length, query).toBeGreaterThan(0);
    }
    const bad = await errorOf(await compare(owner, `a=nope&b=${root}:1`));
    expect(JSON.stringify(bad)).toContain('must be a node id');
  });

  test('answers 404 for a node outside the family or past its thread, and 403 for someone else’s family', async () => {
    for (const query of [
      `a=${root}:1&b=${other}:0`,
      `a=${root}:1&b=${root}:9`,
      `a=th_${'f'.repeat(32)}:0&b=${root}:1`,
    ]) {
      const response = await compare(owner, query);
      expect(response.status, query).toBe(404);
      expect((await errorOf(response)).code, query).toBe('not_found');
    }
    const foreign = await compare(stranger, `a=${root}:1&b=${root}:2`);
    expect(foreign.status).toBe(403);
    expect((await errorOf(foreign)).code).toBe('forbidden');
  });

  test('answers what changed at step k with what was discarded there, and 404 / 422 / 403 like the compare', async () => {
    const response = await owner.request('GET', `/api/conversations/${root}/turns/2/changes`);
    expect(response.status).toBe(200);
    const changes = StepChangesSchema.parse(await response.json());
    expect([changes.a.node_id, changes.b.node_id]).toEqual([`${root}:1`, `${root}:2`]);
    expect(changes.discarded).toMatchObject([
      { kind: 'preference', text: 'Cite sources', locked: false, by: 'person' },
    ]);
    expect(changes.document.words_added).toBe(3);
    const quiet = StepChangesSchema.parse(
      await owner.json('GET', `/api/conversations/${root}/turns/3/changes`),
    );
    expect(quiet.discarded).toEqual([]);

    for (const k of ['0', '4']) {
      const missing = await owner.request('GET', `/api/conversations/${root}/turns/${k}/changes`);
      expect(missing.status, k).toBe(404);
    }
    const malformed = await owner.request('GET', `/api/conversations/${root}/turns/two/changes`);
    expect(malformed.status).toBe(422);
    expect((await errorOf(malformed)).message.length).toBeGreaterThan(0);
    const foreign = await stranger.request('GET', `/api/conversations/${root}/turns/2/changes`);
    expect(foreign.status).toBe(403);
  });
});
