/**
 * Personal data masking for turns that leave for an external model (docs/chat.md, "PII masking").
 * E-mail addresses, phone numbers, IBANs (mod-97 valid) and payment card numbers (Luhn valid) are
 * replaced by placeholders such as `[EMAIL_1]`; the same value always gets the same placeholder
 * within a turn, and the answer is restored before it reaches the caller or the database.
 */

export type PiiKind = 'IBAN' | 'CARD' | 'EMAIL' | 'PHONE';

interface Detector {
  kind: PiiKind;
  pattern: RegExp;
  valid?: (match: string) => boolean;
}

const digitsOf = (s: string) => s.replace(/\D/g, '');

function luhnValid(candidate: string): boolean {
  const digits = digitsOf(candidate);
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function ibanValid(candidate: string): boolean {
  const iban = candidate.replace(/\s+/g, '').toUpperCase();
  if (iban.length < 15 || iban.length > 34) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** Order matters: IBANs and cards are long digit runs that the phone rule would otherwise take. */
const DETECTORS: Detector[] = [
  { kind: 'IBAN', pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g, valid: ibanValid },
  { kind: 'CARD', pattern: /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g, valid: luhnValid },
  { kind: 'EMAIL', pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g },
  {
    kind: 'PHONE',
    // International (+33 6 12 34 56 78, 0044 20 7946 0958), French national (06 12 34 56 78),
    // North American ((415) 555-0123, 415-555-0123).
    pattern: /(?:(?<![\w+])(?:\+|00)\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,6}(?!\d))|(?:(?<!\d)0\d(?:[ .-]?\d{2}){4}(?!\d))|(?:(?<!\d)\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}(?!\d))/g,
    valid: (m) => digitsOf(m).length >= 9 && digitsOf(m).length <= 15,
  },
];

const PLACEHOLDER = /\[(IBAN|CARD|EMAIL|PHONE)_(\d+)\]/g;
/** The longest placeholder text a stream may have to hold back while it is incomplete. */
const MAX_PLACEHOLDER = '[PHONE_9999]'.length;

export class PiiMasker {
  private readonly byValue = new Map<string, string>();
  private readonly byPlaceholder = new Map<string, string>();
  private readonly counters = new Map<PiiKind, number>();

  /** Whether anything was masked so far. */
  get masked(): boolean {
    return this.byPlaceholder.size > 0;
  }

  mask(text: string): string {
    let out = text;
    for (const d of DETECTORS) {
      out = out.replace(d.pattern, (match) => {
        if (d.valid && !d.valid(match)) return match;
        return this.placeholderFor(d.kind, match);
      });
    }
    return out;
  }

  /** Replaces the placeholders this masker issued by their values; others are left as written. */
  restore(text: string): string {
    if (this.byPlaceholder.size === 0) return text;
    return text.replace(PLACEHOLDER, (p) => this.byPlaceholder.get(p) ?? p);
  }

  /** Masks every string inside a JSON value (tool results, context data). */
  maskValue<T>(value: T): T {
    return mapStrings(value, (s) => this.mask(s)) as T;
  }

  restoreValue<T>(value: T): T {
    return mapStrings(value, (s) => this.restore(s)) as T;
  }

  /** Restores a streamed answer delta by delta, holding back a placeholder cut between two deltas. */
  streamRestorer(): { push(delta: string): string; flush(): string } {
    let pending = '';
    return {
      push: (delta) => {
        pending += delta;
        const open = pending.lastIndexOf('[');
        const cut = open >= 0 && !pending.includes(']', open) && pending.length - open < MAX_PLACEHOLDER ? open : pending.length;
        const ready = pending.slice(0, cut);
        pending = pending.slice(cut);
        return this.restore(ready);
      },
      flush: () => {
        const rest = this.restore(pending);
        pending = '';
        return rest;
      },
    };
  }

  private placeholderFor(kind: PiiKind, value: string): string {
    const known = this.byValue.get(value);
    if (known) return known;
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    const placeholder = `[${kind}_${n}]`;
    this.byValue.set(value, placeholder);
    this.byPlaceholder.set(placeholder, value);
    return placeholder;
  }
}

function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)]));
  }
  return value;
}

/** A masker that masks nothing: used when the turn stays on the local model. */
export class NoMasking extends PiiMasker {
  override mask(text: string): string {
    return text;
  }
}
