// Command line grammar: `trellis-transcripts inspect <file.jsonl | folder> [--json] [--format qwen-code|claude-code]`.
import type { TranscriptFormat } from '../readers/types';

export type CliCommand =
  | { kind: 'inspect'; file: string; json: boolean; format?: TranscriptFormat }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string };

export const USAGE = `Usage: trellis-transcripts inspect <file.jsonl | folder> [--json] [--format qwen-code|claude-code]

Lists every semantic leaf of a Qwen Code or Claude Code JSONL transcript with its summary,
then the diagnostics. Given a folder, inspects every *.jsonl file under it (subagents/
included), one after another. --json prints the exact inspector output instead of a table.`;

const FORMATS: readonly TranscriptFormat[] = ['qwen-code', 'claude-code'];

export function parseCliArgs(argv: readonly string[]): CliCommand {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  const [command, ...rest] = argv;
  if (command !== 'inspect')
    return { kind: 'usage-error', message: `unknown command ${JSON.stringify(command)}` };

  let json = false;
  let format: TranscriptFormat | undefined;
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--json') json = true;
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
  return { kind: 'inspect', file: files[0]!, json, ...(format !== undefined && { format }) };
}
