/**
 * No-stall benchmark: a production studio (next start, its own embedded PostgreSQL) runs what used
 * to stall every request — a stale save of a 1 MB document (the three-way merge), ten of them at
 * once, and a family zip of 60 paths × 1 MB — while another client polls `/api/health` back to
 * back. The health latencies are what those requests cost everyone else; the studio process's
 * peak RSS during the zip, over its settled RSS before, is what the zip holds in memory. A Word
 * export of a document at the size limit (written in a worker) is timed the same way.
 * Goals: `health.max_ms_during_stale_merge_1mb` ≤ 500, `export.family_zip_rss_mb_60_paths` ≤ 64 and
 * `docx.health_max_ms_during_docx_2m_chars` ≤ 500.
 *
 * Run from the repo root: node --import tsx apps/studio/bench/no-stall.ts — prints one JSON object.
 */
import { MAX_DOCUMENT_CHARS } from '@trellis/domain';
import { ensureBuild } from '../scripts/ensure-build';
import { ApiClient } from '../e2e/support/api-client';
import { startStudioServer } from '../e2e/support/studio-server';
import {
  conversationWithDocument,
  drain,
  editParagraph,
  healthDuring,
  longDocument,
  peakRssDuring,
  percentile,
  rssMb,
} from '../e2e/support/no-stall';

const MB = 1_000_000;
const PATHS = 60;

ensureBuild();
const server = await startStudioServer({ env: { TRELLIS_CHECK_RESPONSES: '0' } });
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

try {
  const client = new ApiClient(server.baseUrl);
  await client.signUp(`bench-no-stall-${Date.now()}@example.test`);
  for (let i = 0; i < 5; i++) await (await fetch(`${server.baseUrl}/api/health`)).text();

  // Stale saves: another tab saved paragraph 10 first; each stale save edits another paragraph.
  const base = longDocument(MB);
  const { id, version } = await conversationWithDocument(client, base);
  await client.json('PATCH', `/api/conversations/${id}/workspace`, { document: { content: editParagraph(base, 10, 'THEIRS'), base_version: version } });
  const save = async (p: number, mark: string) => {
    const started = performance.now();
    const { status } = await drain(
      await client.request('PATCH', `/api/conversations/${id}/workspace`, { document: { content: editParagraph(base, p, mark), base_version: version } }),
    );
    return { status, seconds: (performance.now() - started) / 1000 };
  };
  const single = await healthDuring(server.baseUrl, () => save(3000, 'MINE'));
  const ten = await healthDuring(server.baseUrl, () => Promise.all(Array.from({ length: 10 }, (_, i) => save(100 + i * 200, `TAB${i}`))));
  const mergeHealth = [...single.health.ms, ...ten.health.ms];
  const maxMerge = round(Math.max(single.health.max, ten.health.max));

  // The family zip: 60 paths, each with the 1 MB document.
  const family = await conversationWithDocument(client, longDocument(MB));
  for (let i = 1; i < PATHS; i++) await client.json('POST', `/api/conversations/${family.id}/branch`, { from_turn: 0, reason: `path ${i}` }, 201);
  const pid = server.child.pid!;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const before = rssMb(pid);
  const zip = await healthDuring(server.baseUrl, async () => {
    const started = performance.now();
    const peak = await peakRssDuring(pid, async () => drain(await client.request('GET', `/api/conversations/${family.id}/export?scope=family`)));
    return { ...peak, seconds: (performance.now() - started) / 1000 };
  });
  const rssGrowth = round(zip.result.peakMb - before);

  // A Word export of a document at the size limit (ASCII prose: characters are bytes).
  const long = await conversationWithDocument(client, longDocument(MAX_DOCUMENT_CHARS - 1_000));
  const docx = await healthDuring(server.baseUrl, async () => {
    const started = performance.now();
    const answer = await drain(await client.request('GET', `/api/conversations/${long.id}/export?format=docx&part=document`));
    return { ...answer, seconds: (performance.now() - started) / 1000 };
  });

  const healthMeets = maxMerge <= 500;
  const exportMeets = rssGrowth <= 64 && zip.health.p99 <= 200 && zip.result.result.status === 200;
  const docxMeets = docx.health.max <= 500 && docx.result.status === 200;
  console.log(
    JSON.stringify({
      name: 'no-stall',
      unit: 'ms / MB / s',
      measure: 'a production studio merges stale saves of a 1 MB document (one, then ten at once), streams a family zip of 60 paths × 1 MB and writes a Word file of a 2,000,000-character document while another client polls /api/health back to back',
      health: {
        max_ms_during_stale_merge_1mb: maxMerge,
        p99_ms_during_stale_merge_1mb: round(percentile(mergeHealth, 0.99)),
        p50_ms_during_stale_merge_1mb: round(percentile(mergeHealth, 0.5)),
        requests: mergeHealth.length,
        errors: single.health.errors + ten.health.errors,
        stale_save_seconds: round(single.result.seconds, 2),
        stale_save_status: single.result.status,
        ten_stale_saves_worst_seconds: round(Math.max(...ten.result.map((r) => r.seconds)), 2),
        ten_stale_saves_statuses: ten.result.map((r) => r.status),
        goal: 'max health latency during the stale merges <= 500 ms (p99 <= 200 ms); each save answered in < 10 s',
        meets_goal: healthMeets,
      },
      export: {
        family_zip_rss_mb_60_paths: rssGrowth,
        rss_mb_before: round(before),
        zip_bytes: zip.result.result.bytes,
        zip_seconds: round(zip.result.seconds, 2),
        health_p99_ms_during_family_zip: round(zip.health.p99),
        health_max_ms_during_family_zip: round(zip.health.max),
        goal: 'RSS growth of the studio process during the family zip <= 64 MB; health p99 <= 200 ms',
        meets_goal: exportMeets,
      },
      docx: {
        health_max_ms_during_docx_2m_chars: round(docx.health.max),
        health_p99_ms_during_docx_2m_chars: round(docx.health.p99),
        requests: docx.health.ms.length,
        errors: docx.health.errors,
        docx_seconds: round(docx.result.seconds, 2),
        docx_bytes: docx.result.bytes,
        docx_status: docx.result.status,
        goal: 'max health latency during a Word export of a 2,000,000-character document <= 500 ms',
        meets_goal: docxMeets,
      },
      goal: 'health.max_ms_during_stale_merge_1mb <= 500, export.family_zip_rss_mb_60_paths <= 64 and docx.health_max_ms_during_docx_2m_chars <= 500',
      meets_goal: healthMeets && exportMeets && docxMeets,
    }),
  );
} finally {
  await server.stop();
  await server.dispose();
}
