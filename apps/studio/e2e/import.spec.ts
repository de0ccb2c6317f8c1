import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './support/test';
import type { Locator, Page } from '@playwright/test';
import {
  FamilyGraphSchema,
  MAX_TRANSCRIPT_BYTES,
  TranscriptInspectionSchema,
  type FamilyGraph,
} from '@trellis/domain';
import { uniqueEmail } from './support/browser';
import { ApiClient } from './support/api-client';
import { AuthPage } from './pages/auth-page';
import { worstCaseTranscript } from './support/worst-case-transcript';
import { corpusFileUrl } from '@trellis/transcripts/testing/corpus';

/** This worker's studio (see support/test.ts). */
let baseUrl = '';
test.beforeAll(({ studio }) => {
  baseUrl = studio.baseUrl;
});

const PASSWORD = 'correct horse battery';
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const THREE_LEAVES = path.join(FIXTURES, 'three-leaves.qwen.jsonl');
const NO_LEAVES = path.join(FIXTURES, 'no-leaves.jsonl');
const SCREENSHOTS = process.env.TRELLIS_SCREENSHOT_DIR;

/** The import page, addressed by data-testid only. */
class ImportPage {
  constructor(readonly page: Page) {}

  byTestId(id: string): Locator {
    return this.page.getByTestId(id);
  }
  get leafRows(): Locator {
    return this.byTestId('leaf-row');
  }

  async open(): Promise<void> {
    await this.page.goto('/import');
    await this.byTestId('import-page').waitFor();
  }

  async upload(file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    // A 20 MB buffer crosses to the browser in one piece: on a loaded machine that alone took over
    // the default 20 s.
    await this.byTestId('transcript-file-input').setInputFiles(file, { timeout: 60_000 });
  }

  async leafRow(leafUuid: string): Promise<Locator> {
    const row = this.page.locator(`[data-testid="leaf-row"][data-leaf-uuid="${leafUuid}"]`);
    await row.waitFor();
    return row;
  }

  /** Imports and waits for the studio to open the landing thread; returns its id. */
  async importAndLand(button: 'import-family' | 'import-selected' | 'import-again'): Promise<string> {
    await this.byTestId(button).click();
    await this.page.waitForURL(/\/c\/th_[0-9a-f]{32}$/, { timeout: 30_000 });
    await this.byTestId('studio').waitFor();
    return new URL(this.page.url()).pathname.split('/').at(-1)!;
  }

  async screenshot(name: string): Promise<void> {
    if (SCREENSHOTS)
      await this.page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }
}

async function graphOf(page: Page, threadId: string): Promise<FamilyGraph> {
  const response = await page.request.get(`/api/conversations/${threadId}/graph`);
  expect(response.status()).toBe(200);
  return FamilyGraphSchema.parse(await response.json());
}

test.describe('importing an agent transcript', () => {
  test('uploads a transcript with three leaves, imports all as one family, and lands in the studio on the newest leaf', async ({
    page,
  }) => {
    await new AuthPage(page).signUp(uniqueEmail('import'), PASSWORD);
    const importer = new ImportPage(page);
    await importer.open();
    await importer.screenshot('import-empty');

    await importer.upload(THREE_LEAVES);
    await importer.byTestId('inspection').waitFor();
    expect(await importer.leafRows.count()).toBe(3);
    expect(await importer.byTestId('leaf-count').textContent()).toBe('3 leaves');
    expect(
      await importer.leafRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-leaf-uuid'))),
    ).toEqual(['a3', 'a3b', 'a2e']);
    const rewound = await importer.leafRow('a2e');
    expect(await rewound.textContent()).toContain('Which herbs grow in shade?');
    expect(await rewound.textContent()).toContain('after a rewind');
    expect(await rewound.getByTestId('leaf-turns').textContent()).toBe('2');
    // the torn line is reported by its number, and the rest was read
    const diagnostics = importer.byTestId('diagnostic-item');
    expect(await diagnostics.count()).toBe(1);
    expect(await diagnostics.first().textContent()).toContain('line 5');
    await importer.screenshot('import-inspected');
    await page.setViewportSize({ width: 390, height: 844 });
    await importer.screenshot('import-inspected-narrow');
    await page.setViewportSize({ width: 1440, height: 900 });

    const landed = await importer.importAndLand('import-family');
    const graph = await graphOf(page, landed);
    // one thread per distinct path: the original, the regenerated answer, the rewind
    expect(graph.threads).toHaveLength(3);
    expect(graph.threads.filter((t) => !t.is_deleted)).toHaveLength(3);
    const root = graph.threads.find((t) => t.parent_thread_id === null)!;
    expect(graph.root_thread_id).toBe(root.thread_id);
    expect(graph.threads.map((t) => t.branch_point_turn).sort()).toEqual([1, 2, null]);
    expect(graph.nodes).toHaveLength(5);
    // the newest leaf is the rewind's path: it forks after turn 1
    expect(graph.threads.find((t) => t.thread_id === landed)?.branch_point_turn).toBe(1);
    expect(graph.nodes.filter((n) => n.is_on_active_path).map((n) => n.user_message)).toEqual([
      'Plan a small vegetable garden',
      'Which herbs grow in shade?',
    ]);

    await page.getByText('Mint and parsley.').first().waitFor();
    if ((await importer.byTestId('trajectory-panel').count()) > 0) {
      const panel = importer.byTestId('trajectory-panel');
      if ((await panel.getAttribute('data-collapsed')) === 'true')
        await importer.byTestId('trajectory-toggle').click();
      await expect
        .poll(() => panel.getByTestId('trajectory-node').count(), { timeout: 15_000 })
        .toBe(graph.nodes.length);
    }
    await importer.screenshot('import-landed');
  });

  test('shows "Conversation compacted here" in the imported chat where the transcript was compacted', async ({
    page,
  }) => {
    await new AuthPage(page).signUp(uniqueEmail('import-compaction'), PASSWORD);
    const importer = new ImportPage(page);
    await importer.open();
    await importer.upload(fileURLToPath(corpusFileUrl('compaction.jsonl')));
    await importer.byTestId('inspection').waitFor();
    await importer.importAndLand('import-family');

    await page.getByText('Open a pull request').first().waitFor();
    const dividers = importer.byTestId('compaction-divider');
    expect(await dividers.count()).toBe(2);
    expect(await dividers.first().textContent()).toContain('Conversation compacted here');
    // Each divider sits right above the first prompt after its compaction.
    const following = await dividers.evaluateAll((els) =>
      els.map((el) => el.nextElementSibling?.textContent ?? ''),
    );
    expect(following[0]).toContain('Finish the last 40');
    expect(following[1]).toContain('Open a pull request');
  });

  test('lists a record type it does not know as skipped, with its count, and reports no damage', async ({ page, axe }) => {
    await new AuthPage(page).signUp(uniqueEmail('import-skipped'), PASSWORD);
    const importer = new ImportPage(page);
    await importer.open();
    const lines = [
      { type: 'permission-mode', permissionMode: 'default', sessionId: 's' },
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2025-06-01T00:00:01Z', message: { role: 'user', content: 'Plan the garden' } },
      { type: 'agent-colour', colour: 'teal', sessionId: 's' },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', timestamp: '2025-06-01T00:00:02Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Planned.' }] } },
      { type: 'agent-colour', colour: 'red', sessionId: 's' },
    ];
    await importer.upload({ name: 'newer.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n')) });
    await importer.byTestId('inspection').waitFor();
    await expect(importer.byTestId('skipped-record-type')).toHaveText(['skipped: 2 records of type agent-colour']);
    await expect(importer.byTestId('diagnostics')).toHaveCount(0);
    await axe(page);
  });

  test('imports chosen leaves as separate conversations', async ({ page }) => {
    await new AuthPage(page).signUp(uniqueEmail('import-separate'), PASSWORD);
    const importer = new ImportPage(page);
    await importer.open();
    await importer.upload(THREE_LEAVES);
    await (await importer.leafRow('a3b')).getByTestId('leaf-checkbox').check();
    await (await importer.leafRow('a2e')).getByTestId('leaf-checkbox').check();
    expect(await importer.byTestId('import-selected').textContent()).toContain('(2)');

    const landed = await importer.importAndLand('import-selected');
    const graph = await graphOf(page, landed);
    expect(graph.threads).toHaveLength(1);
    expect(graph.nodes.map((n) => n.user_message)).toEqual([
      'Plan a small vegetable garden',
      'Which vegetables grow fastest?',
      'How often should I water them?',
    ]);
    const list = (await (await page.request.get('/api/conversations')).json()) as {
      conversations: { parent_thread_id: string | null }[];
    };
    expect(list.conversations).toHaveLength(2);
    expect(list.conversations.every((c) => c.parent_thread_id === null)).toBe(true);
  });

  test('importing the same file twice says so, opens the earlier copy on request, and imports again only when asked', async ({
    page,
  }) => {
    await new AuthPage(page).signUp(uniqueEmail('import-twice'), PASSWORD);
    const importer = new ImportPage(page);
    await importer.open();
    await importer.upload(THREE_LEAVES);
    const first = await importer.importAndLand('import-family');

    await importer.open();
    await importer.upload(THREE_LEAVES);
    await importer.byTestId('inspection').waitFor();
    await importer.byTestId('import-family').click();
    const notice = importer.byTestId('already-imported');
    await notice.waitFor();
    expect(await importer.byTestId('already-imported-message').textContent()).toMatch(
      /^three-leaves\.qwen\.jsonl was already imported on \d{4}-\d{2}-\d{2} as “Garden plan”/,
    );
    expect(await importer.byTestId('import-error').count()).toBe(0);
    expect(await importer.byTestId('open-earlier-import').getAttribute('href')).toBe(
      `/c/${(await graphOf(page, first)).root_thread_id}`,
    );
    await importer.screenshot('import-already-imported');

    const second = await importer.importAndLand('import-again');
    expect((await graphOf(page, second)).root_thread_id).not.toBe(
      (await graphOf(page, first)).root_thread_id,
    );
    const list = (await (await page.request.get('/api/conversations')).json()) as {
      conversations: unknown[];
    };
    expect(list.conversations.length).toBeGreaterThan(1);
  });

  test('explains a file with no conversation (listing its unreadable lines) and a file over the limit', async ({
    page,
  }) => {
    await new AuthPage(page).signUp(uniqueEmail('import-errors'), PASSWORD);
    const importer = new ImportPage(page);
    await importer.open();

    await importer.upload(NO_LEAVES);
    const error = importer.byTestId('import-error');
    await error.waitFor();
    expect(await error.getAttribute('data-status')).toBe('422');
    expect(await importer.byTestId('import-error-message').textContent()).toContain(
      'no-leaves.jsonl holds no transcript records',
    );
    const lines = await importer.byTestId('diagnostic-item').allTextContents();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('line 1');
    expect(lines[1]).toContain('line 2');
    await importer.screenshot('import-no-leaves');

    await importer.upload({
      name: 'huge.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.alloc(MAX_TRANSCRIPT_BYTES + 1, 0x20),
    });
    await expect.poll(() => error.getAttribute('data-status')).toBe('413');
    expect(await importer.byTestId('import-error-message').textContent()).toContain('at most 20 MB');
  });
});

test.describe('transcript API', () => {
  test('reads a 19.9 MB body whole (no route body limit cuts it) and answers 413 just over 20 MB', async () => {
    const client = new ApiClient(baseUrl);
    await client.signUp(uniqueEmail('import-api'));
    const filler = 'x'.repeat(100_000);
    const lines = [
      JSON.stringify({
        uuid: 'q',
        parentUuid: null,
        type: 'user',
        message: { role: 'user', parts: [{ text: 'big one' }] },
      }),
    ];
    let size = lines[0]!.length + 1;
    for (let i = 0; size < MAX_TRANSCRIPT_BYTES - 200_000; i++) {
      const line = JSON.stringify({
        uuid: `a${i}`,
        parentUuid: i === 0 ? 'q' : `a${i - 1}`,
        type: 'assistant',
        message: { role: 'model', parts: [{ text: filler }] },
      });
      lines.push(line);
      size += line.length + 1;
    }
    const content = lines.join('\n') + '\n';
    expect(content.length).toBeGreaterThan(MAX_TRANSCRIPT_BYTES - 300_000);
    expect(content.length).toBeLessThanOrEqual(MAX_TRANSCRIPT_BYTES);

    const inspected = await client.json('POST', '/api/transcripts/inspect', {
      content,
      filename: 'big.jsonl',
    });
    const inspection = TranscriptInspectionSchema.parse(inspected);
    expect(inspection.record_count).toBe(lines.length);
    expect(inspection.leaves).toEqual([
      { leaf_uuid: `a${lines.length - 2}`, turn_count: 1, title: 'big one' },
    ]);

    const over = await client.request('POST', '/api/transcripts/inspect', {
      content: `${content}${'y'.repeat(MAX_TRANSCRIPT_BYTES - content.length + 1)}`,
    });
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  test('a 20 MB worst-case import leaves the server answering others: every health poll meanwhile is answered, and the import completes', async () => {
    const importer = new ApiClient(baseUrl);
    await importer.signUp(uniqueEmail('import-worst'));
    const { content, leafCount } = worstCaseTranscript();
    expect(Buffer.byteLength(content, 'utf8')).toBeLessThanOrEqual(MAX_TRANSCRIPT_BYTES);

    let importDone = false;
    const health: { status: number; beforeImportAnswered: boolean }[] = [];
    const errors: unknown[] = [];
    const poller = (async () => {
      while (!importDone) {
        try {
          const response = await fetch(`${baseUrl}/api/health`);
          await response.text();
          health.push({ status: response.status, beforeImportAnswered: !importDone });
        } catch (error) {
          errors.push(error);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const imported = await importer.request('POST', '/api/transcripts/import', {
      content,
      filename: 'worst-case.jsonl',
    });
    importDone = true;
    await poller;

    expect(imported.status).toBe(201);
    expect(((await imported.json()) as { conversations: unknown[] }).conversations).toHaveLength(leafCount);
    expect(errors).toEqual([]);
    expect(health.every((h) => h.status === 200)).toBe(true);
    // the server answered health while the import was still running
    expect(health.filter((h) => h.beforeImportAnswered).length).toBeGreaterThan(0);
  });

  test('refuses more than 1,000 leaves and JSON nested 4,100 deep with 422 messages, never 500', async () => {
    const client = new ApiClient(baseUrl);
    await client.signUp(uniqueEmail('import-caps'));
    const leaves = Array.from({ length: 5_000 }, (_, i) =>
      JSON.stringify({
        uuid: `u${i}`,
        parentUuid: null,
        type: 'user',
        message: { role: 'user', parts: [{ text: `prompt ${i}` }] },
      }),
    ).join('\n');
    const many = await client.request('POST', '/api/transcripts/import', { content: leaves });
    expect(many.status).toBe(422);
    expect(((await many.json()) as { error: { message: string } }).error.message).toContain(
      '5,000 conversation leaves; at most 1,000 can be imported at once',
    );
    const deep = await client.request('POST', '/api/transcripts/inspect', {
      content: `${'['.repeat(4_100)}${']'.repeat(4_100)}\n`,
    });
    expect(deep.status).toBe(422);
    expect(((await deep.json()) as { error: { message: string } }).error.message).toContain(
      'deeper than 256 levels',
    );
    expect(
      (await client.json<{ conversations: unknown[] }>('GET', '/api/conversations')).conversations,
    ).toEqual([]);
  });

  test('answers 422 for a bad request and for a leaf that is not in the file', async () => {
    const client = new ApiClient(baseUrl);
    await client.signUp(uniqueEmail('import-422'));
    expect(
      (await client.request('POST', '/api/transcripts/import', { content: 'x', leaf_uuids: [] })).status,
    ).toBe(422);
    const { readFile } = await import('node:fs/promises');
    const content = await readFile(THREE_LEAVES, 'utf8');
    const unknown = await client.request('POST', '/api/transcripts/import', {
      content,
      leaf_uuids: ['nope'],
    });
    expect(unknown.status).toBe(422);
    expect(
      (await client.json<{ conversations: unknown[] }>('GET', '/api/conversations')).conversations,
    ).toEqual([]);
    const imported = await client.json<{ conversations: unknown[]; root_thread_id: string }>(
      'POST',
      '/api/transcripts/import',
      { content },
      201,
    );
    expect(imported.conversations).toHaveLength(3);
  });
});
