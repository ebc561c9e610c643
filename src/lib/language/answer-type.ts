/**
 * What a question asks for (how much, when, who, how long, where), in English and French, and whether a
 * passage holds something of that type: a figure, a date or a time limit, a person or body, a duration,
 * a place. Used by light's gate (a passage without the asked type does not answer) and by the built-in
 * model (it answers with the sentence holding the type).
 */
import { codesOf, namesOf } from './entities.js';
import { LEX, nounClasses } from './wordnet.js';

/** `deadline`: a when-question about an obligation (`when must…`, `by when`), which a time limit answers too. */
export type AnswerType = 'amount' | 'date' | 'deadline' | 'person' | 'duration' | 'place';

const OBLIGATION = /\b(must|should|has to|have to|need to|needs to|by when|deadline|latest|at the latest|doit|doivent|faut|au plus tard|delai|echeance|date limite)\b/;

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

const TIME_UNITS = 'days?|weeks?|months?|years?|hours?|minutes?|seconds?|fortnights?|jours?|semaines?|mois|ans?|annees?|heures?|minutes?|h|hrs?|min';

const PATTERNS: [AnswerType, RegExp][] = [
  ['duration', /\b(how long|how often|how frequently|(?:at )?what frequency|a quelle frequence|quelle (?:est la )?frequence|tous les combien|within what (?:time|period|delay)|in what time|for how long|how many (?:more )?(?:working |business |calendar )?(?:days|weeks|months|years|hours|minutes)|how (?:quickly|soon|far ahead|far in advance|much notice)|what (?:is the )?(?:notice|retention|warranty|response|resolution) (?:period|time)|combien de (?:temps|jours|semaines|mois|ans|annees|heures)|quelle (?:est la )?duree|pendant combien|dans quel delai|quel (?:est le )?delai|en combien de temps)\b/],
  ['date', /\b(when|what date|which date|by what date|on what date|from what date|what day|what year|which year|what time|quand|quelle date|a quelle date|depuis quand|jusqu a quand|a partir de quand|quel jour|en quelle annee|quelle annee|a quelle heure|(?:what|which) (?:is|was|are|were) the (?:date|day|deadline)|quelle (?:est|etait|sera) la date|quel (?:est|etait|sera) le (?:jour|dernier jour))\b/],
  ['amount', /\b(how much|how many|what (?:will|would|does|do|did|should|must) (?:\S+ ){1,8}?(?<!\bto )(?:cost|charge|pay)\b|what (?:\S+ ){0,2}?(?:price|rate|fee|fees|deposit|diameter|length|width|height|depth|thickness|allowance|surcharge)|how (?:heavy|big|large|loud|fast|far|tall|wide|high|deep|old|warm|cold|noisy|powerful)|what (?:is|was|are|were) the (?:price|cost|amount|fee|fees|rate|total|percentage|number|value|subtotal|balance|budget|sum|discount|deposit|salary|limit|cap|capacity|weight|size|level|rent|fare|fares|premium|wage|wages|deductible|excess)|what percentage|what share|combien|quel(?:le)? (?:est |etait |sont )?(?:le |la |les )?(?:montant|prix|cout|tarif|taux|nombre|total|pourcentage|valeur|solde|budget|somme|remise|plafond|poids|loyer|salaire|acompte|caution|frais|honoraires|cotisation|redevance))\b/],
  ['person', /\b(who|whom|whose|which (?:person|company|supplier|party|team|department|employee|manager|member|provider|customer|firm|body|committee)|qui|quelle (?:personne|societe|entreprise|equipe|compagnie|banque|organisation|agence)|quel (?:service|fournisseur|prestataire|membre|salarie|responsable|assureur|organisme|cabinet|interlocuteur|contact))\b/],
  ['place', /\b(where|in which (?:city|country|town|building|room|office|region|location|data ?cent(?:re|er))|in what (?:city|country|place)|which (?:city|country|room|building|location)|ou (?:se|est|sont|sera|seront|a|ont|doit|doivent|faut|peut|peuvent)|dans quel(?:le)? (?:ville|pays|salle|batiment|lieu|region)|quel(?:le)? (?:ville|pays|lieu|salle|adresse))\b/],
];

/** The type of answer a question asks for, or null (what, how, why: no type to check). */
export function answerTypeOf(question: string): AnswerType | null {
  const q = fold(question).replace(/[^\p{L}\p{N}\s]+/gu, ' ').replace(/\s+/g, ' ');
  // `où` folds to `ou` (or): the French place word is read on the unfolded text.
  if (/(^|[^\p{L}])où([^\p{L}]|$)/iu.test(question) && !/\b(how much|combien)\b/.test(q)) return 'place';
  // The question's first asking phrase decides (`What does the unit mean when it shows E4?` asks no date):
  // a typed phrase counts when no asking word opens before it.
  const firstAsking = ASKING.exec(q)?.index ?? Infinity;
  let best: { type: AnswerType; at: number } | null = null;
  for (const [type, re] of PATTERNS) {
    const at = re.exec(q)?.index;
    if (at !== undefined && at <= firstAsking && (!best || at < best.at)) best = { type, at };
  }
  if (!best) return null;
  return best.type === 'date' && OBLIGATION.test(q) ? 'deadline' : best.type;
}

/** Asking words (folded; the French `où` is read apart). */
const ASKING = /\b(?:what|which|who|whom|whose|when|where|how|why|que|quoi|quel|quelle|quels|quelles|combien|quand|qui|comment|pourquoi)\b/;

const NUMBER = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|hundred|thousand|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|quinze|vingt|trente|quarante|cinquante|soixante|cent|mille)\b/;
const DURATION = new RegExp(`(?:\\d+(?:[.,]\\d+)?|\\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|sixty|ninety|un|une|deux|trois|quatre|cinq|six|sept|huit|dix|douze|quinze|trente|soixante))[\\s-]*(?:\\(\\d+\\)\\s*)?(?:(?:working|business|calendar|consecutive|full|clear|ouvres|ouvrables|calendaires|francs)\\s+)?(?:${TIME_UNITS})\\b|\\b(?:fortnight|annual|annually|monthly|weekly|daily|quarterly|yearly|hourly|immediately|same day|next day|annuel|mensuel|hebdomadaire|quotidien|trimestriel)`);
// `may` (the modal) and `sept` (French seven) are months only beside a day or a year.
const MONTHS = /\b(?:january|february|march|april|june|july|august|september|october|november|december|janvier|fevrier|mars|avril|mai|juin|juillet|aout|septembre|octobre|novembre|decembre|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)\b|\b\d{1,2}(?:st|nd|rd|th)? (?:may|sept)\b|\b(?:may|sept) \d{1,4}\b/;
const DATE = /\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|(?:19|20)\d{2}|q[1-4]|t[1-4]|monday|tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|\d{1,2}[:h]\d{2}|noon|midnight|midi|minuit|until|jusqu|end of|beginning of|(?:each|every) (?:day|week|month|quarter|year)|(?:first|last) (?:day|working day|business day)|chaque (?:jour|semaine|mois|trimestre|annee)|(?:premier|dernier) jour)\b/;
const PLACE_WORDS = new Set(
  'room floor building office site warehouse premises address street road avenue city town country region centre center datacenter headquarters campus plant facility branch store shop hall kitchen home remotely online abroad salle etage batiment bureau entrepot adresse rue avenue ville pays region siege locaux usine agence domicile magasin'.split(
    ' ',
  ),
);

/**
 * A day: a month (with its day or year), a numeric date, a weekday or a day named by its place (`end of`,
 * `first working day`). What `on what date` asks: a bare year (a statute's `Act 1998`) is not one.
 */
const DAY = /\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|monday|tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|end of|beginning of|(?:first|last) (?:day|working day|business day)|(?:premier|dernier) jour|fin (?:de|du))\b/;

/** Whether a question asks for a day (`what date`, `which day`, `quelle date`), not a year or a time. */
export function asksDay(question: string): boolean {
  return /\b(?:what|which) (?:date|day)\b|\bquel(?:le)? (?:date|jour)\b/.test(fold(question).replace(/[^\p{L}\p{N}\s]+/gu, ' '));
}

/** Whether a question asks for a time of day (`at what time`, `what time does … begin`, `à quelle heure`), not a day. */
export function asksClock(question: string): boolean {
  return /\b(?:what time|a quelle heure)\b/.test(fold(question).replace(/[^\p{L}\p{N}\s]+/gu, ' '));
}

/** A time of day: `14:30`, `9.30 am`, `2 pm`, `10h30`, `14 h`, `noon`, `midnight`, `midi`, `minuit`, `o'clock`. */
const CLOCK = /\b(?:\d{1,2}[:.h]\d{2}|\d{1,2}\s?(?:am|pm|a\.m|p\.m|h|o'?clock)|noon|midday|midnight|midi|minuit)\b/;

/** Whether a text states a time of day (CLOCK; `14h30` is read as a code, so codes are kept). */
export function holdsClock(text: string): boolean {
  return CLOCK.test(fold(text));
}

/** Whether a text states a day (DAY, or a month). */
export function holdsDay(text: string): boolean {
  const t = fold(withoutCodes(text));
  return DAY.test(t) || MONTHS.test(t);
}

/** The text with its codes blanked out, so that a code's digits do not read as a figure. */
export function withoutCodes(text: string): string {
  let out = text;
  // `3-year`, `24-hour`: a figure with its unit, kept.
  for (const c of codesOf(text).reverse()) if (!/^\d+(?:[.,]\d+)?-\p{L}+$/u.test(c.text)) out = `${out.slice(0, c.start)} ${out.slice(c.end)}`;
  return out;
}

const wordsOf = (text: string) => fold(text).match(/\p{L}+/gu) ?? [];

/** At most this many distinct words are looked up in the dictionary per passage (the start of the passage). */
const MAX_LOOKUPS = 300;

function hasNounOf(text: string, classes: number[]): boolean {
  const seen = new Set<string>();
  for (const w of wordsOf(text)) {
    if (w.length < 3 || seen.has(w)) continue;
    seen.add(w);
    if (seen.size > MAX_LOOKUPS) break;
    const cls = nounClasses(w);
    if (classes.some((c) => cls.has(c))) return true;
  }
  return false;
}

/** Whether a text names someone or somewhere; the tagger runs only on a text with a capital past its first letter. */
const mayName = (text: string) => /\p{Lu}/u.test(text.slice(1)) && namesOf(text).length > 0;

/** Whether a passage holds something of the asked type. */
export function holdsAnswerType(type: AnswerType, text: string): boolean {
  const t = fold(type === 'person' || type === 'place' ? text : withoutCodes(text));
  switch (type) {
    case 'amount':
      // A figure, not the digits of a code (`AQ-350`, `INV-2025-0318`).
      return NUMBER.test(t);
    case 'duration':
      return DURATION.test(t);
    case 'date':
      return MONTHS.test(t) || DATE.test(t);
    case 'deadline':
      return MONTHS.test(t) || DATE.test(t) || DURATION.test(t);
    case 'person':
      return mayName(text) || hasNounOf(text, [LEX.person, LEX.group]);
    case 'place':
      return wordsOf(text).some((w) => PLACE_WORDS.has(w)) || mayName(text) || hasNounOf(text, [LEX.location]);
  }
}
