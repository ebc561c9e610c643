import { foldText } from './sentences.js';

const MONTHS: Record<string, number> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6,
  july: 7, jul: 7, august: 8, aug: 8, september: 9, sept: 9, sep: 9, october: 10, oct: 10,
  november: 11, nov: 11, december: 12, dec: 12,
  janvier: 1, fevrier: 2, février: 2, mars: 3, avril: 4, mai: 5, juin: 6, juillet: 7, aout: 8, août: 8,
  septembre: 9, octobre: 10, novembre: 11, decembre: 12, décembre: 12,
};
const MONTH = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|');

/**
 * `2025-12-31`, `31/12/2025` (always day first), `December 31, 2025` or `Dec. 31st 2025`,
 * `31 December 2025` or `1er janvier 2026`.
 */
const DATE = [
  String.raw`\d{4}-\d{2}-\d{2}`,
  String.raw`\d{1,2}/\d{1,2}/\d{4}`,
  String.raw`(?:${MONTH})\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}`,
  String.raw`\d{1,2}(?:er|st|nd|rd|th)?\s+(?:${MONTH})\.?\s+\d{4}`,
]
  .map((form) => `(?:${form})`)
  .join('|');
const DATE_ONLY = new RegExp(`^(?:${DATE})$`, 'iu');

/**
 * A validity clause: `valid until`, `until`, `through`, `expires on`, `jusqu'au`, `valable jusqu'au`,
 * then a date. A `valid` or `valable` before the marker belongs to the clause.
 */
const VALIDITY = new RegExp(
  String.raw`(?:\b(?:valid|valable)\s+)?(?:\buntil|\bthrough|\bexpires\s+on|\bjusqu['’]\s?au)\s+(?:the\s+)?(${DATE})`,
  'iu',
);

/** The validity date of a sentence and where its clause sits, or null when it has none. */
export function findValidity(sentence: string): { validUntil: string; index: number; length: number } | null {
  const match = VALIDITY.exec(sentence);
  const validUntil = match ? parseDate(match[1]) : null;
  return match && validUntil ? { validUntil, index: match.index, length: match[0].length } : null;
}

/** A whole-string date in one of the supported forms as `YYYY-MM-DD`; null when malformed or impossible (31/02). */
export function parseDate(text: string): string | null {
  const value = text.trim();
  if (!DATE_ONLY.test(value)) return null;
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m) return isoDate(+m[1], +m[2], +m[3]);
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (m) return isoDate(+m[3], +m[2], +m[1]);
  const folded = foldText(value).replace(/[.,]/g, ' ');
  m = /^(\p{L}+)\s+(\d{1,2})(?:st|nd|rd|th)?\s+(\d{4})$/u.exec(folded.replace(/\s+/g, ' '));
  if (m) return isoDate(+m[3], MONTHS[m[1]], +m[2]);
  m = /^(\d{1,2})(?:er|st|nd|rd|th)?\s+(\p{L}+)\s+(\d{4})$/u.exec(folded.replace(/\s+/g, ' '));
  if (m) return isoDate(+m[3], MONTHS[m[2]], +m[1]);
  return null;
}

function isoDate(year: number, month: number | undefined, day: number): string | null {
  if (!month) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}
