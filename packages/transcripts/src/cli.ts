// `trellis-transcripts`: the package's only I/O. Binds the CLI (cli/run.ts) to the process.
import { readFileSync, statSync } from 'node:fs';
import process from 'node:process';
import { runCli } from './cli/run';

process.exitCode = runCli(process.argv.slice(2), {
  fileSize: (file) => statSync(file).size,
  readFile: (file) => readFileSync(file, 'utf8'),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
