// The CLI without its I/O: arguments in, text out, an exit code back. `cli.ts` binds it to the
// process and the file system; tests bind it to fixtures.
// Exit codes: 0 printed (diagnostics included), 1 the file could not be read, 2 usage error.
import { USAGE, parseCliArgs } from './args';
import { formatReportJson, formatReportTable } from './format-report';
import { buildInspectionReport } from './report';

export interface CliIo {
  /** Bytes of the file; throws when it cannot be read. */
  fileSize(file: string): number;
  /** The file as UTF-8 text; throws when it cannot be read. */
  readFile(file: string): string;
  stdout(text: string): void;
  stderr(text: string): void;
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

  let text: string;
  try {
    const size = io.fileSize(command.file);
    if (size > MAX_FILE_BYTES) {
      io.stderr(`trellis-transcripts: ${command.file} is ${size} bytes; the limit is ${MAX_FILE_BYTES}\n`);
      return 1;
    }
    text = io.readFile(command.file);
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message : String(error);
    io.stderr(`trellis-transcripts: cannot read ${command.file}: ${reason}\n`);
    return 1;
  }

  const report = buildInspectionReport(text, command.format === undefined ? {} : { format: command.format });
  io.stdout(command.json ? formatReportJson(report) : formatReportTable(report, baseName(command.file)));
  return 0;
}

function baseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts.at(-1) || file;
}
