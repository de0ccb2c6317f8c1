import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../cli/run';
import { inspectConversationBranches, inspectConversationBranchesWithinLimits } from '../inspect';
import { parseTranscriptJsonl, parseTranscriptJsonlWithinLimits } from '../readers/transcript';
import { TRANSCRIPT_CORPUS, corpusFileUrl } from './corpus';
import { danglingFanOutLeaves } from './fan-out-oracle';

const read = (file: string) => readFileSync(corpusFileUrl(file), 'utf8');
const RAW_WRAPPER = /<command-|<local-command|<bash-(input|stdout|stderr)>|Caveat: The messages below/;

function runOn(argv: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    fileSize: (file) => statSync(fileURLToPath(corpusFileUrl(file))).size,
    readFile: read,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  };
  return { code: runCli(argv, io), stdout, stderr };
}

describe.each(TRANSCRIPT_CORPUS)('corpus: $file', { timeout: 60_000 }, (entry) => {
  const text = read(entry.file);

  it(`reads as ${entry.leafUuids.length} leaf/leaves: ${entry.pattern}`, () => {
    const transcript = parseTranscriptJsonl(text);
    expect(transcript.format).toBe(entry.format);
    const { branches } = inspectConversationBranches(transcript.records);
    expect(branches.map((b) => b.leafUuid)).toEqual(entry.leafUuids);
    const side = inspectConversationBranches(transcript.sidechainRecords).branches;
    expect(side.map((b) => b.leafUuid)).toEqual(entry.sidechainLeafUuids);
    expect(transcript.compactions).toHaveLength(entry.compactions);
    expect(transcript.diagnosticCount).toBe(entry.readerDiagnostics);
  });

  it('reports the long-tail facts it expects', () => {
    const transcript = parseTranscriptJsonl(text);
    expect(inspectConversationBranches(transcript.records).diagnostics).toEqual(
      entry.inspectorDiagnostics ?? [],
    );
    expect(transcript.foldedDuplicates?.length ?? 0).toBe(entry.foldedDuplicates ?? 0);
    expect(transcript.alternativeReplies ?? []).toEqual(entry.alternativeReplies ?? []);
    expect(transcript.isSubagentFile ?? false).toBe(entry.isSubagentFile ?? false);
  });

  it('shows no raw command wrapper or caveat in any summary', () => {
    const transcript = parseTranscriptJsonl(text);
    const summaries = [
      ...inspectConversationBranches(transcript.records).branches,
      ...inspectConversationBranches(transcript.sidechainRecords).branches,
    ];
    expect(JSON.stringify(summaries)).not.toMatch(RAW_WRAPPER);
  });

  it('never reports the dangling half of a parallel call as a leaf', () => {
    const { records } = parseTranscriptJsonl(text);
    const leaves = inspectConversationBranches(records).branches.map((b) => b.leafUuid);
    expect(danglingFanOutLeaves(records, leaves)).toEqual([]);
  });

  it('reads the same within the upload limits', () => {
    const limited = parseTranscriptJsonlWithinLimits(text);
    if (!limited.ok) throw new Error(limited.error.message);
    const inspected = inspectConversationBranchesWithinLimits(limited.value.records);
    if (!inspected.ok) throw new Error(inspected.error.message);
    expect(inspected.value.branches).toEqual(
      inspectConversationBranches(parseTranscriptJsonl(text).records).branches,
    );
  });

  it('prints the same leaves from the CLI, as JSON and as a table', () => {
    const json = runOn(['inspect', entry.file, '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { branches: { leafUuid: string }[]; compactions: unknown[] };
    expect(report.branches.map((b) => b.leafUuid)).toEqual(entry.leafUuids);
    expect(report.compactions).toHaveLength(entry.compactions);

    const table = runOn(['inspect', entry.file]);
    expect(table.code).toBe(0);
    const count = entry.leafUuids.length;
    expect(table.stdout.split('\n')[0]).toContain(`${count} ${count === 1 ? 'leaf' : 'leaves'}`);
    expect(table.stdout).not.toMatch(RAW_WRAPPER);
  });
});

describe('the trellis-transcripts binary', () => {
  it('inspects a corpus file end to end and exits 0', () => {
    const bin = fileURLToPath(new URL('../../bin/trellis-transcripts.js', import.meta.url));
    const file = fileURLToPath(corpusFileUrl('parallel-fan-out.jsonl'));
    const run = spawnSync(process.execPath, [bin, 'inspect', file, '--json'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(
      (JSON.parse(run.stdout) as { branches: { leafUuid: string }[] }).branches.map((b) => b.leafUuid),
    ).toEqual(['t4a']);
  }, 60_000);

  it('exits 1 with a message for a file it cannot read', () => {
    const result = runOn(['inspect', 'missing.jsonl']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^trellis-transcripts: cannot read missing\.jsonl: /);
  });
});
