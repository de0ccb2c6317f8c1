// The CLI without its I/O: arguments in, text out, an exit code back. `cli.ts` binds it to the
// process and the file system; tests bind it to fixtures.
// Exit codes: 0 printed (diagnostics included), 1 the file could not be read, 2 usage error.
import { USAGE, parseCliArgs } from './args';
import { formatReportJson, formatReportTable } from './format-report';
import type { TranscriptFormat } from '../readers/types';
import { compareWithManifest, formatComparison, parseManifest } from './manifest';
import { assembleProject, type AssembledProject, type ProjectDiagnostic } from '../project/assemble-project';
import { buildInspectionReport, type InspectionReport } from './report';

export interface CliIo {
  /** Bytes of the file; throws when it cannot be read. */
  fileSize(file: string): number;
  /** The file as UTF-8 text; throws when it cannot be read. */
  readFile(file: string): string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when the path is a folder; absent, every path is a file. */
  isDirectory?(path: string): boolean;
  /** Every file under the folder, at any depth, as paths `readFile` accepts. */
  listFiles?(folder: string): string[];
}

/** Beyond this, a transcript is refused rather than read into one string. */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

export function runCli(argv: readonly string[], io: CliIo): number {
  const command = parseCliArgs(argv);
  if (command.kind === 'help') {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (command.kind === 'usage-error') {
    io.stderr(`trellis-transcripts: ${command.message}\n\n${USAGE}\n`);
    return 2;
  }

  if (command.kind === 'compare') return compareFolder(command.folder, command.manifest, command.json, io);

  const options = command.format === undefined ? {} : { format: command.format };
  const isFolder = io.isDirectory?.(command.file) === true;
  if (command.project === true) {
    if (!isFolder) {
      io.stderr(`trellis-transcripts: --project takes a folder; ${command.file} is not one\n\n${USAGE}\n`);
      return 2;
    }
    return inspectProject(command.file, command.json, options, io);
  }
  if (isFolder) return inspectFolder(command.file, command.json, options, io);

  const text = readTranscript(command.file, io);
  if (text === undefined) return 1;
  const report = buildInspectionReport(text, options);
  io.stdout(command.json ? formatReportJson(report) : formatReportTable(report, baseName(command.file)));
  return 0;
}

function readTranscript(file: string, io: CliIo): string | undefined {
  try {
    const size = io.fileSize(file);
    if (size > MAX_FILE_BYTES) {
      io.stderr(`trellis-transcripts: ${file} is ${size} bytes; the limit is ${MAX_FILE_BYTES}\n`);
      return undefined;
    }
    return io.readFile(file);
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message : String(error);
    io.stderr(`trellis-transcripts: cannot read ${file}: ${reason}\n`);
    return undefined;
  }
}

/** Every `*.jsonl` under the folder, in path order; undefined (reported) when it cannot be read. */
function listJsonl(folder: string, io: CliIo): string[] | undefined {
  try {
    return (io.listFiles?.(folder) ?? []).filter((file) => file.endsWith('.jsonl')).sort();
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message : String(error);
    io.stderr(`trellis-transcripts: cannot read ${folder}: ${reason}\n`);
    return undefined;
  }
}

/**
 * Every `*.jsonl` under the folder (a project folder with its `subagents/`), in path order. A
 * file that cannot be read is reported and the rest are still inspected; the exit code is then 1.
 */
function inspectFolder(
  folder: string,
  json: boolean,
  options: { format?: TranscriptFormat },
  io: CliIo,
): number {
  const files = listJsonl(folder, io);
  if (files === undefined) return 1;
  if (files.length === 0) {
    io.stderr(`trellis-transcripts: no .jsonl file under ${folder}\n`);
    return 1;
  }
  let code = 0;
  let printed = false;
  const reports: (InspectionReport & { file: string })[] = [];
  for (const file of files) {
    const text = readTranscript(file, io);
    if (text === undefined) {
      code = 1;
      continue;
    }
    const report = buildInspectionReport(text, options);
    const name = relativeTo(folder, file);
    if (json) reports.push({ file: name, ...report });
    else {
      io.stdout(`${printed ? '\n' : ''}${formatReportTable(report, name)}`);
      printed = true;
    }
  }
  if (json) io.stdout(`${JSON.stringify({ folder, files: reports }, null, 2)}\n`);
  return code;
}

/**
 * The folder as one project (assembleProject): its sessions as one family, one report, then the
 * sessions in continuation order, the subagent runs with the call that started each, and what
 * could not be joined. Exit 1 when a file cannot be read or no session file is found.
 */
function inspectProject(
  folder: string,
  json: boolean,
  options: { format?: TranscriptFormat },
  io: CliIo,
): number {
  const files = listJsonl(folder, io);
  if (files === undefined) return 1;
  const entries: { path: string; text: string }[] = [];
  for (const file of files) {
    const text = readTranscript(file, io);
    if (text === undefined) return 1;
    entries.push({ path: relativeTo(folder, file).replaceAll('\\', '/'), text });
  }
  const project = assembleProject(entries);
  if (project.sessions.length === 0) {
    io.stderr(`trellis-transcripts: no session file (a .jsonl outside subagents/) under ${folder}\n`);
    return 1;
  }
  const report = buildInspectionReport(project.content, options);
  if (json) {
    const { sessions, subagents, diagnostics } = project;
    io.stdout(
      `${JSON.stringify({ folder, project: { sessions, subagents, diagnostics }, ...report }, null, 2)}\n`,
    );
  } else {
    io.stdout(`${formatReportTable(report, `${baseName(folder)} (project)`)}\n${formatProject(project)}`);
  }
  return 0;
}

function formatProject(project: AssembledProject): string {
  const lines = [`Sessions (${project.sessions.length}), in the order they continue one another:`];
  for (const s of project.sessions) {
    lines.push(
      `  ${s.path}  ${s.recordCount} records${s.continues === null ? '' : `  continues ${s.continues}`}`,
    );
  }
  lines.push(`Subagent runs (${project.subagents.length}):`);
  for (const run of project.subagents) {
    const call = run.toolUseId === null ? 'no starting call found' : `started by ${run.toolUseId}`;
    lines.push(`  ${run.path}  ${run.agentId}  ${call}  ${run.tools.length} tool calls`);
  }
  if (project.diagnostics.length > 0) {
    lines.push(`Folder diagnostics (${project.diagnostics.length}):`);
    for (const d of project.diagnostics) lines.push(`  ${describeProjectDiagnostic(d)}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeProjectDiagnostic(d: ProjectDiagnostic): string {
  switch (d.kind) {
    case 'missing-continuation':
      return `${d.path} continues record ${d.uuid}, which no file of the folder holds`;
    case 'unattached-subagent':
      return `${d.path}: no Task call started run ${d.agentId}`;
    case 'ignored-entry':
      return `${d.path} skipped: ${d.reason}`;
  }
}

/** Exit 0 when every manifest entry agrees with the inspector, 1 otherwise or when unreadable. */
function compareFolder(folder: string, manifestFile: string, json: boolean, io: CliIo): number {
  const manifestText = readTranscript(manifestFile, io);
  if (manifestText === undefined) return 1;
  const entries = parseManifest(manifestText);
  if (typeof entries === 'string') {
    io.stderr(`trellis-transcripts: ${manifestFile}: ${entries}\n`);
    return 1;
  }
  const prefix = folder.replace(/[\\/]+$/, '');
  const compared = compareWithManifest(entries, (path) => readTranscript(`${prefix}/${path}`, io));
  io.stdout(json ? `${JSON.stringify({ folder, files: compared }, null, 2)}\n` : formatComparison(compared));
  return compared.every((file) => file.agrees) ? 0 : 1;
}

function relativeTo(folder: string, file: string): string {
  const prefix = folder.replace(/[\\/]+$/, '');
  return file.startsWith(`${prefix}/`) || file.startsWith(`${prefix}\\`)
    ? file.slice(prefix.length + 1)
    : file;
}

function baseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts.at(-1) || file;
}
