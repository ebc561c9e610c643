/**
 * Who acts for whom (issue 26, sixth round): a name a text says acts for a party, read by the shape contracts and
 * forms use for it: `signed for the Tenant by Rachel Okafor`, `on behalf of the Landlord: Simon Fenwick`, `Pour le
 * Client : Élodie Mercier`, `au nom du bailleur par M. Julien Peyrac`. The party is a role (`Tenant`, `Client`) or a
 * name; the name is the entity right after `by`, `par` or a colon.
 */
import type { Entity } from '../../lib/language/entities.js';
import type { Span } from './scope.js';
import { unnamed } from '../../lib/unnamed.js';

export interface Role {
  /** The party's words, folded, without its article. */
  party: string[];
  /** Where the party stands in the text. */
  partySpan: Span;
  name: Entity;
}

/** The words before a name that say whom it acts for: a preposition of representation, the party, then `by`, `par` or a colon. */
const FOR_PARTY =
  /(?<![\p{L}])(?:on\s+behalf\s+of|for|pour\s+le\s+compte\s+(?:du|de\s+la|de\s+l['’]|des|de|d['’])|au\s+nom\s+(?:du|de\s+la|de\s+l['’]|des|de|d['’])|pour)\s+(?:the\s+|le\s+|la\s+|les\s+|l['’]\s*)?([\p{L}][\p{L}'’&.-]*(?:\s+[\p{L}][\p{L}'’&.-]*){0,4})[\s*_]*(?:by|par|:)[\s*_]*(?:(?:mr|mrs|ms|dr|m|mme|mlle|me)\.?\s+)?$/iu;

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

/** The roles a text states: each name of `entities` right after `for <party> by` (or its French and colon forms). */
export function rolesOf(text: string, entities: readonly Entity[]): Role[] {
  const out: Role[] = [];
  for (const name of entities) {
    if (name.kind !== 'name') continue;
    // The words just before the name, within its clause (a sentence end, a semicolon, a cell).
    const clause = text.slice(Math.max(0, name.start - 80), name.start).split(/[.;|\n]\s/).pop()!;
    const m = FOR_PARTY.exec(clause);
    if (!m) continue;
    const at = name.start - clause.length + m.index + m[0].indexOf(m[1]!);
    out.push({ party: fold(m[1]!).split(/[^\p{L}]+/u).filter(Boolean), partySpan: { start: at, end: at + m[1]!.length }, name });
  }
  return out;
}

/**
 * How the sentence's roles stand against the claim's: `agree` when each name the claim says acts for a party acts for
 * it there; `other` when the sentence has that name act for another party only (`signed for the Landlord by Simon
 * Fenwick` against `signed for the tenant by Simon Fenwick`); `replaced` when the sentence has another name act for the
 * claim's party and the claim's name for another party or not at all (`… and for the Tenant by Rachel Okafor`); null
 * when the sentence says nothing of them, or names the claim's name without a role (`for the Landlord by A and B`).
 * `sameParty` compares two parties' words (by stem).
 */
export function compareRoles(
  claim: readonly Role[],
  sentence: readonly Role[],
  names: readonly Entity[],
  sameParty: (a: string[], b: string[]) => boolean,
): 'agree' | 'other' | 'replaced' | null {
  let out: 'agree' | 'other' | 'replaced' | null = null;
  const same = unnamed((a: Entity, b: Entity) => a.words.join(' ') === b.words.join(' '));
  const shares = unnamed((a: Entity, b: Entity) => a.words.some((w) => b.words.includes(w)));
  for (const c of claim) {
    const own = sentence.filter((r) => same(r.name, c.name));
    if (own.some((r) => sameParty(r.party, c.party))) {
      out ??= 'agree';
      continue;
    }
    const unroled = names.some((n) => same(n, c.name)) && own.length === 0;
    if (unroled) continue;
    if (sentence.some((r) => sameParty(r.party, c.party) && !shares(r.name, c.name))) return 'replaced';
    if (own.length > 0) out = 'other';
  }
  return out;
}

/**
 * Seventeenth round (vpara): a name the text says acted for a party as the subject of its verb of signing or agreeing
 * (`Thomas Hollins signed the grain storage agreement on behalf of the Co-op`, `La présidente Odile Ferrand a signé la
 * convention au nom des Jardins des Coteaux`, `Mme Solène Guérin qui signe le contrat au nom de l'association`): the party
 * ends its clause.
 */
const SUBJECT_FOR_PARTY =
  /^[\s*_]*(?:qui\s+)?(?:has\s+|have\s+|had\s+|will\s+|a\s+|avait\s+|va\s+)?(?:signed|signs|sign|accepted|accepts|approved|approves|sign[ée]e?s?|signe|signera|accept[ée]e?s?|approuv[ée]e?s?)(?![\p{L}])([^.;:\n|]{0,60}?)(?:on\s+behalf\s+of|pour\s+le\s+compte\s+(?:du|de\s+la|de\s+l['’]|des|de|d['’])|au\s+nom\s+(?:du|de\s+la|de\s+l['’]|des|de|d['’])|for|pour)\s+(?:the\s+|le\s+|la\s+|les\s+|l['’]\s*)?([\p{L}][\p{L}'’&.-]*(?:\s+[\p{L}][\p{L}'’&.-]*){0,4})[\s*_]*(?=[.;\n]|$)/iu;

export function agentRolesOf(text: string, entities: readonly Entity[]): Role[] {
  const out: Role[] = [];
  for (const name of entities) {
    if (name.kind !== 'name') continue;
    const after = text.slice(name.end, name.end + 160);
    const m = SUBJECT_FOR_PARTY.exec(after);
    if (!m) continue;
    const at = name.end + m.index + m[0].lastIndexOf(m[2]!);
    out.push({ party: fold(m[2]!).split(/[^\p{L}]+/u).filter(Boolean), partySpan: { start: at, end: at + m[2]!.length }, name });
  }
  return out;
}

/** A party a document defines: the words it calls it by (`Buyer`, `Co-op`, `Loueur`) and the words of its entry (name, address). */
export interface DefinedParty {
  role: string[];
  entry: string[];
}

/** `Greenleaf Café Group Ltd, 22 Wellington Street ("the Buyer")`, `… (the "Co-op")`, `…, ci-après « le Client »`. */
const DEFINED_AS =
  /\(\s*(?:hereinafter\s+|ci-apr[èe]s\s+(?:d[ée]nomm[ée]e?s?\s+)?)?(?:the\s+)?["“«]\s*(?:the\s+|le\s+|la\s+|l['’]\s*)?([^"”»()\n]{2,30}?)\s*["”»]\s*\)|ci-apr[èe]s\s+(?:d[ée]nomm[ée]e?s?\s+)?["“«]\s*(?:le\s+|la\s+|l['’]\s*)?([^"”»()\n]{2,30}?)\s*["”»]/giu;
/** A record field naming a party by its label (`**Owner:** BoxSpace Site Solutions Ltd, Dock Road`, `**Loueur :** CuisiLoc Pro SAS`). */
const PARTY_FIELD = /^[\s>*_+•-]*\**\s*(\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*)?)\s*\**\s*:\s*\**\s*(\p{Lu}[^\n]{2,200})$/gmu;

/** The parties a document defines, by the two shapes above; `words` folds a text into its words. */
export function definedParties(content: string, words: (text: string) => string[]): DefinedParty[] {
  const out: DefinedParty[] = [];
  for (const m of content.matchAll(DEFINED_AS)) {
    const lineStart = content.lastIndexOf('\n', m.index) + 1;
    const entry = content.slice(lineStart, m.index).split(/[;]|\b(?:and|et|between|entre)\b/iu).pop()!;
    out.push({ role: words(m[1] ?? m[2]!), entry: words(entry) });
  }
  for (const m of content.matchAll(PARTY_FIELD)) out.push({ role: words(m[1]!), entry: words(m[2]!) });
  return out.filter((p) => p.role.length > 0 && p.entry.length > 0);
}
