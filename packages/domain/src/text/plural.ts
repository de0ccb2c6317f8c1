/** "1 record", "3 records": a count with its noun, for nouns that take an "s". */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
