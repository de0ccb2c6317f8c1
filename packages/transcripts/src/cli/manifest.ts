// The real-corpus manifest: for each session file collected from a public repository,
// the conversations a person reading it by hand could resume, and why. The files themselves stay
// out of the repository; `trellis-transcripts compare <folder> <manifest.json>` reads each entry's
// `path` under the folder and checks the inspector's count against `expectedConversations`.
import { buildInspectionReport } from './report';

export interface ManifestEntry {
  /** owner/name of the public repository the file was committed to. */
  repository?: string;
  commit?: string;
  /** The file, relative to the folder given to `compare`. */
  path: string;
  expectedConversations: number;
  reasons?: string;
}

export interface ComparedFile {
  path: string;
  expected: number;
  /** Undefined when the file could not be read. */
  reported: number | undefined;
  agrees: boolean;
}

/** The entries of a manifest's JSON text, or a message saying what is wrong with it. */
export function parseManifest(text: string): ManifestEntry[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error: unknown) {
    return `the manifest is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  const files = (value as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) return 'the manifest has no "files" array';
  const entries: ManifestEntry[] = [];
  for (const [index, file] of files.entries()) {
    const entry = file as Partial<ManifestEntry> | null;
    if (typeof entry?.path !== 'string' || entry.path === '') return `files[${index}] has no "path"`;
    if (!Number.isInteger(entry.expectedConversations) || entry.expectedConversations! < 0)
      return `files[${index}] (${entry.path}) has no whole "expectedConversations"`;
    entries.push(entry as ManifestEntry);
  }
  return entries;
}

/** `read` gives a file's text, or undefined when it cannot be read. */
export function compareWithManifest(
  entries: readonly ManifestEntry[],
  read: (path: string) => string | undefined,
): ComparedFile[] {
  return entries.map(({ path, expectedConversations }) => {
    const text = read(path);
    const reported = text === undefined ? undefined : buildInspectionReport(text).branches.length;
    return { path, expected: expectedConversations, reported, agrees: reported === expectedConversations };
  });
}

export function formatComparison(compared: readonly ComparedFile[]): string {
  const rows = compared.map((file) => [
    file.path,
    String(file.expected),
    file.reported === undefined ? 'unreadable' : String(file.reported),
    file.agrees ? 'ok' : 'DISAGREES',
  ]);
  const header = ['FILE', 'EXPECTED', 'REPORTED', ''];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 1 || column === 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  const agreeing = compared.filter((file) => file.agrees).length;
  return `${[render(header), ...rows.map(render), '', `${agreeing} of ${compared.length} files agree`].join('\n')}\n`;
}
