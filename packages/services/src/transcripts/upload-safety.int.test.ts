// Uploads cannot hurt anyone else: the shape limits, the worker's deadline, the per-user upload
// allowance, importing the same file twice, and text Postgres could not store.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { AppError, MAX_TRANSCRIPT_BYTES } from '@trellis/domain';
import { createHarness, type Harness } from '../testing/harness';
import { listMessages } from '../lineage/list-messages';
import { getConversation } from '../conversations/get-conversation';
import { importProject, importTranscript } from './import-transcript';
import { inspectTranscript } from './inspect-transcript';
import { inspectInWorker, parseJsonInWorker } from './run-transcript-job';
import { UPLOAD_RATE_LIMIT } from './upload-rate-limit';
import { MAX_NESTING_DEPTH as MAX_JSON_DEPTH, MAX_TRANSCRIPT_LEAVES as MAX_IMPORTED_LEAVES, MAX_TRANSCRIPT_RECORDS } from '@trellis/transcripts';
import { assistant, jsonl, threeLeafSession, user } from './fixtures/qwen-sessions';
import { expectCode } from '../testing/expect-code';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

/** Offsets of a zip's central directory entries. */
function centralEntries(zip: Uint8Array): number[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = zip.length - 22;
  while (view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  const entries: number[] = [];
  let at = view.getUint32(eocd + 16, true);
  for (let i = 0; i < view.getUint16(eocd + 10, true); i++) {
    entries.push(at);
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** `n` one-turn conversations, each its own root island: n leaves. */
function manyLeaves(n: number): string {
  return Array.from({ length: n }, (_, i) => JSON.stringify(user(`u${i}`, null, `prompt ${i}`))).join('\n');
}

describe('shape limits', () => {
  it(`refuses more than ${MAX_IMPORTED_LEAVES} leaves with a 422 that says how many there are`, async () => {
    const actor = await h.newUser();
    const content = manyLeaves(MAX_IMPORTED_LEAVES + 1);
    const error = await expectCode(importTranscript(h.deps, actor, { content }), 'validation_failed');
    expect(error.message).toContain('1,001 conversation leaves; at most 1,000 can be imported at once');
    expect(error.details).toMatchObject({ reason: 'too-many-leaves', max: 1_000 });
    await expectCode(inspectTranscript(h.deps, actor, { content }), 'validation_failed');
  });

  it(`refuses more than ${MAX_TRANSCRIPT_RECORDS.toLocaleString('en-US')} records with a 422`, async () => {
    const actor = await h.newUser();
    // One chain, so the record limit (not the leaf limit) is what refuses it.
    const lines = [JSON.stringify(user('0', null, 'start'))];
    for (let i = 1; i <= MAX_TRANSCRIPT_RECORDS; i++) lines.push(`{"uuid":"${i}","parentUuid":"${i - 1}","type":"system","timestamp":"t"}`);
    const error = await expectCode(inspectTranscript(h.deps, actor, { content: lines.join('\n') }), 'validation_failed');
    expect(error.message).toContain('more than 200,000 records');
    expect(error.details).toMatchObject({ reason: 'too-many-records', max: 200_000 });
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels with a 422 naming the line, not a 500`, async () => {
    const actor = await h.newUser();
    const deep = `${'['.repeat(4_100)}${']'.repeat(4_100)}`;
    const content = `${JSON.stringify(user('ok', null, 'fine'))}\n${deep}\n`;
    const error = await expectCode(importTranscript(h.deps, actor, { content }), 'validation_failed');
    expect(error.message).toMatch(/^Line 2 nests JSON deeper than 256 levels/);
    // Brackets inside strings are text, not nesting.
    const bracketsInText = jsonl(user('b', null, '['.repeat(5_000)), assistant('c', 'b', [{ text: '{'.repeat(5_000) }]));
    expect((await inspectTranscript(h.deps, actor, { content: bracketsInText })).leaves).toHaveLength(1);
  });

  it('stops a job past its deadline with a 503 that says so', async () => {
    const error = await expectCode(inspectInWorker({ kind: 'inspect', upload: { content: threeLeafSession() } }, { deadlineMs: 1 }), 'unavailable');
    expect(error.message).toMatch(/took longer than/);
  });

  it('two hostile zips at once leave a third person’s import to finish: each is refused from its directory, not run to the deadline', async ({ annotate }) => {
    // 2,000 entries that all point at one stream (the bomb's trick), and an entry of 4 MB of zeros
    // whose directory claims 1 KB. Inflated, the bomb ran to the job's deadline (an `unavailable`
    // after 30 s) and the liar for 14 s, holding both worker slots while the third import waited.
    const bomb = zipSync(Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`project/s${i}.jsonl`, strToU8(`{"n":${i}}\n`)])));
    const bombEntries = centralEntries(bomb);
    const bombView = new DataView(bomb.buffer);
    for (const at of bombEntries.slice(1)) bombView.setUint32(at + 42, bombView.getUint32(bombEntries[0]! + 42, true), true);
    const liar = zipSync({ 'project/huge.jsonl': new Uint8Array(4 * 1024 * 1024) }, { level: 1 });
    new DataView(liar.buffer).setUint32(centralEntries(liar)[0]! + 24, 1024, true);

    const [one, two, third] = [await h.newUser(), await h.newUser(), await h.newUser()];
    const started = performance.now();
    const timed = async <T,>(work: Promise<T>) => {
      try {
        return await work;
      } finally {
        // How long each took, for the record: a worker started from source on a loaded machine
        // takes seconds, so a time is the bench's to judge, not this test's.
        await annotate(`answered after ${Math.round(performance.now() - started)} ms`);
      }
    };
    const [bombed, lied, honest] = await Promise.allSettled([
      timed(importProject(h.deps, one, { zip: bomb, filename: 'bomb.zip' })),
      timed(importProject(h.deps, two, { zip: liar, filename: 'liar.zip' })),
      timed(importTranscript(h.deps, third, { content: threeLeafSession() })),
    ]);
    const reasonOf = (outcome: PromiseSettledResult<unknown>) =>
      outcome.status === 'rejected' && outcome.reason instanceof AppError ? [outcome.reason.code, (outcome.reason.details as { reason?: string }).reason] : outcome.status;
    expect(reasonOf(bombed)).toEqual(['validation_failed', 'overlapping-entries']);
    expect(reasonOf(lied)).toEqual(['validation_failed', 'size-mismatch']);
    expect(honest.status === 'fulfilled' ? honest.value.conversations : honest.reason).toHaveLength(3);
  });

  it('takes the deadline from the deps it is given, for inspect and import alike', async () => {
    const actor = await h.newUser();
    const hurried = { ...h.deps, transcriptJobs: { deadlineMs: 1 } };
    const inspected = await expectCode(inspectTranscript(hurried, actor, { content: threeLeafSession() }), 'unavailable');
    expect(inspected.details).toEqual({ deadline_ms: 1 });
    const imported = await expectCode(importTranscript(hurried, actor, { content: threeLeafSession() }), 'unavailable');
    expect(imported.details).toEqual({ deadline_ms: 1 });
  });
});

describe('the upload body, parsed off the request thread', () => {
  it('reads a JSON body in the worker, multi-byte text intact; malformed JSON is a 400 and an empty body an empty object', async () => {
    const body = { content: threeLeafSession(), filename: 'ünïcode ✓.jsonl', again: true };
    expect(await parseJsonInWorker(new TextEncoder().encode(JSON.stringify(body)))).toEqual(body);
    const error = await expectCode(parseJsonInWorker(new TextEncoder().encode('{"content": "unterminated')), 'bad_request');
    expect(error.message).toBe('The request body is not valid JSON');
    expect(await parseJsonInWorker(new Uint8Array(0))).toEqual({});
  });
});

describe('the upload allowance', () => {
  it(`answers 429 after ${UPLOAD_RATE_LIMIT.limit} uploads a minute, per user; another user is not affected`, async () => {
    const greedy = await h.newUser();
    const other = await h.newUser();
    // An oversized upload is refused but still counts: receiving it is part of what the allowance limits.
    const oversized = 'x'.repeat(MAX_TRANSCRIPT_BYTES + 1);
    for (let i = 0; i < UPLOAD_RATE_LIMIT.limit; i++) {
      await expectCode(inspectTranscript(h.deps, greedy, { content: oversized }), 'payload_too_large');
    }
    const limited = await expectCode(inspectTranscript(h.deps, greedy, { content: threeLeafSession() }), 'rate_limited');
    expect(limited.message).toMatch(/^Too many uploads/);
    expect((limited.details as { retry_after_seconds: number }).retry_after_seconds).toBeGreaterThan(0);
    expect((await inspectTranscript(h.deps, other, { content: threeLeafSession() })).leaves).toHaveLength(3);
  });
});

describe('importing the same file twice', () => {
  it('answers 409 already_imported naming the earlier import, imports again when asked, and again after the earlier copy is deleted', async () => {
    const actor = await h.newUser();
    const content = threeLeafSession();
    const first = await importTranscript(h.deps, actor, { content, filename: 'garden.jsonl' });

    const twice = await expectCode(importTranscript(h.deps, actor, { content, filename: 'garden.jsonl' }), 'conflict');
    expect(twice.message).toMatch(/^garden\.jsonl was already imported on \d{4}-\d{2}-\d{2} as “Garden plan”/);
    expect(twice.details).toMatchObject({ reason: 'already_imported', thread_id: first.root_thread_id });

    const again = await importTranscript(h.deps, actor, { content, again: true });
    expect(again.root_thread_id).not.toBe(first.root_thread_id);

    // Someone else importing the same file is not a repeat.
    const stranger = await h.newUser();
    expect((await importTranscript(h.deps, stranger, { content })).conversations).toHaveLength(3);

    // A deleted conversation no longer counts as an earlier import.
    await h.deps.db.execute(sql`update conversations set deleted_at = now() where user_id = ${actor.userId}`);
    expect((await importTranscript(h.deps, actor, { content })).conversations).toHaveLength(3);
  });
});

describe('text Postgres cannot store', () => {
  it('removes NUL characters and replaces lone surrogates before storing; titles, prompts, replies and tool calls', async () => {
    const actor = await h.newUser();
    const content = jsonl(
      user('u', null, 'nul\u0000here and a lone \ud800 surrogate'),
      assistant('a', 'u', [
        { text: 'reply\u0000 \udc00' },
        { functionCall: { id: 'c1', name: 'search\u0000', args: { 'q\u0000': 'x\ud83d' } } },
      ]),
    );
    const inspection = await inspectTranscript(h.deps, actor, { content });
    expect(inspection.leaves[0]!.title).toBe('nulhere and a lone \ufffd surrogate');

    const imported = await importTranscript(h.deps, actor, { content });
    const threadId = imported.root_thread_id!;
    const { messages } = await listMessages(h.deps, actor, { threadId, limit_turns: 10 });
    expect(messages.map((m) => m.content)).toEqual(['nulhere and a lone \ufffd surrogate', 'reply \ufffd']);
    expect(JSON.stringify(messages[1]!.tool_calls)).not.toMatch(/\\u0000|\\ud8|\\udc/);
    expect(messages[1]!.tool_calls[0]).toMatchObject({ name: 'search', args: { q: 'x\ufffd' } });
    expect((await getConversation(h.deps, actor, { threadId })).title).toBe('nulhere and a lone \ufffd surrogate');
  });
});
