// `trellis-transcripts`: the package's only I/O. Binds the CLI (cli/run.ts) to the process.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { runCli } from './cli/run';

process.exitCode = runCli(process.argv.slice(2), {
  fileSize: (file) => statSync(file).size,
  readFile: (file) => readFileSync(file, 'utf8'),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isDirectory: (path) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true,
  listFiles: (folder) =>
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name)),
});
