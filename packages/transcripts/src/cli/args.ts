// Command line grammar: `trellis-transcripts inspect <file.jsonl | folder> [--project] [--json] [--format qwen-code|claude-code]`.
import type { TranscriptFormat } from '../readers/types';

export type CliCommand =
  | { kind: 'inspect'; file: string; json: boolean; format?: TranscriptFormat; project?: true }
  | { kind: 'compare'; folder: string; manifest: string; json: boolean }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string };

export const USAGE = `Usage: trellis-transcripts inspect <file.jsonl | folder> [--project] [--json] [--format qwen-code|claude-code]
       trellis-transcripts compare <folder> <manifest.json> [--json]

Lists every semantic leaf of a Qwen Code or Claude Code JSONL transcript with its summary,
then the diagnostics. Given a folder, inspects every *.jsonl file under it (subagents/
included), one after another; with --project, reads the folder as one Claude Code project: its
sessions joined where one resumes another, as one family, and each subagent run attached to the
Task call that started it. --json prints the exact inspector output instead of a table.
compare reads each manifest entry's file under the folder and checks the number of
conversations the inspector reports against the manifest's; it exits 1 on any disagreement.`;

const FORMATS: readonly TranscriptFormat[] = ['qwen-code', 'claude-code'];

export function parseCliArgs(argv: readonly string[]): CliCommand {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  const [command, ...rest] = argv;
  if (command === 'compare') return parseCompareArgs(rest);
  if (command !== 'inspect')
    return { kind: 'usage-error', message: `unknown command ${JSON.stringify(command)}` };

  let json = false;
  let project = false;
  let format: TranscriptFormat | undefined;
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--project') project = true;
    else if (arg === '--format' || arg.startsWith('--format=')) {
      const value = arg === '--format' ? rest[++i] : arg.slice('--format='.length);
      const known = FORMATS.find((candidate) => candidate === value);
      if (known === undefined)
        return { kind: 'usage-error', message: `--format must be one of ${FORMATS.join(', ')}` };
      format = known;
    } else if (arg.startsWith('--')) return { kind: 'usage-error', message: `unknown option ${arg}` };
    else files.push(arg);
  }
  if (files.length !== 1)
    return { kind: 'usage-error', message: 'inspect takes exactly one transcript file or folder' };
  return {
    kind: 'inspect',
    file: files[0]!,
    json,
    ...(format !== undefined && { format }),
    ...(project && { project: true as const }),
  };
}

function parseCompareArgs(rest: readonly string[]): CliCommand {
  const json = rest.includes('--json');
  const unknown = rest.find((arg) => arg.startsWith('--') && arg !== '--json');
  if (unknown !== undefined) return { kind: 'usage-error', message: `unknown option ${unknown}` };
  const paths = rest.filter((arg) => !arg.startsWith('--'));
  if (paths.length !== 2)
    return { kind: 'usage-error', message: 'compare takes a folder and a manifest file' };
  return { kind: 'compare', folder: paths[0]!, manifest: paths[1]!, json };
}
