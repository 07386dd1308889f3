/** "1 page", "2 pages", "0 passages": a count with its noun, for the command line's sentences. */
export function countOf(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}
