// `trellis-transcripts`: the package's only I/O. Reads one file, prints the report.
// Exit codes: 0 printed (diagnostics included), 1 the file could not be read, 2 usage error.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { USAGE, parseCliArgs } from './cli/args';
import { formatReportJson, formatReportTable } from './cli/format-report';
import { buildInspectionReport } from './cli/report';

/** Beyond this, a transcript is refused rather than read into one string. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

function main(argv: readonly string[]): number {
  const command = parseCliArgs(argv);
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command.kind === 'usage-error') {
    process.stderr.write(`trellis-transcripts: ${command.message}\n\n${USAGE}\n`);
    return 2;
  }

  let text: string;
  try {
    const size = statSync(command.file).size;
    if (size > MAX_FILE_BYTES) {
      process.stderr.write(
        `trellis-transcripts: ${command.file} is ${size} bytes; the limit is ${MAX_FILE_BYTES}\n`,
      );
      return 1;
    }
    text = readFileSync(command.file, 'utf8');
  } catch (error: unknown) {
    process.stderr.write(
      `trellis-transcripts: cannot read ${command.file}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }

  const report = buildInspectionReport(text, command.format === undefined ? {} : { format: command.format });
  process.stdout.write(
    command.json ? formatReportJson(report) : formatReportTable(report, path.basename(command.file)),
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
