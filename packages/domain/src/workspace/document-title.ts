/**
 * The title a document shows: its own when it has one, else its first Markdown heading (so an
 * untitled document follows its heading as it changes), else null.
 */
export function displayedDocumentTitle(title: string, content: string): string | null {
  if (title.trim() !== '') return title.trim();
  const heading = /^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(content)?.[1]?.trim();
  return heading === undefined || heading === '' ? null : heading;
}
