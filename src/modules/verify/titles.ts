/**
 * The title a text gives a name (issue 26, fifteenth round, vcontra7): `the fleet manager, Daniel Okonkwo`, `M. Julien
 * Caradec, responsable technique`, `Mathieu Rousset comme responsable événementiel`, `M. Gilles Normand était le secrétaire
 * de séance`, `Nettlefield's Privacy and Security Officer is Ms Oriane Falkstad`, `**Secrétaire de séance :** M. Luc
 * Barrière`, `Fiona MacRae (Chair)`. Read by the shapes documents and claims use for it (an apposition, a naming copula, `as`
 * / `comme` / `en qualité de`, a record field's label), without a parser. A title is returned as its content words, folded,
 * a French feminine or plural read as the masculine singular (`directrice` → `directeur`, `habilitées` → `habilite`), so the
 * caller can compare two titles by stem.
 */
import type { Entity } from '../../lib/language/entities.js';
import { foldedLetters, STOP_WORDS } from './text.js';
import { unnamed } from '../../lib/unnamed.js';

/** A courtesy title or honorific between a title and its name (`the Chair, Mr Daniel Osei`). */
const HONORIFIC = String.raw`(?:(?:mr|mrs|ms|miss|dr|prof|m|mme|mlle|me|ma[îi]tre)\.?\s+)?`;
/** Determiners opening a title (`the`, `its`, `la`, `notre`) or a possessor (`Meravex's`). */
const OPENER = String.raw`(?:the|its|our|their|his|her|le|la|l['’]|notre|son|sa|leur|\p{L}+['’]s)`;

/** A title before its name, the apposition's comma between (`by the fleet manager, Daniel Okonkwo`). */
const BEFORE_COMMA = new RegExp(String.raw`^${OPENER}\s+([^,.;:()|\n—–]{2,60}?)[\s*_]*,[\s*_]*${HONORIFIC}$`, 'iu');
/** A title before a naming copula (`Nettlefield's Privacy and Security Officer is Ms Oriane Falkstad`, `Le gérant de X est M. Y`). */
const BEFORE_COPULA = new RegExp(String.raw`^${OPENER}\s*([^,.;:()|\n—–]{2,60}?)\s+(?:is|was|will\s+be|est|[ée]tait|sera)\s+${HONORIFIC}$`, 'iu');
/** A record field whose label is the title (`**Secrétaire de séance :** M. Luc Barrière`, `- Chair: Fiona MacRae`). */
const FIELD_LABEL = new RegExp(String.raw`(?:^|\n|\|)[\s>*_#+•-]*([^:|\n]{2,60}?)[\s*_]*:[\s*_]*${HONORIFIC}$`, 'iu');
/** A title after its name: an apposition (`, responsable technique`), brackets (`(Chair)`), `as` / `comme` / `en qualité de`, a copula. */
const AFTER = new RegExp(
  String.raw`^[\s*_]*(?:,|\(|\s(?:as|comme|en\s+qualit[ée]\s+de|en\s+tant\s+que|(?:is|was|est|[ée]tait|sera)(?=\s+(?:the|le|la|l['’]|its|our|their|son|sa|notre|\p{L}+['’]s)\s)))[\s*_]*(?:${OPENER}\s*)?([^,.;:()|\n—–]{2,60}?)[\s*_]*(?=[,.;:)|\n—–]|$)`,
  'iu',
);

/** AFTER with a title of any length up to its clause's end (titleHeadsOf cuts it before its complement), its possessor of up to four words. */
const AFTER_RAW = new RegExp(
  String.raw`^[\s*_]*(?:,|\(|\s(?:as|comme|en\s+qualit[ée]\s+de|en\s+tant\s+que|(?:is|was|est|[ée]tait|sera)(?=\s+(?:the|le|la|l['’]|its|our|their|son|sa|notre|(?:[\p{L}-]+\s+){0,3}\p{L}+['’]s)\s)))[\s*_]*(?:(?:${OPENER}|(?:[\p{L}-]+\s+){1,3}\p{L}+['’]s)\s*)?([^,.;:()|\n—–]{2,110}?)[\s*_]*(?=[,.;:)|\n—–]|$)`,
  'iu',
);

/** Words that never open a title: prepositions, relatives, conjunctions, a verb's auxiliaries (`, who chairs`, `, on 12 May`). */
const NOT_OPENING = new Set([
  'on', 'at', 'in', 'by', 'for', 'from', 'to', 'with', 'who', 'which', 'that', 'and', 'or', 'but', 'if', 'when', 'where', 'has', 'have',
  'had', 'will', 'would', 'may', 'can', 'must', 'should', 'was', 'is', 'are', 'were', 'does', 'did', 'not', 'no', 'le', 'la', 'les',
  'en', 'au', 'aux', 'a', 'de', 'du', 'des', 'par', 'pour', 'avec', 'sur', 'dans', 'qui', 'que', 'dont', 'et', 'ou', 'mais', 'ne',
  'n', 'a', 'an', 'the', 'signed', 'dated', 'issued', 'approved', 'sign', 'signe', 'redige', 'date', 'approuve', 'emis', 'emise',
  'company', 'number', 'registered', 'ltd', 'limited', 'sarl', 'sas', 'sa', 'plc', 'inc', 'gmbh', 'tel', 'phone', 'email', 'mail',
]);

/** The masculine singular of a French title word (`directrice`, `gérante`, `trésorière`, `habilitées`), as written otherwise. */
export function masculine(w: string): string {
  let x = w.length > 4 ? w.replace(/(?<=[^s])[sx]$/u, '') : w;
  if (x.length <= 4) return x;
  if (/rice$/u.test(x)) x = x.replace(/rice$/u, 'eur');
  else if (/euse$/u.test(x)) x = x.replace(/euse$/u, 'eur');
  else if (/iere$/u.test(x)) x = x.replace(/iere$/u, 'ier');
  else if (/ee$/u.test(x)) x = x.replace(/ee$/u, 'e');
  else if (/(?:ant|ent)e$/u.test(x)) x = x.slice(0, -1);
  else if (/enne$/u.test(x)) x = x.slice(0, -2);
  return x;
}

/** A title's content words (folded, stop words and honorifics out, French forms in the masculine singular); null when none or too long. */
function contentOf(raw: string): string[] | null {
  const ws = foldedLetters(raw.replace(/^\p{L}+['’]s\s+/u, ''));
  if (ws.length === 0 || ws.length > 8 || NOT_OPENING.has(ws[0]!) || /\d/.test(raw)) return null;
  const out = ws.filter((w) => !STOP_WORDS.has(w) && !/^(?:mr|mrs|ms|dr|prof|mme|mlle|maitre)$/u.test(w)).map(masculine);
  return out.length > 0 ? out : null;
}

/**
 * The titles `text` gives the name `e` (its words as the tagger read them): each as its content words (contentOf). A name
 * whose own words open with the title (`Operations Manager Margaret Doyle`) is read by the caller (`sharedPrefix`).
 */
export function titlesOf(text: string, e: Pick<Entity, 'start' | 'end'>): string[][] {
  const out: string[][] = [];
  const before = text.slice(Math.max(0, e.start - 90), e.start);
  // The nearest title before the name: read from each word start, the rightmost first (`approved by the fleet manager, …`
  // is `fleet manager`, not `fuel card policy was approved by the fleet manager`).
  for (const re of [BEFORE_COMMA, BEFORE_COPULA]) {
    for (let i = before.length - 1; i >= 0; i--) {
      if (i > 0 && !/[\s(*_]/u.test(before[i - 1]!)) continue;
      const m = re.exec(before.slice(i));
      if (!m) continue;
      const c = contentOf(m[1]!);
      if (c) out.push(c);
      break;
    }
  }
  const f = FIELD_LABEL.exec(before);
  const label = f ? contentOf(f[1]!) : null;
  if (label) out.push(label);
  const m = AFTER.exec(text.slice(e.end, e.end + 90));
  const c = m ? contentOf(m[1]!) : null;
  if (c) out.push(c);
  return out;
}

/**
 * Two names of several words opening with the same words and differing after them (`Operations Manager Margaret Doyle`,
 * `Operations Manager Fiona Callaghan`): the shared opening is a title each holder's name carries. Returns the title's words
 * when it has two words or more and each name has two words or more of its own after it, sharing none; null otherwise
 * (`Kestrel Strait` and `Kestrel Strait Ferries` are one name written longer; `Councillor Sarah Lee` and `Councillor Ahmed
 * Khan` two holders of a rank many hold).
 */
export function sharedPrefix(a: readonly string[], b: readonly string[]): string[] | null {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  // A title of one word before a name is often a rank many hold (`Councillor`, `Captain`): a post needs two (`Operations Manager`).
  if (k < 2 || a.length - k < 2 || b.length - k < 2) return null;
  const x = a.slice(k);
  const y = b.slice(k);
  return x.some((w) => y.includes(w)) ? null : a.slice(0, k).filter((w) => !STOP_WORDS.has(w)).map(masculine);
}

/**
 * Seventeenth round (vpara): the title a verb of office gives its agent (`Julia Harrow chaired the meeting`, `est dirigée par Mme
 * Claire Montagnon`, `gérée par Jérôme Lemarchand`): the office's noun, as titlesOf returns it (`chair`, `directeur`, `gerant`).
 * The name is the verb's subject, or its agent after `by` / `par` in the passive.
 */
const OFFICE: [RegExp, string][] = [
  [/^(?:chair(?:s|ed)?|co-?chair(?:s|ed)?)$/u, 'chair'],
  [/^(?:preside[sd]?|presided|presidee?s?|presidait|presidera)$/u, 'president'],
  [/^(?:manage[sd]?|managed)$/u, 'manager'],
  [/^(?:direct(?:s|ed)?)$/u, 'director'],
  [/^(?:dirige(?:e|es|s|ait|ra)?)$/u, 'directeur'],
  [/^(?:gere(?:e|es|s|ait|ra)?)$/u, 'gerant'],
];
const officeOf = (verb: string): string | null => OFFICE.find(([re]) => re.test(verb))?.[1] ?? null;
const AGENT_AFTER = /^[\s*_]*(?:has\s+|had\s+|a\s+|avait\s+)?(\p{L}+(?:-\p{L}+)?)(?![\p{L}])/iu;
const PASSIVE_BEFORE = /(?<![\p{L}])(?:is|are|was|were|be|been|est|sont|[ée]tait|[ée]taient|sera|seront|a\s+[ée]t[ée]|ont\s+[ée]t[ée])\s+(\p{L}+)\s+(?:by|par)\s+(?:(?:mr|mrs|ms|dr|prof|m|mme|mlle|me)\.?\s+)?$/iu;

export function officeTitlesOf(text: string, e: Pick<Entity, 'start' | 'end'>): string[][] {
  const fold = unnamed((w: string) => w.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase());
  const out: string[][] = [];
  const after = AGENT_AFTER.exec(text.slice(e.end, e.end + 40));
  const active = after ? officeOf(fold(after[1]!)) : null;
  if (active) out.push([active]);
  const before = PASSIVE_BEFORE.exec(text.slice(Math.max(0, e.start - 60), e.start));
  const passive = before ? officeOf(fold(before[1]!)) : null;
  if (passive) out.push([passive]);
  return out;
}

/** A preposition opening a title's complement (`secretary of the Wetherfield club`, `directeur des opérations`). */
const COMPLEMENT = /\s(?:of|for|at|in|with|de|du|des|d['’]|pour|chez|à|au|aux)\s[\s\S]*$/iu;

/**
 * Eighteenth round (vprec9): the heads of the titles a claim gives a name: titlesOf read with each title cut before its
 * complement (`the secretary of the Wetherfield model railway club` → `secretary`, `musical director for the choir tour` →
 * `musical director`), and a plural possessor read as a possessor (`Skyline Hives' lead beekeeper`). A title of seven words or
 * more, which titlesOf drops, keeps its head.
 */
export function titleHeadsOf(text: string, e: Pick<Entity, 'start' | 'end'>): string[][] {
  // `Hives' lead` → `Hive's lead` (as long, offsets kept): OPENER reads `\p{L}+['’]s`.
  const read = text.replace(/(?<=\p{L})s(['’])(?=\s)/gu, '$1s');
  const out: string[][] = [];
  const m = AFTER_RAW.exec(read.slice(e.end, e.end + 120));
  const raw = m ? m[1]!.replace(COMPLEMENT, '') : null;
  const c = raw ? contentOf(raw) : null;
  if (c) out.push(c);
  const before = read.slice(Math.max(0, e.start - 90), e.start);
  // The apposition's title is the nearest (`approved by the fleet manager, X`); the copula's subject is read whole, its head
  // first (`Le vérificateur aux comptes de l'USM est M. X` is `vérificateur`, not `USM`).
  for (const [re, leftmost] of [[BEFORE_COMMA, false], [BEFORE_COPULA, true]] as const) {
    for (let k = 0; k < before.length; k++) {
      const i = leftmost ? k : before.length - 1 - k;
      if (i > 0 && !/[\s(*_]/u.test(before[i - 1]!)) continue;
      const b = re.exec(before.slice(i));
      if (!b) continue;
      const h = contentOf(b[1]!.replace(COMPLEMENT, ''));
      if (h) out.push(h);
      break;
    }
  }
  return out;
}
