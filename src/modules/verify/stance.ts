/**
 * Sixteenth round (vcontra8): what a text says of a few yes-or-no matters that writers state by opposite words as often as by a
 * negation: whether a thing is allowed (`may bring` / `not allowed`, `interdit`), included or covered (`covered` / `excluded`),
 * subject to a tax (`soumises à la TVA` / `exonérées`), charged for (`charges extra` / `at no charge`, `free of charge`),
 * refunded (`remboursé` / `non remboursable`, `restituée` / `conservée`), required (`mandatory` / `optional`), accepted
 * (`accepte` / `refusés`), applied, provided. Each word of such a matter says yes or no by its own meaning, reversed where
 * a negation of its clause governs it (scope.ts): `not allowed` and `prohibited` both say no to *allowed*, `not free of
 * charge` says yes to *charged*.
 */
import type { ScopedWord } from './scope.js';

/** A matter a word speaks of, and whether the word as written says yes to it. */
interface Said {
  matter: string;
  yes: boolean;
}

/** Folded words saying yes (`yes`) or no (`no`) to a matter, as written (a negation governing them reverses them). */
const MATTERS: { matter: string; yes: RegExp; no: RegExp }[] = [
  {
    matter: 'allowed',
    yes: /^(?:allow(?:s|ed)?|permit(?:s|ted)?|authori[sz]ed|may|can|autorise(?:e|s|es)?|permise?s?|peut|peuvent|pourra|pourront)$/,
    no: /^(?:cannot|prohibit(?:s|ed)?|forbid(?:s|den)?|banned|interdite?s?|defendu(?:e|s|es)?)$/,
  },
  {
    matter: 'included',
    yes: /^(?:includ(?:e|es|ed)|cover(?:s|ed)?|inclus(?:e|es)?|compris(?:e|es)?|couverte?s?|inclu(?:t|ent)|comprenn?ent|comprend)$/,
    no: /^(?:exclud(?:e|es|ed)|exclue?s?)$/,
  },
  { matter: 'taxed', yes: /^(?:soumise?s?|assujettie?s?|taxable|imposables?)$/, no: /^(?:exoneree?s?|exempte?s?|exempted)$/ },
  { matter: 'charged', yes: /^(?:charg(?:e|es|ed)|payable|billed|payante?s?|facturee?s?)$/, no: /^(?:free|gratuite?s?|gratuitement)$/ },
  {
    matter: 'refunded',
    yes: /^(?:refund(?:s|ed|able)?|rembours(?:e|ee|es|ees|able|ables)|restituee?s?)$/,
    no: /^(?:non-?refundable|conservee?s?|retained)$/,
  },
  { matter: 'required', yes: /^(?:required|mandatory|compulsory|obligatoires?|requise?s?)$/, no: /^(?:optional|facultati(?:f|ve|fs|ves))$/ },
  { matter: 'accepted', yes: /^(?:accept(?:s|ed)?|acceptee?s?|accepte(?:nt)?)$/, no: /^(?:refus(?:e|es|ed|ee|ees)|reject(?:s|ed)?|rejetee?s?)$/ },
  { matter: 'applied', yes: /^(?:appl(?:y|ies|ied)|applicable|appliquee?s?|applique(?:nt)?)$/, no: /^$/ },
  { matter: 'provided', yes: /^(?:provided|fournie?s?)$/, no: /^$/ },
];

/** Modals of permission: `may not`, `can never` say no though the negation follows them. */
const MODAL = /^(?:may|can|could)$/;

/**
 * What the words of a text say of each matter: per matter, the offsets of its words and whether each says yes. `charge` in `free
 * of charge` is the phrase's (its `free` says no), `se charger de` is a French verb of doing, not of charging, and a word governed
 * by a preposition of absence (`without charge`, `sans frais`) is negated.
 */
export function mattersSaid(scoped: readonly ScopedWord[]): Map<string, { yes: boolean; start: number; end: number }[]> {
  const out = new Map<string, { yes: boolean; start: number; end: number }[]>();
  for (let i = 0; i < scoped.length; i++) {
    const w = scoped[i]!;
    const prev = scoped[i - 1]?.w;
    if (/^charg/.test(w.w) && (prev === 'of' || prev === 'se' || prev === 's')) continue;
    // `free from defects`, `feel free to`: not a price.
    if (w.w === 'free' && (/^(?:from|to)$/.test(scoped[i + 1]?.w ?? '') || prev === 'feel')) continue;
    // `is (not) part of the termly fee`: (not) included in it; `sublet part of the premises` is no inclusion.
    if (w.w !== 'part' && w.w !== 'outside' && w.w !== 'scope' && !ANY_MATTER.test(w.w)) continue;
    const phrase = w.w === 'part' || w.w === 'outside' || w.w === 'scope' ? phraseSaid(scoped, i) : null;
    const said = phrase ?? saidOf(w.w);
    if (!said) continue;
    let negated = w.negated;
    if (MODAL.test(w.w) && /^(?:not|never)$/.test(scoped[i + 1]?.w ?? '')) negated = true;
    // `may`/`can` read as permission only before a verb (`may bring`, `may be used`), not in `as soon as it can`.
    if (MODAL.test(w.w) && !scoped[i + 1]) continue;
    let list = out.get(said.matter);
    if (!list) out.set(said.matter, (list = []));
    // A phrase's span holds its words (`outside the scope`, `out of scope`).
    list.push({ yes: said.yes !== negated, start: phrase ? scoped[phrase.from]!.start : w.start, end: phrase ? scoped[phrase.to]!.end : w.end });
  }
  return out;
}

/**
 * Eighteenth round (vneg): a matter said by a phrase: `is (not) part of the termly fee` (included; `sublet part of the premises` is
 * no inclusion), `outside the scope of`, `out of scope` (not included).
 */
function phraseSaid(scoped: readonly ScopedWord[], i: number): (Said & { from: number; to: number }) | null {
  const w = scoped[i]!.w;
  const prev = scoped[i - 1]?.w ?? '';
  const next = scoped[i + 1]?.w ?? '';
  if (w === 'part') return next === 'of' && /^(?:not|is|are|was|were|be|been)$/.test(prev) ? { matter: 'included', yes: true, from: i, to: i } : null;
  // `falls outside the scope of`: the verb is the phrase's.
  const from = /^(?:fall|falls|fell|fallen|lie|lies|is|are)$/.test(prev) ? i - 1 : i;
  if (w === 'outside') return next === 'the' && scoped[i + 2]?.w === 'scope' ? { matter: 'included', yes: false, from, to: i + 2 } : null;
  return prev === 'of' && scoped[i - 2]?.w === 'out' ? { matter: 'included', yes: false, from: i - 2, to: i } : null;
}

/** Whether a folded word may say a matter (mattersSaid reads it in its clause): a quick test before a text's negations are read. */
export const maySayMatter = (w: string): boolean => w === 'part' || w === 'outside' || w === 'scope' || (ANY_MATTER.test(w) && saidOf(w) !== null);
/** Every matter's words in one test (a word matching none is read no further). */
const ANY_MATTER = new RegExp(MATTERS.flatMap((m) => [m.yes.source, m.no.source]).filter((x) => x !== '^$').join('|'));

function saidOf(w: string): Said | null {
  for (const m of MATTERS) {
    if (m.yes.test(w)) return { matter: m.matter, yes: true };
    if (m.no.test(w)) return { matter: m.matter, yes: false };
  }
  return null;
}

/** What a text says of one matter: yes, no, or null where it says nothing of it or both. */
export function stanceOn(said: Map<string, { yes: boolean }[]>, matter: string): boolean | null {
  const list = said.get(matter);
  if (!list || list.length === 0) return null;
  return list.every((x) => x.yes) ? true : list.every((x) => !x.yes) ? false : null;
}
