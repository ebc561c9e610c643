/** The links to add and remove to take an agent's knowledge scope from `current` to `wanted` (ids, order kept). */
export function scopeChanges(current: readonly string[], wanted: readonly string[]): { link: string[]; unlink: string[] } {
  const have = new Set(current);
  const want = new Set(wanted);
  return { link: wanted.filter((id) => !have.has(id)), unlink: current.filter((id) => !want.has(id)) };
}
