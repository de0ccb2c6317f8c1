// `trellis-transcripts inspect <folder>`: every *.jsonl under a project folder, subagents included.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusFileUrl } from '../testing/corpus';
import { FIRST_SESSION, SUBAGENT_RUN, projectFolder } from '../testing/project-folder';
import { runCli, type CliIo } from './run';

const corpus = (file: string) => readFileSync(corpusFileUrl(file), 'utf8');

/** An in-memory file system: path → content; folders are the prefixes of the paths. */
function memoryIo(files: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    fileSize: (file) => {
      const text = files[file];
      if (text === undefined) throw new Error('no such file');
      return text.length;
    },
    readFile: (file) => {
      const text = files[file];
      if (text === undefined) throw new Error('no such file');
      return text;
    },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    isDirectory: (path) => Object.keys(files).some((file) => file.startsWith(`${path}/`)),
    listFiles: (folder) => Object.keys(files).filter((file) => file.startsWith(`${folder}/`)),
  };
  return { io, out: () => stdout, err: () => stderr };
}

interface FolderReport {
  folder: string;
  files: { file: string; branches: { leafUuid: string }[]; isSubagentFile?: boolean }[];
}

describe('inspect <folder>', () => {
  it('inspects every .jsonl under the folder in path order, subagent files as their one conversation', () => {
    const { io, out, err } = memoryIo({
      'project/b-session.jsonl': corpus('two-sessions.jsonl'),
      'project/a-session.jsonl': corpus('continued-session.jsonl'),
      'project/subagents/agent-1.jsonl': corpus('subagent-run.jsonl'),
      'project/notes.txt': 'not a transcript',
      'elsewhere/x.jsonl': corpus('compaction.jsonl'),
    });
    expect(runCli(['inspect', 'project', '--json'], io)).toBe(0);
    expect(err()).toBe('');
    const report = JSON.parse(out()) as FolderReport;
    expect(report.folder).toBe('project');
    expect(
      report.files.map((f) => [f.file, f.branches.map((b) => b.leafUuid), f.isSubagentFile ?? false]),
    ).toEqual([
      ['a-session.jsonl', ['a2'], false],
      ['b-session.jsonl', ['y4', 'x4'], false],
      ['subagents/agent-1.jsonl', ['s6'], true],
    ]);
  });

  it('prints one table per file', () => {
    const { io, out } = memoryIo({
      'project/a.jsonl': corpus('continued-session.jsonl'),
      'project/subagents/agent-1.jsonl': corpus('subagent-run.jsonl'),
    });
    expect(runCli(['inspect', 'project'], io)).toBe(0);
    const headers = out()
      .split('\n')
      .filter((line) => line.includes(' · claude-code · '));
    expect(headers).toHaveLength(2);
    expect(headers[0]).toMatch(/^a\.jsonl · .* · 1 leaf · 1 diagnostic$/);
    expect(headers[1]).toMatch(/^subagents\/agent-1\.jsonl · .* · 1 leaf · 0 diagnostics$/);
  });

  it('exits 1 for a folder without transcripts', () => {
    const { io, err } = memoryIo({ 'project/notes.txt': 'none' });
    expect(runCli(['inspect', 'project'], io)).toBe(1);
    expect(err()).toBe('trellis-transcripts: no .jsonl file under project\n');
  });

  it('reports a file it cannot read, inspects the others and exits 1', () => {
    const { io, out, err } = memoryIo({ 'project/a.jsonl': corpus('continued-session.jsonl') });
    io.listFiles = () => ['project/a.jsonl', 'project/gone.jsonl'];
    expect(runCli(['inspect', 'project', '--json'], io)).toBe(1);
    expect(err()).toMatch(/^trellis-transcripts: cannot read project\/gone\.jsonl: no such file/);
    expect((JSON.parse(out()) as FolderReport).files.map((f) => f.file)).toEqual(['a.jsonl']);
  });
});

describe('the trellis-transcripts binary on a folder', () => {
  const folder = mkdtempSync(join(tmpdir(), 'trellis-transcripts-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reads a project folder with its subagents from the disk', () => {
    mkdirSync(join(folder, 'subagents'));
    copyFileSync(corpusFileUrl('plan-mode-orphan.jsonl'), join(folder, 'session.jsonl'));
    copyFileSync(corpusFileUrl('subagent-run.jsonl'), join(folder, 'subagents', 'agent-1.jsonl'));
    writeFileSync(join(folder, 'history.txt'), 'ignored');
    const bin = fileURLToPath(new URL('../../bin/trellis-transcripts.js', import.meta.url));
    const run = spawnSync(process.execPath, [bin, 'inspect', folder, '--json'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as FolderReport;
    expect(report.files.map((f) => [f.file, f.branches.map((b) => b.leafUuid)])).toEqual([
      ['session.jsonl', ['a2']],
      [join('subagents', 'agent-1.jsonl'), ['s6']],
    ]);
  }, 60_000);
});

describe('inspect <folder> --project', () => {
  it('reads the folder as one family: the resumed session joined, the subagent run attached to its Task call', () => {
    const files = Object.fromEntries(projectFolder().map((f) => [f.path, f.text]));
    const { io, out, err } = memoryIo(files);
    expect(runCli(['inspect', 'project', '--project', '--json'], io)).toBe(0);
    expect(err()).toBe('');
    const report = JSON.parse(out()) as {
      project: {
        sessions: { path: string; continues: string | null }[];
        subagents: { toolUseId: string | null }[];
      };
      branches: { leafUuid: string }[];
      diagnostics: unknown[];
    };
    expect(report.project.sessions.map((s) => [s.path, s.continues])).toEqual([
      ['aaaa-first.jsonl', null],
      ['bbbb-resumed.jsonl', 'aaaa-first.jsonl'],
    ]);
    expect(report.project.subagents.map((r) => r.toolUseId)).toEqual(['toolu_task']);
    expect(report.branches.map((b) => b.leafUuid)).toEqual(['a3b', 'a4']);
    expect(report.diagnostics).toEqual([]);

    const table = memoryIo(files);
    expect(runCli(['inspect', 'project', '--project'], table.io)).toBe(0);
    expect(table.out()).toContain('bbbb-resumed.jsonl  2 records  continues aaaa-first.jsonl');
    expect(table.out()).toContain('started by toolu_task');
  });

  it('refuses --project on a file, and a folder without a session file', () => {
    const { io, err } = memoryIo({ 'p/x.jsonl': FIRST_SESSION, 'q/subagents/agent-1.jsonl': SUBAGENT_RUN });
    expect(runCli(['inspect', 'p/x.jsonl', '--project'], io)).toBe(2);
    expect(err()).toContain('--project takes a folder');
    expect(runCli(['inspect', 'q', '--project'], io)).toBe(1);
    expect(err()).toContain('no session file');
  });
});
