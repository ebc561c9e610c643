/** A textarea of one item per line → the list the API takes: trimmed, blank lines and repeats dropped. */
export function linesToList(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const item = line.trim();
    if (item) seen.add(item);
  }
  return [...seen];
}

export const listToLines = (list: readonly string[]): string => list.join('\n');
