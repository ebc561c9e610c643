/**
 * The chain of open headings, for formats with explicit heading levels (markdown, HTML, DOCX).
 * A heading closes every heading of the same or a deeper level, so `# Guide`, `## Setup`, `### Linux`
 * reads `Guide > Setup > Linux`, and a later `## Usage` reads `Guide > Usage`.
 */
export class HeadingPath {
  private readonly open: { level: number; text: string }[] = [];

  enter(level: number, text: string): void {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (!clean) return;
    while (this.open.length > 0 && this.open[this.open.length - 1].level >= level) this.open.pop();
    this.open.push({ level, text: clean });
  }

  toString(): string {
    return this.open.map((h) => h.text).join(' > ');
  }
}
