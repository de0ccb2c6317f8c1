// The import on every file of the transcripts package's corpus (one per pattern met in real Claude
// Code sessions): the inspection reports the expected leaves and diagnostics, and what is stored
// never shows a raw command wrapper, nor command output as a prompt.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFileUrl, TRANSCRIPT_CORPUS } from '@trellis/transcripts/testing/corpus';
import { expectCode } from '../testing/expect-code';
import { createHarness, type Harness } from '../testing/harness';
import { listMessages } from '../lineage/list-messages';
import { importTranscript } from './import-transcript';
import { inspectTranscript } from './inspect-transcript';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.deps.close());

const RAW_WRAPPER = /<\/?(command-name|command-message|command-args|local-command-stdout|local-command-stderr|bash-input|bash-stdout|bash-stderr)>/;

describe('importing the transcript corpus', () => {
  it.each(TRANSCRIPT_CORPUS.map((entry) => [entry.file, entry] as const))('%s', async (file, entry) => {
    const actor = await h.newUser();
    const content = await readFile(corpusFileUrl(file), 'utf8');
    if (entry.leafUuids.length === 0) {
      // A file holding no conversation (a local command on its own) is refused, never imported empty.
      const refused = await expectCode(importTranscript(h.deps, actor, { content, filename: file }), 'validation_failed');
      expect(refused.message).toContain('no conversation leaf');
      return;
    }

    const inspection = await inspectTranscript(h.deps, actor, { content, filename: file });
    expect(inspection.format).toBe(entry.format);
    expect(inspection.branches.map((b) => b.leafUuid)).toEqual(entry.leafUuids);
    // A handled compaction is not an unreadable line.
    expect(inspection.reader_diagnostic_count).toBe(entry.readerDiagnostics);
    for (const branch of inspection.branches) {
      for (const text of [branch.firstUserTextAfterBranchPoint, branch.lastUserText, branch.lastAssistantText]) {
        expect(text ?? '').not.toMatch(RAW_WRAPPER);
      }
    }
    for (const leaf of inspection.leaves) expect(leaf.title).not.toMatch(RAW_WRAPPER);

    const imported = await importTranscript(h.deps, actor, { content, filename: file });
    expect(imported.conversations.map((c) => c.leaf_uuid)).toEqual(entry.leafUuids);
    for (const { thread_id: threadId } of imported.conversations) {
      const { messages } = await listMessages(h.deps, actor, { threadId, limit_turns: 1000 });
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) expect(message.content).not.toMatch(RAW_WRAPPER);
      // Command output ("See ya!" after /exit) is never a prompt of its own.
      expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).not.toContain('See ya!');
    }
  });
});

describe('a compacted transcript', () => {
  it('marks the first prompt after each compaction, so the chat shows the divider where the history was compacted', async () => {
    const actor = await h.newUser();
    const content = await readFile(corpusFileUrl('compaction.jsonl'), 'utf8');
    const imported = await importTranscript(h.deps, actor, { content, filename: 'compaction.jsonl' });
    const { messages } = await listMessages(h.deps, actor, { threadId: imported.conversations[0]!.thread_id, limit_turns: 1000 });
    const prompts = messages.filter((m) => m.role === 'user');
    expect(prompts.map((m) => [m.content, m.compacted_before === true])).toEqual([
      ['Migrate every test to vitest', false],
      ['Keep going', false],
      ['Finish the last 40', true],
      ['/compact', false],
      ['Open a pull request', true],
    ]);
    // Only the marked prompts carry the flag; replies never do.
    expect(messages.filter((m) => m.compacted_before !== undefined)).toHaveLength(2);
  });
});

describe('a step that only ran a slash command', () => {
  it('has the command output as its reply, so it never reads "no reply yet"', async () => {
    const actor = await h.newUser();
    const content = await readFile(corpusFileUrl('exit-after-reply.jsonl'), 'utf8');
    const imported = await importTranscript(h.deps, actor, { content, filename: 'exit-after-reply.jsonl' });
    const { messages } = await listMessages(h.deps, actor, { threadId: imported.conversations[0]!.thread_id, limit_turns: 1000 });
    const exit = messages.filter((m) => m.turn_index === 2);
    expect(exit.map((m) => [m.role, m.content])).toEqual([
      ['user', '/exit'],
      ['assistant', 'See ya!'],
    ]);
  });
});
