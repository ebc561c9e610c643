/** Usage as CSV (RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled). */
export interface UsageRowForCsv {
  who: string;
  keyId: string | null;
  questions: number;
  answers: number;
  controls: number;
}

const field = (v: string | number | null): string => {
  const s = v === null ? '' : String(v);
  // A leading =, +, - or @ would be read as a formula by spreadsheets: prefixed with a quote.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export function usageCsv(month: string, rows: readonly UsageRowForCsv[]): string {
  const lines = [['month', 'key or person', 'id', 'questions', 'answers', 'controls'].join(',')];
  for (const r of rows) lines.push([month, r.who, r.keyId, r.questions, r.answers, r.controls].map(field).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
