// The CLI without its I/O: arguments in, text out, an exit code back. `cli.ts` binds it to the
// process and the file system; tests bind it to fixtures.
// Exit codes: 0 printed (diagnostics included), 1 the file could not be read, 2 usage error.
import { USAGE, parseCliArgs } from './args';
import { formatReportJson, formatReportTable } from './format-report';
import type { TranscriptFormat } from '../readers/types';
import { compareWithManifest, formatComparison, parseManifest } from './manifest';
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
  if (io.isDirectory?.(command.file) === true) return inspectFolder(command.file, command.json, options, io);

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
  let files: string[];
  try {
    files = (io.listFiles?.(folder) ?? []).filter((file) => file.endsWith('.jsonl')).sort();
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message : String(error);
    io.stderr(`trellis-transcripts: cannot read ${folder}: ${reason}\n`);
    return 1;
  }
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
