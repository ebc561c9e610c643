import { detectLanguage, fold, isAscii, STOP_WORDS, wordsOf } from './text.js';

/** An amount as the rules compare it: value with its scale applied, and its unit. */
export interface Quantity {
  value: number;
  /** The figure as written, with its scale word but before a unit's conversion (`14` of `14 km`, `151.67` of `151,67 jours`). */
  figure: number;
  /**
   * `EUR`, `USD`, `GBP`, `CHF`, `%`, a measure's unit in its base (`kg`, `w`, `day`, `hour`, `m2`...), or the
   * stem of the word that follows (`employe`, `seat`); null when none.
   */
  unit: string | null;
  /** What the unit measures (`money`, `mass`, `power`, `time-d`...), so that £ against € or lb against kg conflict; null when unknown. */
  dimension: string | null;
  /** The period a rate is counted over (`£4,860 a month`, `6.2% per year`, `redevance annuelle`): `month`, `year`…; absent when none is said. */
  period?: string;
  /**
   * Eighth round: the unit of measure a rate is counted per (`8p per mile`, `0,45 € par kilomètre`, `£2 per kg`): `mile`,
   * `m`, `kg`…; absent when none is said. Two rates per different units are the same fact only for the same figure.
   */
  per?: string;
  /**
   * A price or count per item, neither a unit of measure nor a period (`£148 per visit`, `12 € par personne`): never the
   * same fact as a rate over a period (`£58,320 a year`), whatever their figures.
   */
  perItem?: boolean;
  /** Fourteenth round (vparse): a price of nothing said in words (`free of charge`, `gratuit`): its words stay the text's words too. */
  inWords?: boolean;
  start: number;
  end: number;
}

interface Measure {
  unit: string;
  dimension: string;
  factor: number;
}

const m = (unit: string, dimension: string, factor = 1): Measure => ({ unit, dimension, factor });
/**
 * Units of measure, folded, in English and French, normalised to one unit per dimension where the
 * conversion is exact (weeks to days, grams to kilograms, kilowatts to watts); days and months, months
 * and years are kept apart where a calendar makes them inexact (a month is not 30 days).
 */
const MEASURES: Record<string, Measure> = {
  kg: m('kg', 'mass'), kilo: m('kg', 'mass'), kilos: m('kg', 'mass'), kilogram: m('kg', 'mass'), kilograms: m('kg', 'mass'), kilogramme: m('kg', 'mass'), kilogrammes: m('kg', 'mass'),
  g: m('kg', 'mass', 1e-3), gram: m('kg', 'mass', 1e-3), grams: m('kg', 'mass', 1e-3), gramme: m('kg', 'mass', 1e-3), grammes: m('kg', 'mass', 1e-3),
  t: m('kg', 'mass', 1e3), tonne: m('kg', 'mass', 1e3), tonnes: m('kg', 'mass', 1e3), lb: m('lb', 'mass'), lbs: m('lb', 'mass'),
  w: m('w', 'power'), watt: m('w', 'power'), watts: m('w', 'power'), kw: m('w', 'power', 1e3), kilowatt: m('w', 'power', 1e3), kilowatts: m('w', 'power', 1e3),
  kwh: m('kwh', 'energy'), wh: m('kwh', 'energy', 1e-3), mwh: m('kwh', 'energy', 1e3), gwh: m('kwh', 'energy', 1e6),
  rpm: m('rpm', 'rotation'), db: m('db', 'sound'), dba: m('db', 'sound'), decibel: m('db', 'sound'), decibels: m('db', 'sound'),
  km: m('m', 'length', 1e3), kilometre: m('m', 'length', 1e3), kilometres: m('m', 'length', 1e3), kilometer: m('m', 'length', 1e3), kilometers: m('m', 'length', 1e3),
  cm: m('m', 'length', 1e-2), mm: m('m', 'length', 1e-3), m: m('m', 'length'), metre: m('m', 'length'), metres: m('m', 'length'), meter: m('m', 'length'), meters: m('m', 'length'), miles: m('mile', 'length'), mile: m('mile', 'length'),
  ft: m('ft', 'length'), foot: m('ft', 'length'), feet: m('ft', 'length'), pieds: m('ft', 'length'), yard: m('yd', 'length'), yards: m('yd', 'length'), yd: m('yd', 'length'),
  // Tenth round: imperial units and the French pound (`1,850 gallons`, `2 500 livres`, `12 oz`, `30 inches`), so that the same
  // figure in another unit of the same measure is compared (a conflict), not left unpaired.
  gallon: m('gal', 'volume'), gallons: m('gal', 'volume'), gal: m('gal', 'volume'), pint: m('pt', 'volume'), pints: m('pt', 'volume'),
  livre: m('lb', 'mass'), livres: m('lb', 'mass'), ounce: m('oz', 'mass'), ounces: m('oz', 'mass'), oz: m('oz', 'mass'),
  inch: m('in', 'length'), inches: m('in', 'length'), pouce: m('in', 'length'), pouces: m('in', 'length'),
  m2: m('m2', 'area'), sqm: m('m2', 'area'), ft2: m('ft2', 'area'), m3: m('m3', 'volume'), litre: m('l', 'volume'), litres: m('l', 'volume'), liter: m('l', 'volume'), liters: m('l', 'volume'), l: m('l', 'volume'),
  // Days and weeks in hours: `within one day` is `within 24 hours`, `deux jours` is `48 heures`.
  day: m('hour', 'time-h', 24), days: m('hour', 'time-h', 24), jour: m('hour', 'time-h', 24), jours: m('hour', 'time-h', 24), week: m('hour', 'time-h', 168), weeks: m('hour', 'time-h', 168), semaine: m('hour', 'time-h', 168), semaines: m('hour', 'time-h', 168),
  fortnight: m('hour', 'time-h', 336), fortnights: m('hour', 'time-h', 336), quinzaine: m('hour', 'time-h', 336),
  month: m('month', 'time-m'), months: m('month', 'time-m'), mois: m('month', 'time-m'), year: m('month', 'time-m', 12), years: m('month', 'time-m', 12), an: m('month', 'time-m', 12), ans: m('month', 'time-m', 12), annee: m('month', 'time-m', 12), annees: m('month', 'time-m', 12),
  hour: m('hour', 'time-h'), hours: m('hour', 'time-h'), h: m('hour', 'time-h'), hr: m('hour', 'time-h'), hrs: m('hour', 'time-h'), heure: m('hour', 'time-h'), heures: m('hour', 'time-h'),
  minute: m('hour', 'time-h', 1 / 60), minutes: m('hour', 'time-h', 1 / 60), min: m('hour', 'time-h', 1 / 60), mins: m('hour', 'time-h', 1 / 60), mn: m('hour', 'time-h', 1 / 60),
  gb: m('gb', 'data'), go: m('gb', 'data'), tb: m('gb', 'data', 1e3), to: m('gb', 'data', 1e3), mb: m('gb', 'data', 1e-3), mo: m('gb', 'data', 1e-3),
};
/** Units that are also ordinary words in lower case (`to`, `go`, `mo`): a unit only as written with a capital (`To`, `Go`, `Mo`). */
const CASED_UNITS = new Set(['to', 'go', 'mo']);
/** The unit of measure a folded word names (`mile`, `kilometre`, `kg`), with what it measures; undefined for any other word. */
export function measureOf(word: string): { unit: string; dimension: string; factor: number } | undefined {
  const x = MEASURES[word];
  return x ? { unit: x.unit, dimension: x.dimension, factor: x.factor } : undefined;
}

/** Pence, a hundredth of a pound, read as pounds. */
const PENCE = m('GBP', 'money', 0.01);
/** Phrases of two or three words read as one unit (`square metres`, `cubic metres per hour`, `per cent`). */
const PHRASES: [RegExp, Measure | '%'][] = [
  // `livres sterling` is money, not the French pound of weight.
  [/^livres?\s+sterling/i, m('GBP', 'money')],
  [/^(?:square|sq\.?)\s+(?:metres?|meters?)/i, m('m2', 'area')],
  [/^(?:metres?|m[eè]tres?)\s+carr[ée]s?/i, m('m2', 'area')],
  [/^(?:cubic\s+(?:metres?|meters?)|m3|m³|m[eè]tres?\s+cubes?)(?:\s+(?:of|d'|de)\s*[\p{L} ]{1,20}?)?\s*(?:per\s+hour|an\s+hour|\/\s*h|par\s+heure|à\s+l'heure)/iu, m('m3h', 'flow')],
  [/^(?:cubic\s+(?:metres?|meters?)|m[eè]tres?\s+cubes?)/i, m('m3', 'volume')],
  [/^m²/i, m('m2', 'area')],
  [/^m³/i, m('m3', 'volume')],
  [/^°\s*c\b/i, m('c', 'temperature')],
  [/^(?:degrees?|degr[ée]s?)\s+(?:celsius|c\b)/i, m('c', 'temperature')],
  // Fourteenth round (vcontra6): the other scale of temperature and the units of speed and force, so that the same figure in
  // another of them (`−23.6 °F` against `−23.6 °C`, `36 knots` against `36 km/h`, `710 kN` against `710 N`) is compared.
  // `km/h` was read as kilometres (a length), `°F`, knots and newtons as nothing.
  [/^°\s*f\b/i, m('f', 'temperature')],
  [/^(?:degrees?|degr[ée]s?)\s+fahrenheit/i, m('f', 'temperature')],
  [/^(?:km\s*\/\s*h(?:r|our)?\b|kph\b|kmh\b|kilom[eè]tres?\s+(?:per|an|par|à\s+l['’])\s*heure|kilomet(?:re|er)s?\s+(?:per|an)\s+hour)/iu, m('kmh', 'speed')],
  [/^(?:mph\b|miles?\s+(?:per|an)\s+hour)/i, m('mph', 'speed')],
  [/^(?:knots?|kts?|n[œo]uds?)\b/iu, m('kn', 'speed')],
  [/^m\s*\/\s*s\b/i, m('ms', 'speed')],
  [/^kN\b/u, m('n', 'force', 1e3)],
  [/^N(?![\p{L}\p{N}°.'’-])/u, m('n', 'force')],
  [/^(?:per|pour)[\s-]+cent\b/i, '%'],
  // Eighteenth round (vamount): pence and centimes in words, hundredths of their currency (`38 pence` is `£0.38`, `10 centimes`
  // is `0,10 €`), as `8p` was read already.
  [/^(?:pence|pennies)(?![\p{L}])/iu, PENCE],
  [/^centimes?(?:\s+d['’]\s*euros?)?(?![\p{L}])/iu, m('EUR', 'money', 0.01)],
  // A centrifuge's relative force (`14,000 × g`) and a speed of rotation in French (`tr/min`).
  [/^\s*×\s*g(?![\p{L}])/u, m('xg', 'acceleration')],
  [/^tr\s*\/\s*min\b/i, m('rpm', 'rotation')],
];
/** Words between a number and its unit that do not change what is counted (`30 working days`). */
const UNIT_SKIP = new Set(['working', 'business', 'calendar', 'consecutive', 'full', 'clear', 'additional', 'extra', 'further', 'more', 'ouvres', 'ouvrables', 'calendaires', 'francs', 'supplementaires', 'de', 'd', 'of']);
/** ISO 4217 codes of the currencies business documents quote (written before or after the figure). */
const CURRENCY_CODES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'JPY', 'CNY', 'CAD', 'AUD', 'NZD', 'INR', 'SGD', 'HKD', 'ZAR', 'BRL', 'MXN', 'AED'];
const DIMENSION_OF_CURRENCY = new Set(CURRENCY_CODES);

/** A span of the text already read as something else (a date), which the number reader skips. */
export interface Span {
  start: number;
  end: number;
}

// Group separators: space, no-break spaces, comma, dot, apostrophe; a group is exactly three digits.
const NUMBER = /(?<![\p{L}\p{N}.,]|[\p{L}\p{N}]-)(\d{1,3}(?:[ \u00a0\u202f,.'’]\d{3})+(?!\p{N})|\d+)(?:[.,](\d+))?(?![\p{N}])/gu;

const CURRENCY_SYMBOL: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP' };
const CURRENCY_WORD: Record<string, string> = {
  eur: 'EUR',
  euro: 'EUR',
  '€': 'EUR',
  euros: 'EUR',
  usd: 'USD',
  dollar: 'USD',
  dollars: 'USD',
  gbp: 'GBP',
  pound: 'GBP',
  pounds: 'GBP',
  chf: 'CHF',
  ...Object.fromEntries(CURRENCY_CODES.map((c) => [c.toLowerCase(), c])),
  kronor: 'SEK',
  kr: 'SEK',
  yen: 'JPY',
};
const SCALE_WORD: Record<string, number> = {
  thousand: 1e3,
  thousands: 1e3,
  mille: 1e3,
  milliers: 1e3,
  million: 1e6,
  millions: 1e6,
  mn: 1e6,
  mio: 1e6,
  billion: 1e9,
  billions: 1e9,
  bn: 1e9,
  milliard: 1e9,
  milliards: 1e9,
  md: 1e9,
  mds: 1e9,
  trillion: 1e12,
};
/** Scale letters count only when written against the number (`1.2m`, `€5k`, `3bn`). */
const SCALE_SUFFIX: Record<string, number> = { k: 1e3, m: 1e6, mn: 1e6, bn: 1e9, b: 1e9 };
const PERCENT_WORDS = new Set(['percent', 'pct', 'pourcent']);

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, ninety: 90, hundred: 100,
  un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, sept: 7, huit: 8, neuf: 9, dix: 10, onze: 11, douze: 12,
  quinze: 15, vingt: 20, trente: 30, quarante: 40, cinquante: 50, soixante: 60, cent: 100,
};

const NUMBER_WORD = new Map(Object.entries(NUMBER_WORDS));
/**
 * Whether an ASCII text holds a number word as a whole word (its words are then the runs of `[A-Za-z]`, folded by
 * lower-casing): a text without one is not read word by word (an expression result and a folded copy per word).
 */
const NUMBER_WORD_IN_ASCII = new RegExp(`(?<![A-Za-z])(?:${[...NUMBER_WORD.keys()].join('|')})(?![A-Za-z])`, 'i');

const DIGIT_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const COMPOUND = new RegExp(
  `(?<![\\p{L}-])(?:(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[-\\s](one|two|three|four|five|six|seven|eight|nine))?|(zero|one|two|three|four|five|six|seven|eight|nine))(?:\\s+point((?:\\s+(?:zero|one|two|three|four|five|six|seven|eight|nine))+))?(?![\\p{L}-])`,
  'giu',
);

// A unit joined to its number by a hyphen is read as written apart (`a three-year term` is `a term of three years`, `a 12-month
// contract`, `a 3-bedroom flat`): a compound adjective of a number and a noun counts that noun.
const WORD = /^(?:-(?=\p{L})|[\s\u00a0\u202f'’]*)([\p{L}%€$£]+)/u;

/** The next word after `at` (letters, or a currency or percent sign), with its end. */
function nextWord(text: string, at: number): { raw: string; end: number } | null {
  const m = WORD.exec(text.slice(at, at + 60));
  return m ? { raw: m[1]!, end: at + m[0].length } : null;
}

const overlaps = (spans: readonly Span[], start: number, end: number) => spans.some((s) => start < s.end && end > s.start);

function parseDigits(whole: string, decimals: string | undefined): number {
  const digits = whole.replace(/[ \u00a0\u202f,.'’]/g, '');
  return Number(decimals ? `${digits}.${decimals}` : digits);
}

/** The unit and scale after a number ending at `end`, reading at most three words. */
function readSuffix(text: string, end: number, stem: (w: string) => string): { scale: number; unit: string | null; end: number; measure?: Measure } {
  let scale = 1;
  let unit: string | null = null;
  let at = end;
  // Attached scale letter: `1.2m`, `5k`, `3bn`, possibly followed by a currency.
  const attached = /^([kmb]n?)(?![\p{L}²³])/u.exec(text.slice(at, at + 3));
  // Eighth round: pence written against the figure (`8p per mile`).
  // Eighteenth round (vamount): also after a space before a rate's slash (`88.6 p/day`).
  const pence = /^(?:p|[ \u00a0]p(?=\/))(?![\p{L}\p{N}])/u.exec(text.slice(at, at + 3));
  if (pence) return { scale: PENCE.factor, unit: PENCE.unit, end: at + pence[0].length, measure: PENCE };
  if (attached && SCALE_SUFFIX[attached[1]!.toLowerCase()]) {
    scale = SCALE_SUFFIX[attached[1]!.toLowerCase()]!;
    at += attached[0].length;
  }
  let next = nextWord(text, at);
  if (next && scale === 1) {
    const w = fold(next.raw);
    if (SCALE_WORD[w]) {
      scale = SCALE_WORD[w]!;
      at = next.end;
      next = nextWord(text, at);
      // `1.2 million de salariés`, `2 millions d'euros`, `3 billion of revenue`
      if (next && ['de', 'd', 'of'].includes(fold(next.raw))) next = nextWord(text, next.end);
    }
  }
  // Words that qualify without changing what is counted: `30 working days`, `4 heures ouvrées`.
  for (let i = 0; i < 2 && next && UNIT_SKIP.has(fold(next.raw)); i++) {
    const after = nextWord(text, next.end);
    if (!after) break;
    next = after;
  }
  // A sign opening the unit after a space (`23.6 °C`) is no word: the phrases are read from it.
  const from = next ? next.end - next.raw.length : at + (/^[\s\u00a0\u202f]*/u.exec(text.slice(at, at + 4))?.[0].length ?? 0);
  const rest = text.slice(from, from + 40);
  for (const [re, measure] of PHRASES) {
    const p = re.exec(rest);
    if (!p) continue;
    if (measure === '%') return { scale, unit: '%', end: from + p[0].length };
    return { scale: scale * measure.factor, unit: measure.unit, end: from + p[0].length, measure };
  }
  if (!next) return { scale, unit, end: at };
  const raw = next.raw;
  const w = fold(raw);
  if (raw === '%' || raw.startsWith('%')) return { scale, unit: '%', end: next.end };
  if (CURRENCY_SYMBOL[raw[0]!]) return { scale, unit: CURRENCY_SYMBOL[raw[0]!]!, end: next.end };
  if (CURRENCY_WORD[w]) return { scale, unit: CURRENCY_WORD[w]!, end: next.end };
  if (PERCENT_WORDS.has(w)) return { scale, unit: '%', end: next.end };
  // Tenth round: the French data units `To`, `Go`, `Mo` are written with their capital; in lower case they are words (`£27,000 to
  // laboratory consumables` is not 27,000 terabytes).
  // Fourteenth round (vparse): `an` is the French year only in French (`1 an`, `un an de garantie`); before a word of a vowel sound
  // (`hour`, `item`, `employee`) in a text that is not French it is the English article of a rate (`£68 an hour`, `£3 an item`),
  // which `periodOf` reads as such (it was read as 68 years). The language is read without that `an`, an English word itself.
  const article = w === 'an' && /^[\s\u00a0]+[aeiouhAEIOUH]/u.test(text.slice(next.end, next.end + 3)) && detectLanguage(wordsOf(text).filter((x) => x !== 'an')) !== 'fr';
  const measure = (CASED_UNITS.has(w) && raw[0] === w[0]) || article ? undefined : MEASURES[w];
  if (measure) return { scale: scale * measure.factor, unit: measure.unit, end: next.end, measure };
  if ((w === 'per' || w === 'pour') && /^[\s]*cent\b/i.test(text.slice(next.end, next.end + 8))) return { scale, unit: '%', end: next.end + 5 };
  if (/^\p{L}+$/u.test(w) && !STOP_WORDS.has(w) && w.length > 1) unit = stem(w);
  return { scale, unit, end: at };
}

/** A currency written before the number (`€ 12`, `$3.5bn`, `EUR 5,000`). */
const CURRENCY_BEFORE = new RegExp(`(€|\\$|£|\\b(?:${CURRENCY_CODES.join('|')}))[\\s\\u00a0\\u202f]?$`, 'u');

function currencyBefore(text: string, start: number): { unit: string; length: number } | null {
  const before = text.slice(Math.max(0, start - 5), start);
  const m = CURRENCY_BEFORE.exec(before);
  if (!m) return null;
  return { unit: CURRENCY_SYMBOL[m[1]!] ?? m[1]!.toUpperCase(), length: m[0].length };
}

/**
 * The amounts of a text: digits with group and decimal separators (`1 200 000`, `1,2`, `12.5`), a scale
 * word or letter (`million`, `milliards`, `m`, `k`), a currency before or after, a percent sign or word,
 * else the stem of the word that follows as the unit. A few number words (`two` to `hundred`, `deux`
 * to `cent`) count too. Spans in `skip` (dates) are not read.
 */
export function quantities(text: string, stem: (w: string) => string, skip: readonly Span[] = []): Quantity[] {
  const out: Quantity[] = [];
  NUMBER.lastIndex = 0;
  for (let m = NUMBER.exec(text); m; m = NUMBER.exec(text)) {
    const start = m.index;
    const numEnd = start + m[0].length;
    if (m[0].length > 30 || overlaps(skip, start, numEnd)) continue;
    const value = parseDigits(m[1]!, m[2]);
    if (!Number.isFinite(value)) continue;
    const prefix = currencyBefore(text, start);
    const suffix = readSuffix(text, numEnd, stem);
    const unit = prefix?.unit ?? suffix.unit;
    // A currency before the figure says what it counts: a letter after it is no unit of measure (`£1.2 m`).
    const measure = prefix ? undefined : suffix.measure;
    // The quantity's span holds its currency, a code (`EUR 12,000`) as well as a sign: its words are the amount's, not the text's.
    out.push({ value: value * suffix.scale, figure: figureOf(value, suffix), unit, dimension: dimensionOf(unit, measure), start: prefix ? start - prefix.length : start, end: Math.max(numEnd, suffix.end) });
  }
  // Compound number words: `ninety-nine`, `twenty five`, `ninety-nine point five` (English).
  const taken: Span[] = [...skip];
  COMPOUND.lastIndex = 0;
  for (let m = COMPOUND.exec(text); m; m = COMPOUND.exec(text)) {
    const tens = m[1] ? TENS[fold(m[1])]! : 0;
    const units = m[2] ? DIGIT_WORDS.indexOf(fold(m[2])) : m[3] ? DIGIT_WORDS.indexOf(fold(m[3])) : 0;
    if (!m[1] && !m[4]) continue;
    let value = tens + Math.max(units, 0);
    if (m[4]) value = Number(`${value}.${[...m[4].matchAll(/\p{L}+/gu)].map((d) => DIGIT_WORDS.indexOf(fold(d[0]))).join('')}`);
    if (!Number.isFinite(value) || overlaps(taken, m.index, m.index + m[0].length)) continue;
    const end = m.index + m[0].length;
    const suffix = readSuffix(text, end, stem);
    out.push({ value: value * suffix.scale, figure: figureOf(value, suffix), unit: suffix.unit, dimension: dimensionOf(suffix.unit, suffix.measure), start: m.index, end: Math.max(end, suffix.end) });
    taken.push({ start: m.index, end });
  }
  const wordRe = /\p{L}+/gu;
  if (isAscii(text) && !NUMBER_WORD_IN_ASCII.test(text)) return out.sort((a, b) => a.start - b.start);
  for (let m = wordRe.exec(text); m; m = wordRe.exec(text)) {
    if (m[0].length > 12) continue;
    // A Map: own keys only (`constructor` or `toString` is a word of the text, not a number), and a lookup that does
    // not internalise every word of the text as `Object.hasOwn` on a dictionary did (half this function's time).
    const n = NUMBER_WORD.get(fold(m[0]));
    // Most words are no number: looked up first, then the spans read already (`taken` holds `skip`).
    if (n === undefined || overlaps(taken, m.index, m.index + m[0].length)) continue;
    // `per cent`, `pour cent`: a percent sign, not a hundred.
    if (n === 100 && /(?:per|pour)[\s-]+$/i.test(text.slice(Math.max(0, m.index - 6), m.index))) continue;
    const suffix = readSuffix(text, m.index + m[0].length, stem);
    // `one`, `un`, `une` are numbers only before a unit of measure or a currency (else an article).
    if (n === 1 && !suffix.measure && !(suffix.unit && DIMENSION_OF_CURRENCY.has(suffix.unit))) continue;
    out.push({ value: n * suffix.scale, figure: figureOf(n, suffix), unit: suffix.unit, dimension: dimensionOf(suffix.unit, suffix.measure), start: m.index, end: Math.max(m.index + m[0].length, suffix.end) });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The figure as written: with its scale word, without its unit's conversion (`14` of `14 km`, not 14 000 metres). */
const figureOf = (value: number, suffix: { scale: number; measure?: Measure }) => (value * suffix.scale) / (suffix.measure?.factor ?? 1);

function dimensionOf(unit: string | null, measure: Measure | undefined): string | null {
  if (measure) return measure.dimension;
  if (unit && DIMENSION_OF_CURRENCY.has(unit)) return 'money';
  if (unit === '%') return 'ratio';
  return null;
}

export const sameValue = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
