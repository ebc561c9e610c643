/**
 * What a web query may carry (docs/light.md, "Web"): personal data masked (e-mail addresses, phone
 * numbers, IBANs, payment card numbers: the chat's detectors) and removed, and every dossier name and
 * client name of the workspace removed, whatever its case and accents. What is left is sent.
 */
import { PiiMasker } from '../../lib/pii.js';
import { foldText } from '../models/index.js';

const PLACEHOLDER = /\[(?:IBAN|CARD|EMAIL|PHONE)_\d+\]/g;

/** A pattern matching `name` as a whole phrase in NFD lowercase text, with or without accents. */
function phrasePattern(name: string): RegExp | null {
  const folded = foldText(name).replace(/\s+/g, ' ').trim();
  if (!folded) return null;
  const body = [...folded]
    // Only syntax characters may be escaped under the `u` flag (an escaped hyphen is an error there).
    .map((ch) => (ch === ' ' ? '\\s+' : `${ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\p{M}*`))
    .join('');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'gu');
}

export function redactQuery(question: string, names: readonly string[]): string {
  let text = new PiiMasker().mask(question).replace(PLACEHOLDER, ' ');
  text = text.normalize('NFD').toLowerCase();
  // Longest first, so that "Kestrel Freight" goes before "Kestrel".
  for (const name of [...new Set(names)].sort((a, b) => b.length - a.length)) {
    const pattern = phrasePattern(name);
    if (pattern) text = text.replace(pattern, ' ');
  }
  // Brackets and quotes left around what was removed are dropped with it.
  return text.normalize('NFC').replace(/[()[\]{}<>"]/g, ' ').replace(/\s+/g, ' ').replace(/\s+([?!.,;:])/g, '$1').trim();
}
