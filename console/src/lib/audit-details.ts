/** An entry's details in words, one `name: value` after another (lists joined), wrapping inside its cell. */
export function detailsText(details: unknown): string {
  if (!details || typeof details !== 'object') return '';
  const value = (v: unknown): string => (Array.isArray(v) ? v.map(value).join(', ') : v === null ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return Object.entries(details as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${value(v)}`)
    .join(' · ');
}
