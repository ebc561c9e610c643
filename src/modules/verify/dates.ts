import { fold } from './text.js';
import { unnamed } from '../../lib/unnamed.js';

/** A date or period as an interval of days [start, end) (UTC day numbers), with its span in the text. */
export interface DateSpan {
  from: number;
  to: number;
  granularity: 'day' | 'month' | 'quarter' | 'year';
  /** A day and month written without a year. */
  yearless?: boolean;
  /** Eighteenth round (vamount): the first or the last day of a range of days in one month (`14`, `16 October 2024` of `14–16 October 2024`). */
  range?: 'first' | 'last';
  start: number;
  end: number;
}

const MONTHS: Record<string, number> = {
  january: 1, jan: 1, janvier: 1, janv: 1,
  february: 2, feb: 2, fevrier: 2, fevr: 2, fev: 2,
  march: 3, mar: 3, mars: 3,
  april: 4, apr: 4, avril: 4, avr: 4,
  may: 5, mai: 5,
  june: 6, jun: 6, juin: 6,
  july: 7, jul: 7, juillet: 7, juil: 7,
  august: 8, aug: 8, aout: 8,
  september: 9, sept: 9, sep: 9, septembre: 9,
  october: 10, oct: 10, octobre: 10,
  november: 11, nov: 11, novembre: 11,
  december: 12, dec: 12, decembre: 12,
};
const MONTH = '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec|janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|septembre|octobre|novembre|d[ée]cembre|janv|f[ée]vr|avr|juil)\\.?';
const YEAR = '((?:19|20)\\d{2})';

const day = (y: number, m: number, d: number) => Math.floor(Date.UTC(y, m - 1, d) / 86_400_000);
const monthNo = (name: string) => MONTHS[fold(name).replace(/\.$/, '')] ?? 0;
const valid = (y: number, m: number, d: number) => m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Words before a bare year that make it a year rather than an amount (`in 2019`, `depuis 2019`). */
const YEAR_LEAD = /(?:^|[^\p{L}])(in|for|since|from|until|till|to|by|of|during|before|after|between|and|through|fy|fiscal|year|en|depuis|jusqu|jusqu'en|de|des|du|au|avant|apres|entre|et|annee|exercice|pour|le|la|l)[\s\u00a0]*$/u;

interface Pattern {
  re: RegExp;
  read: (m: RegExpExecArray) => Omit<DateSpan, 'start' | 'end'> | null;
}

const PATTERNS: Pattern[] = [
  {
    re: /(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/gu,
    read: (m) => {
      const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
      return valid(y, mo, d) ? { from: day(y, mo, d), to: day(y, mo, d) + 1, granularity: 'day' } : null;
    },
  },
  {
    re: /(?<![\d/.])(\d{1,2})[/.](\d{1,2})[/.](\d{4})(?![\d/])/gu,
    read: (m) => {
      let [d, mo] = [Number(m[1]), Number(m[2])];
      const y = Number(m[3]);
      if (mo > 12 && d <= 12) [d, mo] = [mo, d]; // month first (US order) only when the day cannot be a month
      return valid(y, mo, d) ? { from: day(y, mo, d), to: day(y, mo, d) + 1, granularity: 'day' } : null;
    },
  },
  {
    re: new RegExp(`(?<!\\d)(\\d{1,2})(?:er|st|nd|rd|th)?[\\s\\u00a0]+${MONTH}[\\s\\u00a0]+${YEAR}(?!\\d)`, 'giu'),
    read: (m) => {
      const [d, mo, y] = [Number(m[1]), monthNo(m[2]!), Number(m[3])];
      return valid(y, mo, d) ? { from: day(y, mo, d), to: day(y, mo, d) + 1, granularity: 'day' } : null;
    },
  },
  {
    re: new RegExp(`(?<![\\p{L}])${MONTH}[\\s\\u00a0]+(\\d{1,2})(?:st|nd|rd|th)?,?[\\s\\u00a0]+${YEAR}(?!\\d)`, 'giu'),
    read: (m) => {
      const [mo, d, y] = [monthNo(m[1]!), Number(m[2]), Number(m[3])];
      return valid(y, mo, d) ? { from: day(y, mo, d), to: day(y, mo, d) + 1, granularity: 'day' } : null;
    },
  },
  {
    re: new RegExp(`(?<![\\p{L}])${MONTH}[\\s\\u00a0]+(?:of[\\s\\u00a0]+)?${YEAR}(?!\\d)`, 'giu'),
    read: (m) => {
      const [mo, y] = [monthNo(m[1]!), Number(m[2])];
      return mo ? { from: day(y, mo, 1), to: day(y, mo + 1, 1), granularity: 'month' } : null;
    },
  },
  {
    re: /(?<![\p{L}\d])[QT]([1-4])[\s\u00a0]*((?:19|20)\d{2})(?!\d)/gu,
    read: (m) => {
      const [q, y] = [Number(m[1]), Number(m[2])];
      return { from: day(y, 3 * q - 2, 1), to: day(y, 3 * q + 1, 1), granularity: 'quarter' };
    },
  },
];

/** A day and month without a year (`31 mars`, `30 April`, `April 30`): compared by day and month only. */
const FULL_MONTH = '(january|february|march|april|june|july|august|september|october|november|december|May|janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|septembre|octobre|novembre|d[ée]cembre)';
const YEARLESS = [
  new RegExp(`(?<![\\d.,])(\\d{1,2})(?:er|st|nd|rd|th)?[\\s\\u00a0]+${FULL_MONTH}(?![\\p{L}])`, 'giu'),
  new RegExp(`(?<![\\p{L}])${FULL_MONTH}[\\s\\u00a0]+(\\d{1,2})(?:st|nd|rd|th)?(?![\\d.,]\\d|[\\p{L}\\d])`, 'giu'),
];
/** Yearless dates are placed in this (leap) year; `yearless` marks them. */
const NO_YEAR = 2000;

const HAS_DIGIT = /\d/;
/** Eighteenth round (vamount): a range of days in one month, its first day, its last, the month and the year if written. */
const DAY_RANGE = new RegExp(
  `(?<![\\d.,])(\\d{1,2})(?:er|st|nd|rd|th)?[\\s\\u00a0]*(?:[–—-]|to|and|au|et|&)[\\s\\u00a0]*(\\d{1,2})(?:er|st|nd|rd|th)?[\\s\\u00a0]+${FULL_MONTH}(?:[\\s\\u00a0]+${YEAR})?(?!\\d)`,
  'giu',
);
const DAY_RANGE_HINT = /\d\s*(?:[–—-]|to|and|au|et|&)\s*\d/iu;

const BARE_YEAR = /(?<![\p{L}\d.,]|[\p{L}\d]-)((?:19|20)\d{2})(?![\d.,]\d|-[\p{L}\d])/gu;

/**
 * The dates and periods of a text: ISO dates, `15/03/2024` (day first unless impossible), `15 March 2024`,
 * `March 15, 2024`, `1er mars 2024`, `March 2024`, `Q1 2024` / `T1 2024`, and a bare year when a word such
 * as `in`, `since`, `depuis`, `en` comes before it or punctuation after it (otherwise `2000 employees` is
 * an amount). Earlier, more precise patterns win over later ones on the same words.
 */
export function dates(text: string): DateSpan[] {
  // Every pattern below needs a digit: a text without one (most sentences of prose) has no date, read in one test.
  if (!HAS_DIGIT.test(text)) return [];
  const out: DateSpan[] = [];
  const taken = unnamed((s: number, e: number) => out.some((d) => s < d.end && e > d.start));
  // Eighteenth round (vamount): the first day of a range of days in one month (`14–16 October 2024`, `from 8 to 13 October 2025`, `du
  // 14 au 21 juin 2025`, `on 17 and 18 June 2024`) is a date of that month and year, not a bare number: read here with the last day,
  // each marked as the range's end it is.
  if (DAY_RANGE_HINT.test(text)) {
    DAY_RANGE.lastIndex = 0;
    for (let m = DAY_RANGE.exec(text); m; m = DAY_RANGE.exec(text)) {
      const [d, last, mo] = [Number(m[1]), Number(m[2]), monthNo(m[3]!)];
      const y = m[4] ? Number(m[4]) : NO_YEAR;
      if (d >= last || !valid(y, mo, d) || !valid(y, mo, last) || (fold(m[3]!) === 'may' && m[3] !== 'May')) continue;
      const end = m.index + m[0].indexOf(m[1]!) + m[1]!.length;
      const yearless = m[4] ? {} : { yearless: true };
      out.push({ from: day(y, mo, d), to: day(y, mo, d) + 1, granularity: 'day', ...yearless, range: 'first', start: m.index, end });
      const lastAt = end + m[0].slice(end - m.index).search(/\d/u);
      out.push({ from: day(y, mo, last), to: day(y, mo, last) + 1, granularity: 'day', ...yearless, range: 'last', start: lastAt, end: m.index + m[0].length });
    }
  }
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    for (let m = p.re.exec(text); m; m = p.re.exec(text)) {
      const end = m.index + m[0].length;
      if (taken(m.index, end)) continue;
      const read = p.read(m);
      if (read) out.push({ ...read, start: m.index, end });
    }
  }
  for (const [i, re] of YEARLESS.entries()) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const end = m.index + m[0].length;
      if (taken(m.index, end)) continue;
      const [d, name] = i === 0 ? [Number(m[1]), m[2]!] : [Number(m[2]), m[1]!];
      // English `may` is a month only with its capital (`10 may be` is not a date).
      if (fold(name) === 'may' && name !== 'May') continue;
      const mo = monthNo(name);
      if (!valid(NO_YEAR, mo, d)) continue;
      out.push({ from: day(NO_YEAR, mo, d), to: day(NO_YEAR, mo, d) + 1, granularity: 'day', yearless: true, start: m.index, end });
    }
  }
  BARE_YEAR.lastIndex = 0;
  for (let m = BARE_YEAR.exec(text); m; m = BARE_YEAR.exec(text)) {
    const end = m.index + m[0].length;
    if (taken(m.index, end)) continue;
    const before = fold(text.slice(Math.max(0, m.index - 16), m.index));
    const after = text.slice(end, end + 3);
    if (!YEAR_LEAD.test(before) && !/^\s*($|[.,;:)!?–-])/u.test(after)) continue;
    const y = Number(m[1]);
    out.push({ from: day(y, 1, 1), to: day(y + 1, 1, 1), granularity: 'year', start: m.index, end });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** One date lies within the other (a day of a month, a month of a year): they agree. */
export const datesAgree = (a: DateSpan, b: DateSpan): boolean => {
  // A yearless day agrees with the same day and month of any year.
  if (a.yearless || b.yearless) {
    const md = unnamed((x: DateSpan) => new Date(x.from * 86_400_000).toISOString().slice(5, 10));
    return a.granularity === 'day' && b.granularity === 'day' ? md(a) === md(b) : false;
  }
  return (a.from >= b.from && a.to <= b.to) || (b.from >= a.from && b.to <= a.to);
};
