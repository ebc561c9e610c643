/**
 * What a question asks, read once, and whether one sentence of a passage answers it (docs/light.md, "The
 * gate"): the answer type (answer-type.ts) narrowed to a kind of value when the question says which (a price
 * is money, *how heavy* a weight, *how loud* a sound level, *what percentage* a percentage), the head of
 * what is asked (*penalty* in "What penalty does…", *échéance* in "Quelle est la date d'échéance…", the
 * verb *resolve* in "Within what time must the provider resolve…"), and the specific terms that must stand
 * beside the answer (codes and figures, hyphenated compounds such as *grand-parent*). The answering sentence
 * must hold the value; the head and the terms must be in it or in its immediate context (the sentence
 * before, its section, its table's header row, its document's name). Shared by light's gate and the
 * built-in model, which answers with such a sentence.
 */
import { createRequire } from 'node:module';
import { alternativesOf } from './alternatives.js';
import { translationsOf } from './glossary.js';
import { paraphrasesOf } from './paraphrase.js';
import { namesSister, nameWordsOf, type NameRun } from './sister-names.js';
import { baseFormsOf, contrastsOf, firstNounClass, LEX, nounClasses, relatedOf } from './wordnet.js';
import { answerTypeOf, asksClock, asksDay, holdsAnswerType, holdsClock, holdsDay, withoutCodes, type AnswerType } from './answer-type.js';
import { codesOf, specificTermsOf, tag, type Entity, type Token } from './entities.js';

const require = createRequire(import.meta.url);
type Stem = (word: string) => string;
const { stemmer: stemEnglish } = require('@orama/stemmers/english') as { stemmer: Stem };
const { stemmer: stemFrench } = require('@orama/stemmers/french') as { stemmer: Stem };

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
const wordsOf = (text: string): string[] => fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];

/** The kind of value a question asks for, narrower than its type when the question says so (`day`: a date question asking *what date*). */
export type ValueKind = 'money' | 'weight' | 'sound' | 'length' | 'speed' | 'percentage' | 'day' | 'clock';

export type Language = 'en' | 'fr';

export interface Asked {
  language: Language;
  type: AnswerType | null;
  value: ValueKind | null;
  /** The head of what is asked (a noun, or the main verb), folded, or null when the type says it all. */
  head: string | null;
  /** The words of the head's noun phrase (English), whose initials may stand for it (`CADR`). */
  phrase: string[];
  /** Nouns and adjectives before the head that narrow it (`contents` in *the contents sum insured*): said beside the value too. */
  modifiers: string[];
  /** Codes and figures of the question: in the answering sentence or its context, as written. */
  terms: Entity[];
  /** Hyphenated compounds of the question (`grand-parent`, `home-office`), as folded word pairs. */
  compounds: string[][];
  /**
   * Words that narrow what is asked to one case: proper adjectives (`French` in "on a French contract")
   * and all-capital acronyms (`INSEE`). The passage must state them (an acronym also as its translation).
   */
  qualifiers: { word: string; acronym: boolean }[];
  /** Months the question names (1-12): a sentence naming other months only is about another period. */
  months: number[];
  /** The question asks for the value now (*current*, *today*, *actuel*) or a former one (*previous*, *précédent*): see WHEN. */
  when: 'now' | 'before' | null;
  /**
   * The periods a rate of the question is counted in (`hourly`, `tarif horaire`, `par mois`), each as the words
   * that say it: the answering sentence of an amount must state the period (a monthly figure is no hourly rate).
   */
  periods: string[][];
  /**
   * The question's distinctive words besides its head (q-nearmiss round): the verb it asks about (*consume* in *How much
   * gas did the boilers consume*). The answering passage (or its document's head) says each, as the word, a stem, a
   * synonym, a translation, a paraphrase or a derived form (*consumption*).
   */
  distinctive: string[];
  /**
   * The words narrowing a noun of the question (q-refuse round: *female* in *a female dog*, *evening* in *the evening
   * rate*, *maximum*), each with the words WordNet opposes to it (contrastsOf: *male*, *afternoon*, *minimum*). A
   * sentence saying an opposed word and not the question's is about the other thing of the kind.
   */
  contrasts: Contrast[];
  /**
   * The noun naming the kind of answer when a question asks *which* or *what* thing without asking it as a head (lanswer
   * round: *Which electricity **tariff** is the bakery on*, *In which **cities** is the data kept*): the answering
   * sentence names it (`Tariff | Business Fix 24`). Read by the built-in model to choose its sentence, never by the gate.
   */
  kind?: string;
  /**
   * What the asked value is for (lrefuse2 round: *patient examination* in *What fee does the clinic charge **for** a new
   * patient examination*, *pet dog* in *What fare is charged for a pet dog*): the nouns of the phrase after *for*, in
   * English. The value is said of it: the answering sentence (or its context) names one of them, as the word, a stem, a
   * synonym, a translation, a paraphrase or a derived form (*charity* for *charity work*); a fee stated for another thing
   * answers another question.
   */
  purpose?: string[];
  /**
   * The question's frame (twelfth round, lpred; English): whether its head is its main verb, its object nouns, and whether
   * what it asks is a payment. Read only where the head is not said (sentenceAnswers, framed): the value of the asked kind
   * beside the question's object noun answers, whatever verb or business word the document uses for it.
   */
  frame?: Frame;
  /**
   * The question's names of several words, or after a common noun (*formule Essentielle*), folded, function words kept
   * (seventeenth round, lnear; sister-names.ts): a sentence naming a sister of one (*Whitcombe House* for *Whitcombe
   * Annex*) is about the other one.
   */
  names?: NameRun[];
  /** Years the question names (seventeenth round, lnear; yearsOf): a sentence naming other years only is about another period. */
  years?: number[];
  /**
   * The thing the head is of (thirteenth round, lfact2): the noun right after the head and *of* / *de* (*la location
   * d'une **corde***, *the price of a **harness***). A list of labelled values (*chaussons CHF 6.–, baudrier CHF 4.–*)
   * answers with the value whose label says it.
   */
  of?: string;
  /** The question's numbered things (*CANSail 5*–6, *Room 12*): a sentence numbering the same word otherwise is about another. */
  numbered?: [string, string][];
}

/** What a question asks besides its head (Asked.frame). */
export interface Frame {
  /** The head read is the question's main verb (`write to`, `pass on`, `begin work`, `look after`). */
  verb: boolean;
  /**
   * The question's common nouns other than its head: not a name, a code, a figure, a word the answer type stands for or a
   * word saying when (`request`, `subject` in *How quickly must Nettlefield pass on … a request … from a data subject*).
   */
  objects: string[];
  /**
   * The question asks a payment: its head names one (a WordNet noun sense in the possession class: *rebate*,
   * *compensation*, *royalty*) or its main verb is a paying verb (*What does Corvane charge*). Its value is money or a share.
   */
  money: boolean;
  /**
   * The acts the question sets aside (*resolve (**not just acknowledge**) a Priority 1 incident*): verbs after *not*,
   * *rather than*, *instead of*. A sentence saying one of them, where the head is not said, states that act's value.
   */
  excluded: string[];
  /** A *how often* question asks a recurrence (*every 6 months*, *monthly*), a *how quickly* one a time limit (*within 5 days*). */
  duration?: 'recurrence' | 'limit';
  /** French: the object nouns as written (lower case, accents kept), `finances` not said by the participle `financé`. */
  written?: string[];
  /**
   * French: the object nouns that name the question's thing, not the participle after the auxiliary *a* (*Qu'a
   * **décidé***) nor the noun of a compound preposition (*au **sujet** de*, *en **cas** de*).
   */
  things?: string[];
}

export interface Contrast {
  word: string;
  /** English stems of the opposed words. */
  against: Set<string>;
  /** The English stem of the noun it narrows (*rate* of *evening rate*). */
  noun: string;
  /** The class of its first noun sense (firstNounClass), when it is a noun: another noun of the class before the same noun is a sister. */
  lex: number | null;
}

/**
 * A period, the words that ask for a rate counted in it (adjectives, `per`/`par` phrases), and the words that state it.
 * `a day` after a comparison or a preposition of time (*less than a day before*, *within a week*) is a duration, no rate.
 */
const PERIODS: [RegExp, string[]][] = [
  [/\b(?:hourly|horaires?|(?:per|(?<!\b(?:than|within|under|over|about|around|after|half|only|least|most) )an|par|a l) (?:hour|heure))\b/, 'hour hours hourly hr hrs heure heures horaire horaires'.split(' ')],
  [/\b(?:daily|journalier(?:e|s|es)?|quotidien(?:ne|s|nes)?|(?:per|(?<!\b(?:than|within|under|over|about|around|after|half|only|least|most) )a|par) (?:day|jour))\b/, 'day days daily diem jour jours journalier journaliere journaliers quotidien quotidienne'.split(' ')],
  [/\b(?:weekly|hebdomadaires?|(?:per|(?<!\b(?:than|within|under|over|about|around|after|half|only|least|most) )a|par) (?:week|semaine))\b/, 'week weeks weekly semaine semaines hebdomadaire hebdomadaires'.split(' ')],
  [/\b(?:monthly|mensuel(?:le|s|les)?|(?:per|(?<!\b(?:than|within|under|over|about|around|after|half|only|least|most) )a|par) (?:month|mois))\b/, 'month months monthly mois mensuel mensuelle mensuels mensuelles mensualite mensualites'.split(' ')],
  [/\b(?:annual|yearly|annuel(?:le|s|les)?|(?:per|(?<!\b(?:than|within|under|over|about|around|after|half|only|least|most) )a|par) (?:year|annum|an|annee))\b/, 'year years annual annually yearly annum an ans annee annees annuel annuelle annuels annuelles'.split(' ')],
];

/** The periods a question's rate is counted in (see Asked.periods). */
export function periodsOf(question: string): string[][] {
  const q = fold(question).replace(/[^\p{L}\p{N}\s]+/gu, ' ').replace(/\s+/g, ' ');
  return PERIODS.filter(([re]) => re.test(q)).map(([, words]) => words);
}

const MONTH_NAMES: [RegExp, number][] = [
  [/\b(?:january|janvier)\b/, 1], [/\b(?:february|fevrier)\b/, 2], [/\b(?:march|mars)\b/, 3], [/\b(?:april|avril)\b/, 4],
  // `may` the modal is no month: only beside a day or a year.
  [/\b(?:\d{1,2}(?:st|nd|rd|th)? may|may \d{1,4}|mai)\b/, 5], [/\b(?:june|juin)\b/, 6], [/\b(?:july|juillet)\b/, 7],
  [/\b(?:august|aout)\b/, 8], [/\b(?:september|septembre)\b/, 9], [/\b(?:october|octobre)\b/, 10], [/\b(?:november|novembre)\b/, 11],
  [/\b(?:december|decembre)\b/, 12],
];

/** The months a text names (by their English or French name). */
export function monthsOf(text: string): Set<number> {
  const t = fold(text);
  const out = new Set<number>();
  for (const [re, m] of MONTH_NAMES) if (re.test(t)) out.add(m);
  return out;
}

/**
 * A year as a text writes it (1990 to 2039), not inside a code (*INV-2025-0412*, *n° 2025-187*), not an amount (*2025 €*);
 * a span written in one piece (*2023/24*, *2025-26*, *2024-2026*) names each of its years.
 */
const YEAR = /(?<![\p{L}\p{N}\-/.,])((?:199|20[0-3])\d)(?:[/\-–]((?:19|20)\d{2}|\d{2}))?(?![\p{L}\p{N}\-/]|[.,]\d|\s*(?:€|£|\$|%|eur\b|gbp\b|usd\b))/gu;
/** Words joining the two years of a span (*2024 to 2026*, *de 2024 à 2026*, *2024–2026*). */
const YEAR_SPAN = /^\s*(?:to|until|till|through|au|a|et|and|jusqu en|-|–|—)\s*$/;

/**
 * The years a text names (seventeenth round, lnear), with those between a span's two ends (*2024 to 2026* covers 2025, a
 * season *2023/24* both): a sentence naming years, none of them the question's, is about another period.
 */
export function yearsOf(text: string): Set<number> {
  const t = fold(text);
  const found: { at: number; end: number; year: number }[] = [];
  for (const m of t.matchAll(YEAR)) {
    const year = Number(m[1]);
    found.push({ at: m.index, end: m.index + m[0].length, year });
    if (m[2]) {
      const second = m[2].length === 4 ? Number(m[2]) : Math.floor(year / 100) * 100 + Number(m[2]);
      if (second > year && second - year <= 10) for (let y = year + 1; y <= second; y++) found.push({ at: m.index, end: m.index + m[0].length, year: y });
    }
  }
  const out = new Set(found.map((f) => f.year));
  for (let i = 0; i + 1 < found.length; i++) {
    const [a, b] = [found[i]!, found[i + 1]!];
    if (b.year <= a.year || b.year - a.year > 10 || !YEAR_SPAN.test(t.slice(a.end, b.at))) continue;
    for (let y = a.year + 1; y < b.year; y++) out.add(y);
  }
  return out;
}

/** Words that join the two ends of a span of months (`1 September to 30 September`, `du 3 novembre au 29 mars`). */
const SPAN = /^[\s\d,.]*(?:(?:19|20)\d{2})?[\s,]*(?:to|until|till|through|au|a|jusqu au|-|–|—)[\s\d]*(?:er)?\s*$/;

/**
 * The months a text names, with the months between the two ends of a span (*Valid: 3 November 2025 to 29 March
 * 2026* covers December): a document's head states its period so.
 */
export function monthsSpannedOf(text: string): Set<number> {
  const t = fold(text);
  const found: { at: number; end: number; month: number }[] = [];
  for (const [re, m] of MONTH_NAMES) for (const x of t.matchAll(new RegExp(re.source, 'g'))) found.push({ at: x.index!, end: x.index! + x[0].length, month: m });
  found.sort((a, b) => a.at - b.at);
  const out = new Set(found.map((f) => f.month));
  for (let i = 0; i + 1 < found.length; i++) {
    const [a, b] = [found[i]!, found[i + 1]!];
    if (!SPAN.test(t.slice(a.end, b.at))) continue;
    for (let m = a.month; m !== b.month; m = (m % 12) + 1) out.add(m);
  }
  return out;
}

const flatOf = (text: string) => fold(text).replace(/[^\p{L}\p{N}\s]+/gu, ' ').replace(/\s+/g, ' ');

/**
 * A question about the value now (*the current base rate*, *share price today*, *la valeur actuelle*, *le taux
 * en vigueur*; not *entre en vigueur*, a date) or a former one (*under its previous provider*, *l'ancien
 * tarif*; not *prior to*, a time limit). A document states what held when it was written, and a value it
 * gives is its own time's: only a sentence that says its value holds now (*current*, *currently*, *as of*,
 * *à ce jour*…), or that it is the former one (*previous*, *replaced*, *ancien*…), answers such a question;
 * other values of the same thing are outside knowledge the question asks for, or the value of another time.
 */
const WHEN: { when: 'now' | 'before'; asks: RegExp; states: RegExp }[] = [
  {
    when: 'now',
    asks: /\b(?:current|currently|today|todays|at present|presently|nowadays|right now|at the moment|actuel|actuelle|actuels|actuelles|actuellement|aujourd hui|a ce jour|en ce moment|en vigueur)\b/,
    states: /\b(?:current|currently|today|at present|presently|now|as of|as at|actuel|actuelle|actuels|actuelles|actuellement|aujourd hui|a ce jour|en ce moment|en vigueur)\b/,
  },
  {
    when: 'before',
    asks: /\b(?:previous|former|prior(?! to)|precedent|precedente|precedents|precedentes|ancien|ancienne|anciens|anciennes)\b/,
    states: /\b(?:previous|previously|former|formerly|prior|earlier|replaces|replaced|superseded|precedent|precedente|precedents|precedentes|ancien|ancienne|anciens|anciennes|auparavant|remplace|remplacee|remplaces|remplacees)\b/,
  },
];

/** The time a question asks about (WHEN), or null; `entrer en vigueur` is a date asked, not the value now. */
export function whenOf(question: string): 'now' | 'before' | null {
  const q = flatOf(question).replace(/\bentr\p{L}* (?:t (?:il|elle|ils|elles) )?en vigueur\b/gu, ' ');
  return WHEN.find((p) => p.asks.test(q))?.when ?? null;
}

/** Whether a text says its value is of the time asked (WHEN). */
export const statesWhen = (when: 'now' | 'before', text: string): boolean => WHEN.find((p) => p.when === when)!.states.test(flatOf(text));

const FR_WORDS = new Set('le la les du des de un une est sont quel quelle quels quelles combien quand qui ou pour par dans sur avec au aux ce cette ces doit faut il elle'.split(' '));
const EN_WORDS = new Set('the a an of is are was were what which who when where how for by in on with to does do did must will can'.split(' '));

export function languageOf(text: string): Language {
  let fr = 0;
  let en = 0;
  for (const w of wordsOf(text).slice(0, 2_000)) {
    if (FR_WORDS.has(w)) fr++;
    if (EN_WORDS.has(w)) en++;
  }
  return fr > en ? 'fr' : 'en';
}

// ---------------------------------------------------------------------------------------------------------
// The kind of value

const VALUE_CUES: [ValueKind, RegExp][] = [
  // An interest rate or a VAT rate is a percentage (fifth round: a sentence naming the rate without its figure does not answer).
  ['percentage', /\b(what (?:percentage|percent|share|proportion)|how many percent|quel(?:le)? (?:est le |est la )?(?:pourcentage|part|proportion)|interest rate|rate of interest|vat rate|rate of vat|taux (?:de l |d |de )?(?:interet|de tva|tva))\b/],
  ['weight', /\b(how heavy|weigh|weighs|weight|combien pese|quel (?:est le )?poids|pese)\b/],
  ['sound', /\b(how loud|how noisy|noise level|sound level|quel (?:est le )?niveau (?:de bruit|sonore)|bruit|bruyant)\b/],
  ['speed', /\b(how fast|what speed|top speed|quelle (?:est la )?vitesse)\b/],
  ['length', /\b(how (?:far|tall|wide|high|deep)|what (?:distance|length|width|height|depth|diameter|thickness)|quelle (?:est la )?(?:distance|longueur|largeur|hauteur|profondeur))\b/],
  [
    'money',
    /\b(how much (?:(?:does|do|did|will|would|is|are|was|were) )?(?:\S+ ){0,6}?(?:cost|costs|pay|paid|charge|charged|spend|spent|owe|owed|worth|bill|billed|invoice|invoiced)|(?:price|cost|fee|fees|rent|salary|budget|deposit|balance|subtotal|charge|tariff|rate card|fare|fares|premium|premiums|wage|wages|deductible|deductibles)\b|combien (?:coute|coutent|paie|paye|payer|faut il payer|doit|reste)|\b(?:prix|cout|tarif|montant|frais|loyer|salaire|budget|acompte|solde|honoraires|redevance|caution|cotisation)|(?:vat|tva) (?:included|inclusive|incl|comprise)|(?:including|inclusive of|incl|excluding|exclusive of|excl|plus|before|after) vat|\bttc|hors taxes?|toutes taxes comprises)\b/,
  ],
];

/** The value kind the question names, read on a question of type amount (or any type for a cue such as *price*). */
export function valueKindOf(question: string, type: AnswerType | null): ValueKind | null {
  if ((type === 'date' || type === 'deadline') && asksDay(question)) return 'day';
  // `At what time does the ceremony begin`: a time of day (q-refuse round), which a date does not state.
  if ((type === 'date' || type === 'deadline') && asksClock(question)) return 'clock';
  if (type !== 'amount') return null;
  const q = fold(question).replace(/[^\p{L}\p{N}\s]+/gu, ' ').replace(/\s+/g, ' ');
  for (const [kind, re] of VALUE_CUES) if (re.test(q)) return kind;
  return null;
}

const VALUE_PATTERNS: Record<ValueKind, RegExp> = {
  money: /[€£$¥]|\b(?:eur|euros?|gbp|usd|chf|dollars?|pounds? sterling|pence|cents?|centimes?|free of charge|no charge|free|gratuit|gratuite|offert|offerte)\b|\d\s*(?:k|m|bn)?\s*(?:eur|gbp|usd|chf)\b/,
  weight: /\d\s*(?:kg|g|mg|t|lbs?|oz|kilos?|kilograms?|grams?|grammes?|tonnes?|tons?|pounds?)\b/,
  sound: /\d\s*(?:db|dba|db\(a\)|decibels?|décibels?)\b/,
  speed: /\d\s*(?:km\/h|kmh|mph|m\/s|rpm|tr\/min|knots?|noeuds?)\b/,
  length: /\d\s*(?:mm|cm|m|km|in|inches|ft|feet|foot|miles?|metres?|meters?|kilometres?|kilometers?|centimetres?|centimeters?|millimetres?|yards?)\b/,
  percentage: /%|\b(?:percent|per cent|pour cent|percentage points?|points? de pourcentage)\b/,
  day: /$^/,
  clock: /$^/,
};

/** Whether a text holds a value of the asked type (and kind, when the question names one). */
export function holdsValue(asked: Pick<Asked, 'type' | 'value'>, text: string): boolean {
  if (!asked.type) return true;
  // A time of day (`2.30 pm`) is its own type: DATE reads only `14:30`.
  if (asked.value === 'clock') return holdsClock(text);
  if (!holdsAnswerType(asked.type, text)) return false;
  if (asked.value === 'day') return holdsDay(text);
  return !asked.value || VALUE_PATTERNS[asked.value].test(fold(withoutCodes(text)));
}

// ---------------------------------------------------------------------------------------------------------
// The head of what is asked

/** Verbs that say nothing of what is asked (`take place`, `is`, `get`): the head is their subject. */
const LIGHT_VERBS = new Set(
  'be is are was were been being am do does did done have has had get gets got make makes made take takes took taken go goes went come comes came happen happens happened occur occurs occurred need needs needed use uses used apply applies applied give gives given mean means say says said show shows shown find found hold holds held put keep kept exist exists cover covered include includes included'.split(' '),
);

/** Nouns and verbs the answer type itself stands for: `date` in a when-question, `price` in a money question. */
const GENERIC_ANY = new Set('thing things kind type sort way part name names number numbers amount amounts figure figures value values detail details information info level levels'.split(' '));
const GENERIC: Record<AnswerType | ValueKind, Set<string>> = {
  date: new Set('date dates day days time times year years month months moment deadline deadlines when period'.split(' ')),
  deadline: new Set('date dates day days time times year years month months moment deadline deadlines when period limit'.split(' ')),
  duration: new Set('time times period periods duration durations length long day days week weeks month months year years hour hours minute minutes delay frequency interval'.split(' ')),
  amount: new Set('total totals sum count quantity level'.split(' ')),
  person: new Set('person persons people individual individuals who party'.split(' ')),
  place: new Set('place places location locations site sites address where venue city country town'.split(' ')),
  money: new Set('price prices cost costs fee fees charge charges pay paid payment payments spend spent owe owed worth money bill billed'.split(' ')),
  weight: new Set('weight weigh weighs heavy'.split(' ')),
  sound: new Set('noise sound level loud noisy quiet quietest loudest'.split(' ')),
  speed: new Set('speed fast'.split(' ')),
  length: new Set('length width height depth distance size far tall wide high deep'.split(' ')),
  percentage: new Set('percentage percent share proportion rate'.split(' ')),
  day: new Set('date dates day days'.split(' ')),
  clock: new Set('time times hour hours heure heures'.split(' ')),
};

const FR_GENERIC = new Set(
  (
    'date dates jour jours semaine semaines mois an ans annee annees heure heures minute minutes fois duree delai delais temps periode moment frequence ' +
    'montant montants somme nombre total prix cout couts coute coutent tarif tarifs frais valeur chiffre niveau euros euro ' +
    'personne personnes nom lieu lieux endroit adresse ville pays site pourcentage part proportion poids vitesse distance longueur bruit'
  ).split(' '),
);
const FR_SKIP = new Set(
  (
    'le la les l un une des du de d au aux a en dans par pour sur avec chez est sont etait etaient sera seront a ont avait aura auront ' +
    'doit doivent devra faut peut peuvent va vont se s t il elle ils elles on ce cet cette ces c qu que qui quoi quel quelle quels quelles ' +
    'combien quand ou comment pourquoi ne n pas y lieu passe passera fait faire ete etre avoir exactement precisement actuellement actuel actuelle ' +
    'accorde accordes accordee accordees prevu prevue prevus prevues applique appliquee chaque raison motif facon maniere propre propres'
  ).split(' '),
);

/** Participles that work as prepositions (English grammar's closed class): they open a qualifier, never a head. */
const DEVERBAL_PREPOSITIONS = new Set('including excluding concerning regarding considering following pending barring failing given'.split(' '));

/** Past participles and gerunds by their ending, regular and common irregular ones (`paid`, `built`, `kept`). */
const PARTICIPLE = /(?:ed|en|ing|id|lt|ght|pt|ent)$/;

/** Words that say when, not what (`share price today`): never the head. */
const NOW = new Set('today tonight tomorrow yesterday now nowadays currently presently'.split(' '));

/** Parts of speech of the words naming an owner before a possessive (`the Routing API's`, `Kestrel Fabrication's`). */
const OWNER_POS = new Set(['DET', 'PROPN', 'NOUN', 'ADJ', 'VERB', 'NUM', 'X', 'SYM', 'CCONJ']);

const WH_EN = new Set('what which who whom whose when where how'.split(' '));
const FR_WH = /(?:^|\s)(quel|quelle|quels|quelles|combien|quand|qui|ou|a quelle|depuis quand|jusqu)(?=\s|$)/;

/** Words that only say what kind of value is asked (`loud`, `price`, `date`): the value itself answers them. */
export function typeWords(asked: Pick<Asked, 'type' | 'value'>): Set<string> {
  const said = [...(asked.type ? GENERIC[asked.type] : []), ...(asked.value ? GENERIC[asked.value] : [])];
  // In both languages (fourteenth round): *Quel pourcentage…* of a document that writes `80%`.
  return new Set([...said, ...said.flatMap(translationsOf)]);
}

const isGeneric = (w: string, type: AnswerType | null, value: ValueKind | null) =>
  GENERIC_ANY.has(w) || (type !== null && GENERIC[type].has(w)) || (value !== null && GENERIC[value].has(w));

/** The head read in English, the words of its phrase, and the nouns and adjectives before it that narrow it. */
interface Read {
  head: string | null;
  phrase: string[];
  modifiers: string[];
  /** The head is the question's main verb. */
  verb?: boolean;
}
const NO_HEAD: Read = { head: null, phrase: [], modifiers: [] };

/** The head in English, from the tagger's parts of speech (see the module comment). */
function englishHead(question: string, type: AnswerType | null, value: ValueKind | null, skip: (t: Token) => boolean): Read {
  const tokens = tag(question).filter((t) => t.pos !== 'PUNCT' || /[?.!,;:]/.test(t.value));
  const at = tokens.findIndex((t) => WH_EN.has(fold(t.value)));
  if (at < 0) return NO_HEAD;
  let i = at + 1;
  const word = (k: number) => (tokens[k] ? fold(tokens[k]!.value) : '');
  // Adjectives and -ing/-ed forms modify; the head is a noun (or, when the tagger found none, the last word).
  const isModifier = (t: Token) => t.pos === 'ADJ' || (t.pos === 'VERB' && /(?:ing|ed)$/.test(t.value) && !LIGHT_VERBS.has(fold(t.value)));
  const isNounish = (t: Token) => (t.pos === 'NOUN' || isModifier(t)) && !skip(t) && !NOW.has(fold(t.value));
  const possessive = (k: number) => tokens[k]?.pos === 'PART' && /^['’]s?$/.test(tokens[k]!.value);
  /** The noun phrase starting at k: its words and its last non-generic noun; `X of Y` with a generic X reads Y. */
  const phrase0 = (k: number) => Boolean(tokens[k + 1] && (tokens[k + 1]!.pos === 'NOUN' || tokens[k + 1]!.pos === 'ADJ'));
  const phraseAt = (k: number): Read & { end: number } => {
    // `the Routing API's monthly availability`: the words before a possessive name the owner, the phrase after it is asked.
    for (let j = k; tokens[j] && OWNER_POS.has(tokens[j]!.pos); j++) if (possessive(j + 1)) return phraseAt(j + 2);
    while (tokens[k] && (tokens[k]!.pos === 'DET' || tokens[k]!.pos === 'PRON' || tokens[k]!.pos === 'NUM' || (phrase0(k) && tokens[k]!.pos === 'ADV') || skip(tokens[k]!))) k++;
    const start = k;
    const phrase: string[] = [];
    const nouns: { w: string; pos: string }[] = [];
    let head: string | null = null;
    let generic = false;
    let last: string | null = null;
    // A verb opening the phrase before a noun or a verb is a participle (`paid leave`), and so is a verb after one.
    const participle = (j: number) =>
      tokens[j]!.pos === 'VERB' &&
      !LIGHT_VERBS.has(word(j)) &&
      (phrase.length > 0 ? isModifier(tokens[j - 1]!) || tokens[j - 1]!.pos === 'VERB' : PARTICIPLE.test(word(j)) && /^(?:NOUN|VERB)$/.test(tokens[j + 1]?.pos ?? ''));
    // A name inside the phrase (`the current Bank of England base rate`) modifies what follows it.
    const nameRun = (j: number) => {
      if (phrase.length === 0) return j;
      let e = j;
      while (tokens[e] && (skip(tokens[e]!) || (e > j && /^(?:of|&)$/.test(word(e)) && tokens[e + 1] && skip(tokens[e + 1]!)))) e++;
      return e > j && tokens[e] && isNounish(tokens[e]!) ? e : j;
    };
    for (k = nameRun(k); tokens[k] && (isNounish(tokens[k]!) || participle(k)); k = nameRun(k)) {
      // A participle used as a preposition ends the phrase (`the total including VAT`).
      if (phrase.length > 0 && DEVERBAL_PREPOSITIONS.has(word(k))) break;
      const w = word(k);
      phrase.push(w);
      nouns.push({ w, pos: tokens[k]!.pos });
      if (isGeneric(w, type, value)) generic = true;
      else if (tokens[k]!.pos === 'NOUN') [head, generic] = [w, false];
      else last = w;
      k++;
    }
    if (!head && generic && word(k) === 'of') return phraseAt(k + 1);
    // `paid leave` read as two verbs: the phrase's last word is its head.
    if (!head && !generic && last && phrase.length > 1) head = last;
    // `What is the deductible for…`, `the minimum for…`: a lone adjective after a determiner, followed by nothing but a
    // preposition or the question's end, is nominalised; its noun reading (WordNet) is the head (lanswer3 round).
    if (!head && !generic && last && phrase.length === 1 && nouns[0]!.pos === 'ADJ' && tokens[start - 1]?.pos === 'DET' && (!tokens[k] || tokens[k]!.pos === 'ADP' || tokens[k]!.pos === 'PUNCT') && nounClasses(last).size > 0) head = last;
    const before = head ? nouns.slice(0, nouns.findIndex((x) => x.w === head)) : [];
    // Nouns only: adjectives are said in too many ways (monthly, per month, a month; broadband, internet).
    const modifiers = before.filter((x) => x.pos === 'NOUN' && !isGeneric(x.w, type, value)).map((x) => x.w);
    return { end: k, phrase, head, modifiers };
  };
  // `how much`, `how long`, `how heavy`: the wh-phrase's own words.
  if (word(at) === 'how' && tokens[i] && (tokens[i]!.pos === 'ADJ' || tokens[i]!.pos === 'ADV')) i++;
  // The wh-phrase's noun: `what penalty`, `which supplier`, `how many testers`, `what date … of`.
  const own = phraseAt(i);
  // `Which purifier model…`, `which items…`: the noun names the kind of answer (a model, items), which the
  // answering sentence names rather than says.
  if (own.head && word(at) !== 'which') return own;
  i = own.end;
  // `… is the X`: the subject is what is asked (not after `how heavy is`, whose value kind says it).
  const copula = /^(?:is|are|was|were|'s)$/.test(word(i));
  if (copula) {
    if (value && word(at) === 'how' && !/^(?:much|many)$/.test(word(at + 1))) return NO_HEAD;
    return phraseAt(i + 1);
  }
  // `… must Brightline resolve`, `… did the customer pay`: the main verb, or the subject of a light verb.
  while (tokens[i] && (tokens[i]!.pos === 'AUX' || tokens[i]!.pos === 'PART' || tokens[i]!.pos === 'ADV')) i++;
  const subject = phraseAt(i);
  let k = subject.end;
  while (tokens[k] && (tokens[k]!.pos === 'AUX' || tokens[k]!.pos === 'PART' || tokens[k]!.pos === 'ADV' || skip(tokens[k]!))) k++;
  const verb = tokens[k] && tokens[k]!.pos === 'VERB' ? word(k) : null;
  if (verb && !LIGHT_VERBS.has(verb)) return isGeneric(verb, type, value) ? NO_HEAD : { ...NO_HEAD, head: verb, verb: true };
  // `When does the training take place?`: the subject; `What must a user do?` asks no noun.
  if (/^(?:what|which)$/.test(word(at))) return NO_HEAD;
  return subject;
}

const FR_OF = new Set(['de', 'd', 'du', 'des']);
const FR_AUX = new Set('est sont etait etaient sera seront a ont avait avaient aura auront ete'.split(' '));

/** The head in French (no tagger): the first content word after the asking word, past the generic ones (`date d'échéance` reads `échéance`). */
function frenchHead(question: string, skipWords: Set<string>, type: AnswerType | null, out?: { verb: boolean }): string | null {
  // `toutes taxes comprises`, `hors taxes`: a qualifier of the amount, never what is asked.
  const q = fold(question)
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\b(?:toutes taxes comprises|hors taxes|ttc|ht)\b/g, ' ')
    .replace(/\s+/g, ' ');
  const m = FR_WH.exec(q);
  if (!m) return null;
  const rest = q.slice(m.index + m[0].length).trim();
  // `Combien le prestataire doit-il payer…`: a subject, then the verb whose amount is asked; no noun is.
  if (m[1] === 'combien' && /^(?:le|la|les|l|un|une)\s/.test(rest)) return null;
  const ws = rest.split(' ');
  // `Quelle compagnie assure…`, `quel prestataire intervient…`: on a who or where question, the noun after
  // quel names the kind of answer (as `which` does in English), not a word the sentence must repeat.
  const kind = (type === 'person' || type === 'place') && /^quel/.test(m[1]!) ? 1 : 0;
  for (let k = kind; k < ws.length; k++) {
    const w = ws[k]!;
    // `le montant mensuel de la gratification`: past a generic noun, its complement after `de` is what is asked.
    if (FR_GENERIC.has(w)) {
      const de = ws.slice(k + 1, k + 4).findIndex((x) => FR_OF.has(x));
      if (de > 0 && !ws.slice(k + 1, k + 1 + de).some((x) => FR_SKIP.has(x))) k += de;
      continue;
    }
    // `s'élève`, `se monte`: the word after a reflexive pronoun is a verb.
    if (k > 0 && (ws[k - 1] === 's' || ws[k - 1] === 'se')) continue;
    if (!w || w.length < 3 || FR_SKIP.has(w) || skipWords.has(w) || /\d/.test(w)) continue;
    // `se sont élevées`, `a été votée`: a participle after an auxiliary is the verb, the noun follows.
    if (k > 0 && FR_AUX.has(ws[k - 1]!) && /(?:e|ee|es|ees)$/.test(w) && ws.length > k + 1) continue;
    const inverted = invertedVerbHead(ws, k, skipWords);
    if (inverted && out) out.verb = true;
    return inverted ?? w;
  }
  return null;
}

/**
 * Words written with a capital then lower case inside a French question (past its first word): French capitalises
 * names only (`CuisiLoc Pro`, `Val-Sorbier`), so they are never the head, even where the English tagger read no
 * name. An acronym in capitals (`TVA`, `HT`) may be what is asked and stays.
 */
function frenchNameWords(question: string): string[] {
  return (question.match(/[\p{L}\p{N}]+/gu) ?? []).slice(1).filter((w) => /^\p{Lu}\p{Ll}/u.test(w)).map(fold);
}

/** Subject pronouns of a French inverted question (`doit-il`, `dispose-t-elle`, `doivent-ils`). */
const FR_INVERTED = new Set(['il', 'elle', 'ils', 'elles']);
/** Words before `il` that open a clause rather than end an inverted verb (`qu'il`, `s'il`, `lorsqu'il`). */
const FR_CLAUSE = new Set(['qu', 'que', 's', 'si', 'lorsqu', 'puisqu', 'quand', 'comme', 'ou']);
const FR_SUBJECT_DETERMINERS = new Set(['le', 'la', 'les', 'l', 'un', 'une']);
const FR_NP_BREAK = new Set('a au aux sur sous chez pour dans en avec par entre vers selon apres avant lors qui que qu dont'.split(' '));

/**
 * `Sous combien de temps le papetier doit-il livrer…`, `Quand le béton … doit-il être coulé`: the noun found
 * first is the subject of an inverted verb, which says who acts, not what is asked. The head is then the first
 * content word after the pronoun (the verb after a modal, `livrer`, `coulé`; a complement, `en garantie`).
 * Undefined when the word is no such subject, or when nothing follows the pronoun (`À quelle date les travaux
 * commenceront-ils ?` asks about the works).
 */
function invertedVerbHead(ws: string[], k: number, skipWords: Set<string>): string | undefined {
  // A subject: after its determiner, not the attribute of a copula (`Quelle est la pénalité…`).
  if (!FR_SUBJECT_DETERMINERS.has(ws[k - 1] ?? '') || FR_AUX.has(ws[k - 2] ?? '')) return undefined;
  const j = ws.findIndex((x, i) => i > k + 1 && FR_INVERTED.has(x) && !FR_CLAUSE.has(ws[i - 1]!));
  if (j < 0) return undefined;
  // The subject runs up to its verb with only `de` complements (`le maître d'ouvrage des Ormeaux`); a preposition
  // on the way means the word is another verb's object (`Un client qui a commandé un meuble sur mesure chez X peut-il…`).
  if (ws.slice(k + 1, ws[j - 1] === 't' ? j - 2 : j - 1).some((x) => FR_NP_BREAK.has(x))) return undefined;
  for (let i = j + 1; i < ws.length; i++) {
    const w = ws[i]!;
    if (w.length < 3 || FR_SKIP.has(w) || FR_GENERIC.has(w) || skipWords.has(w) || /\d/.test(w)) continue;
    return w;
  }
  // `À quelle date les travaux commenceront-ils ?`: nothing follows, the subject is what the question is about.
  return undefined;
}

const FUNCTION_PARTS = new Set(
  'per one two three four five six seven eight nine ten first second third half full out in up off on over down back all non pre post self well long short day time the a de du la le en sous'.split(' '),
);

/** Hyphenated compounds of letters (`grand-parent`, `home-office`), as their folded words. */
function compoundsOf(question: string): string[][] {
  const out: string[][] = [];
  for (const m of question.matchAll(/(?<![\p{L}\p{N}-])(\p{L}{2,}(?:-\p{L}{2,})+)(?![\p{L}\p{N}-])/gu)) {
    // `se passe-t-il`, `a-t-on`: French inversions, not compounds.
    if (/-(?:t-)?(?:il|elle|ils|elles|on|je|tu|nous|vous)$/iu.test(m[1]!)) continue;
    const parts = fold(m[1]!).split('-');
    // `per-unit`, `one-time`, `call-out`: a function or number word makes a modifier, not a thing.
    if (parts.some((p) => FUNCTION_PARTS.has(p))) continue;
    out.push(parts);
  }
  return out;
}

/**
 * Proper adjectives of an English question (a capitalised adjective inside the sentence: `French`,
 * `European`) and acronyms in capitals of three letters or more (`INSEE`, `GDPR`), folded.
 */
function qualifiersOf(question: string, language: Language): { word: string; acronym: boolean }[] {
  const out = new Map<string, boolean>();
  for (const m of question.matchAll(/(?<![\p{L}\p{N}-])\p{Lu}{3,}(?![\p{L}\p{N}-])/gu)) out.set(fold(m[0]), true);
  if (language === 'en') {
    for (const t of tag(question)) if (t.pos === 'ADJ' && !t.opening && /^\p{Lu}\p{Ll}+$/u.test(t.value)) out.set(fold(t.value), false);
  }
  return [...out].map(([word, acronym]) => ({ word, acronym }));
}

/**
 * A question is read on its first ASKED_CHARS characters: a question is a sentence or two, and a message
 * at the chat's limit (a pasted document) must not hold the event loop while the tagger reads all of it.
 */
const ASKED_CHARS = 1_000;

/** What a question asks (see the module comment). */
export function askedOf(whole: string): Asked {
  const asked = askedOfWhole(whole);
  const of = asked.head ? ofHead(whole, asked.head) : null;
  const numbered = numberedOf(whole.slice(0, ASKED_CHARS));
  const years = [...yearsOf(whole.slice(0, ASKED_CHARS))];
  return of || numbered.length > 0 || years.length > 0
    ? { ...asked, ...(of ? { of } : {}), ...(numbered.length > 0 ? { numbered } : {}), ...(years.length > 0 ? { years } : {}) }
    : asked;
}

function askedOfWhole(whole: string): Asked {
  const question = whole.length > ASKED_CHARS ? whole.slice(0, ASKED_CHARS) : whole;
  const language = languageOf(question);
  const type = answerTypeOf(question);
  const value = valueKindOf(question, type);
  const found = specificTermsOf(question);
  const terms = found.filter((t) => t.kind === 'code');
  const nameWords = nameWordsOf(found.filter((t) => t.kind === 'name'), question);
  const sisters = nameWords.length > 0 ? { names: nameWords } : {};
  const compounds = compoundsOf(question);
  // Names, codes and compounds are checked on their own; they are never the head.
  const hyphenated = [...question.matchAll(/\p{L}+(?:-\p{L}+)+/gu)].flatMap((m) => fold(m[0]).split('-'));
  const specific = new Set([...found.flatMap((t) => t.words), ...hyphenated]);
  const skip = (t: Token) => t.pos === 'PROPN' || t.pos === 'NUM' || t.value === '&' || specific.has(fold(t.value)) || codesOf(t.value).length > 0;
  const qualifiers = qualifiersOf(question, language);
  const months = [...monthsOf(question)];
  const when = whenOf(question);
  const periods = periodsOf(question);
  if (language === 'fr') {
    const names = new Set([...specific, ...frenchNameWords(question)]);
    const read = { verb: false };
    const head = frenchHead(question, names, type, read);
    return { language, type, value, head, phrase: [], modifiers: [], terms, compounds, qualifiers, months, when, periods, distinctive: frenchDistinctiveOf(question, head), contrasts: [], frame: frenchFrameOf(question, type, value, head, read.verb, names), ...sisters };
  }
  let read = englishHead(question, type, value, skip);
  // `What is the unit price…`, `the noise level…`: a phrase naming a kind of value asks for an amount of it.
  const named = type ? null : valueKindOf(`what is the ${read.phrase.join(' ')}`, 'amount');
  if (named) {
    read = englishHead(question, 'amount', named, skip);
    const purpose = purposeOf(question, 'amount', named, skip, read);
    return { language, type: 'amount', value: named, head: read.head, phrase: read.phrase, modifiers: read.modifiers, terms, compounds, qualifiers, months, when, periods, distinctive: distinctiveOf(question, 'amount', named, skip, read), contrasts: contrastsIn(question, 'amount', named, skip), frame: frameOf(question, 'amount', named, skip, read), ...(purpose ? { purpose } : {}), ...sisters };
  }
  const kind = read.head ? null : kindOf(question, skip);
  const purpose = purposeOf(question, type, value, skip, read);
  return { language, type, value, head: read.head, phrase: read.phrase, modifiers: read.modifiers, terms, compounds, qualifiers, months, when, periods, distinctive: distinctiveOf(question, type, value, skip, read), contrasts: contrastsIn(question, type, value, skip), frame: frameOf(question, type, value, skip, read), ...(kind ? { kind } : {}), ...(purpose ? { purpose } : {}), ...sisters };
}

/** Verbs that ask a payment as the main verb of a what-question (*What does Corvane charge…*). */
const PAYING_VERBS = new Set('charge charges charged cost costs pay pays paid owe owes owed bill bills billed invoice invoices invoiced'.split(' '));

/**
 * The question's frame (Asked.frame, twelfth round): a head read as the main verb, the object nouns (every common noun of
 * the question but the head, names, codes, figures, words the answer type stands for, units of time and words saying when), and whether
 * a payment is asked: a head with a noun sense of the possession class among its first senses (WordNet: *rebate*,
 * *compensation*, *royalty*, *fee*), or a what-question whose main verb is a paying verb.
 */
function frameOf(question: string, type: AnswerType | null, value: ValueKind | null, skip: (t: Token) => boolean, read: Read): Frame {
  const tokens = tag(question);
  const objects: string[] = [];
  for (const t of tokens) {
    const w = fold(t.value);
    if (t.pos !== 'NOUN' || skip(t) || w === read.head || w.length < 3 || NOW.has(w) || isGeneric(w, type, value) || GENERIC.duration.has(w) || !/^\p{L}+$/u.test(w) || objects.includes(w)) continue;
    objects.push(w);
  }
  const head = read.head;
  // `What does Corvane charge…`: the paying verb after the inverted auxiliary (the tagger may read it as a noun).
  const paying = /\b(?:what|how much) (?:does|do|did|will|would|must|should|can|could) (?:[\p{L}\p{N}&'’-]+ ){1,6}?(charge|charges|cost|costs|pay|owe|bill|invoice)\b/u.exec(fold(question).replace(/[?!.,;:]/g, ' '));
  const pays = paying !== null && PAYING_VERBS.has(paying[1]!);
  if (pays) objects.splice(0, objects.length, ...objects.filter((w) => w !== paying[1]));
  const money = value === 'money' || (!read.verb && head !== null && nounClasses(head).has(LEX.possession)) || ((type === null || type === 'amount') && pays);
  const excluded: string[] = [];
  tokens.forEach((t, k) => {
    const before = tokens.slice(Math.max(0, k - 3), k).map((x) => fold(x.value)).join(' ');
    if (t.pos === 'VERB' && /\b(?:not|n't|never|than|of)(?: just| only| merely| simply)?$/.test(before) && /\b(?:not|n't|never|rather than|instead of)\b/.test(before)) excluded.push(fold(t.value));
  });
  const asks = fold(question);
  const duration = /\bhow (?:often|frequently)\b|\bat what (?:interval|frequency)\b/.test(asks) ? 'recurrence' : /\bhow (?:quickly|soon|fast)\b|\bwithin (?:what|how)\b/.test(asks) ? 'limit' : null;
  return { verb: Boolean(read.verb), objects, money, excluded, ...(type === 'duration' && duration ? { duration } : {}) };
}

/** Words after which a French noun comes (determiners, possessives, `de`, `à`): the object nouns of a French question. */
const FR_MODAL = new Set('doit doivent devra devront faut peut peuvent pourra'.split(' '));
const FR_NOUN_AFTER = new Set('le la les l un une des du de d au aux sa son ses leur leurs ce cet cette ces votre vos notre nos mon ma mes chaque'.split(' '));
/** French words saying when, or a kind of value, that are never the object (`mensuel`, `annuel` qualify the value). */
const FR_NOT_OBJECT = new Set('aujourd hui demain hier maintenant actuellement mensuel mensuelle annuel annuelle journalier journaliere hebdomadaire horaire total totale'.split(' '));
/** French paying verbs of a question (*Combien coûte…*, *Quelle somme faut-il verser*): what is asked is a payment. */
const FR_PAYING = /\b(?:coute|coutent|couter|payer|paye|payee|payes|payees|paie|paient|verser|verse|versee|verses|versees|regler|regle|reglee|regles|reglees|facturer|facture|facturee|rembourser|rembourse|remboursee|preleve|prelevee|prelever)\b/;
/** French nouns of a payment (a head said otherwise by the document: *avance* / *acompte*, *rémunération* / *honoraires*). */
const FR_PAYMENT = new Set(
  'avance acompte arrhes remuneration honoraires salaire gratification indemnite indemnites prime primes majoration remboursement ristourne remise rabais commission loyer cotisation redevance penalite penalites amende caution depot franchise allocation subvention bonus forfait'.split(' '),
);

/**
 * The frame of a French question (thirteenth round, lpred2; Asked.frame as frameOf reads it in English): the head read
 * after an inverted subject (*les enregistrements … sont-ils **gardés***) is a verb; the object nouns are the words
 * after a determiner, a possessive or *de* / *à* (no tagger in French), past the head, names, codes, figures, the
 * generic words of a kind of value and infinitives after *de*; a payment is asked by a money value, a payment noun as
 * the head (*avance*, *rémunération*, or a head whose English translation has a WordNet possession sense) or a paying
 * verb (*coûte*, *verser*); the acts set aside follow *pas seulement*, *plutôt que*, *au lieu de*; *à quelle fréquence*
 * asks a recurrence, *dans / sous quel délai*, *en / sous combien de temps* a time limit.
 */
function frenchFrameOf(question: string, type: AnswerType | null, value: ValueKind | null, head: string | null, verb: boolean, names: Set<string>): Frame {
  const q = fold(question).replace(/[^\p{L}\p{N}\s]+/gu, ' ').replace(/\s+/g, ' ').trim();
  const ws = q.split(' ');
  // A head after a subject pronoun or a modal (`Brightpath doit-il être **payé**`), or right after `qui` (`Qui **tient**
  // les finances`), and after no determiner, is a verb.
  const at = head ? ws.indexOf(head) : -1;
  if (at > 0 && !FR_NOUN_AFTER.has(ws[at - 1]!) && (ws[at - 1] === 'qui' || ws.slice(Math.max(0, at - 3), at).some((x) => FR_INVERTED.has(x) || FR_MODAL.has(x)))) verb = true;
  const raw = question.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const objects: string[] = [];
  const written: string[] = [];
  const things: string[] = [];
  ws.forEach((w, k) => {
    const before = ws[k - 1] ?? '';
    // `en passant commande`: the noun after a gerund.
    const gerund = ws[k - 2] === 'en' && /ant$/.test(before);
    if (!FR_NOUN_AFTER.has(before) && before !== 'a' && !gerund) return;
    if (w === head || w.length < 3 || /\d/.test(w) || names.has(w) || FR_SKIP.has(w) || FR_GENERIC.has(w) || FR_NOT_OBJECT.has(w) || isGeneric(w, type, value)) return;
    // `le droit de grimper`: an infinitive after de or à is a verb.
    if ((before === 'de' || before === 'd' || before === 'a') && /(?:er|ir)$/.test(w)) return;
    if (!objects.includes(w)) {
      objects.push(w);
      written.push(raw.length === ws.length ? raw[k]! : w);
      const participle = raw.length === ws.length && raw[k - 1] === 'a';
      const preposition = (before === 'au' || before === 'en' || before === 'a') && FR_OF.has(ws[k + 1] ?? '');
      if (!participle && !preposition) things.push(w);
    }
  });
  const money = value === 'money' || (!verb && head !== null && (FR_PAYMENT.has(head) || translationsOf(head).some((t) => nounClasses(t).has(LEX.possession)))) || ((type === null || type === 'amount') && FR_PAYING.test(q));
  const excluded: string[] = [];
  for (const m of q.matchAll(/\b(?:pas seulement|pas simplement|pas uniquement|plutot que d?|au lieu d[e]?)\s+(\p{L}{3,})/gu)) excluded.push(m[1]!);
  const duration = /\ba quelle (?:frequence|periodicite)\b|\btous les combien\b|\bcombien de fois par\b/.test(q) ? 'recurrence' : /\b(?:dans|sous|en) (?:quel delai|combien de temps|combien de jours|combien d heures)\b|\bquel (?:est le )?delai\b/.test(q) ? 'limit' : null;
  return { verb, objects, money, excluded, written, things, ...(type === 'duration' && duration ? { duration } : {}) };
}

/** A recurrence said (*every 6 months*, *twice a year*, *monthly*, *per year*) or a time limit (*within 5 days*, *no later than*). */
const RECURRENCE = /\b(?:every|each|per|times|twice|once|annually|yearly|monthly|weekly|daily|hourly|quarterly|fortnightly|biannually|chaque|tous les|toutes les|par (?:an|mois|semaine|jour))\b/;
const LIMIT = /\b(?:within|no later than|at the latest|at most|maximum|max|under|less than|before|inside|dans un delai|sous|au plus tard|au maximum|response|respond|delai|deadline|time)\b/;

/**
 * What the value asked is for (Asked.purpose): on a question asking a value (a type) or a head, the nouns of the phrase
 * after the first *for* past the asking word (*for a new **patient examination***), past a gerund opening it (*for ending
 * a **business tenancy***), leaving out the words the answer type stands for, words saying when and the head itself.
 * None when that phrase holds a name, a code or a figure (checked on their own).
 */
function purposeOf(question: string, type: AnswerType | null, value: ValueKind | null, skip: (t: Token) => boolean, read: Read): string[] | null {
  if (!type && !read.head) return null;
  const tokens = tag(question);
  const at = tokens.findIndex((t) => WH_EN.has(fold(t.value)));
  if (at < 0) return null;
  let k = tokens.findIndex((t, i) => i > at && fold(t.value) === 'for');
  if (k < 0) return null;
  k++;
  // `for ending a business tenancy`: the gerund's object is what the value is for.
  if (tokens[k]?.pos === 'VERB' && /ing$/.test(fold(tokens[k]!.value))) k++;
  while (tokens[k] && /^(?:DET|PRON)$/.test(tokens[k]!.pos)) k++;
  const nouns: string[] = [];
  // Participles narrow the noun (`frozen goods`) like adjectives.
  for (; tokens[k] && (/^(?:NOUN|ADJ|PROPN|NUM)$/.test(tokens[k]!.pos) || (tokens[k]!.pos === 'VERB' && PARTICIPLE.test(fold(tokens[k]!.value)))); k++) {
    const t = tokens[k]!;
    // A phrase naming a code, a figure or a name (`for the KX-10 rollout`) is anchored by it, checked on its own.
    if (t.pos === 'PROPN' || t.pos === 'NUM' || skip(t)) return null;
    const w = fold(t.value);
    // A gerund in the phrase is a noun the tagger read as a verb (`the summit booking`).
    if ((t.pos === 'NOUN' || (t.pos === 'VERB' && /ing$/.test(w))) && w !== read.head && !NOW.has(w) && !isGeneric(w, type, value) && w.length >= 3) nouns.push(w);
  }
  // `for a table of 6 or more`: a figure or a name in its complement anchors it too.
  if (fold(tokens[k]?.value ?? '') === 'of' && tokens.slice(k + 1, k + 3).some((t) => t.pos === 'NUM' || t.pos === 'PROPN' || skip(t))) return null;
  return nouns.length > 0 ? nouns : null;
}

/**
 * The thing a question's value is measured of or for (lanswer3 round, read by the built-in model to choose among answering
 * sentences): the nouns of the phrase after the first *of* or *for* past the asking word (*How many kWh of **gas***, *the
 * cost of the annual **service** for the boiler*), in English. None when that phrase holds a name, a code or a figure
 * (checked on their own), or its nouns are words the answer type stands for.
 */
export function focusOf(question: string): string[] {
  if (languageOf(question) !== 'en') return [];
  const tokens = tag(question.length > ASKED_CHARS ? question.slice(0, ASKED_CHARS) : question);
  const at = tokens.findIndex((t) => WH_EN.has(fold(t.value)));
  if (at < 0) return [];
  let k = tokens.findIndex((t, i) => i > at && /^(?:of|for)$/.test(fold(t.value)));
  if (k < 0) return [];
  k++;
  if (tokens[k]?.pos === 'VERB' && /ing$/.test(fold(tokens[k]!.value))) k++;
  while (tokens[k] && /^(?:DET|PRON)$/.test(tokens[k]!.pos)) k++;
  const nouns: string[] = [];
  for (; tokens[k] && (/^(?:NOUN|ADJ|PROPN|NUM)$/.test(tokens[k]!.pos) || (tokens[k]!.pos === 'VERB' && PARTICIPLE.test(fold(tokens[k]!.value)))); k++) {
    const t = tokens[k]!;
    if (t.pos === 'PROPN' || t.pos === 'NUM' || codesOf(t.value).length > 0) return [];
    const w = fold(t.value);
    if ((t.pos === 'NOUN' || (t.pos === 'VERB' && /ing$/.test(w))) && !NOW.has(w) && !GENERIC_ANY.has(w) && w.length >= 3) nouns.push(w);
  }
  return nouns;
}

/**
 * The noun of a *which* or *what* phrase right before its verb (`Which electricity tariff is…`, `In which cities are…`,
 * `What documents does…`): the last noun of the phrase, not a name, code or figure. Null when the asking word is
 * followed by its verb (`What is…`) or the phrase runs on past a preposition (`Which items from order…`).
 */
function kindOf(question: string, skip: (t: Token) => boolean): string | null {
  const tokens = tag(question).filter((t) => t.pos !== 'PUNCT');
  const at = tokens.findIndex((t) => /^(?:which|what)$/i.test(t.value));
  if (at < 0) return null;
  let noun: string | null = null;
  for (let k = at + 1; k < tokens.length && k <= at + 4; k++) {
    const t = tokens[k]!;
    if (t.pos === 'AUX' || (t.pos === 'VERB' && noun)) return noun;
    if (t.pos === 'NOUN' && !skip(t)) noun = fold(t.value);
    else if (t.pos !== 'ADJ' && t.pos !== 'NOUN') return null;
  }
  return null;
}

/** Whether a text says a word (lanswer round, Asked.kind): the word, a stem, a synonym, a translation, a paraphrase or a derived form. */
export function saysWord(word: string, text: string): boolean {
  return holdsForm(wordForms(word), wordsOf(text));
}

/** French auxiliaries of an active compound tense (`a remporté`), not of a passive (`est`, `a été`). */
const FR_ACTIVE_AUX = new Set('a ont avait avaient aura auront'.split(' '));

/**
 * The verb a French question asks about (Asked.distinctive): a past participle right after an active auxiliary, itself
 * right after the asking phrase (*Quelle entreprise **a remporté** le marché*), whose noun the head reading passes over.
 */
function frenchDistinctiveOf(question: string, head: string | null): string[] {
  const q = fold(question).replace(/[^\p{L}\p{N}\s]+/gu, ' ').replace(/\s+/g, ' ');
  const m = FR_WH.exec(q);
  // The asking word opens the question, after a preposition at most (`Dans quel…`), not a relative clause (`Un client qui…`).
  if (!m || q.slice(0, m.index).trim().split(' ').filter(Boolean).length > 1) return [];
  const ws = q.slice(m.index + m[0].length).trim().split(' ');
  const k = ws.findIndex((w) => FR_ACTIVE_AUX.has(w));
  // The auxiliary follows the asking word's noun at most (`quelle entreprise a`), never a clause further on.
  if (k < 0 || k > 1) return [];
  const w = ws[k + 1];
  if (!w || w === head || w.length < 4 || FR_SKIP.has(w) || FR_GENERIC.has(w) || !/(?:e|ee|es|ees|i|is|ie|ies|u|us|ue|ues|t|te|ts|tes)$/.test(w)) return [];
  return [w];
}

/** Parts of speech of a subject between an inverted auxiliary and its verb (`did **the Harlow boilers** consume`). */
const INVERTED_AUX = new Set('do does did must should shall can could will would may might'.split(' '));
const SUBJECT_POS = new Set(['DET', 'NOUN', 'PROPN', 'ADJ', 'NUM', 'PART', 'PRON', 'X', 'SYM', 'ADV']);

/**
 * The distinctive word of an English question besides its head (Asked.distinctive): the verb it asks about, read
 * where an auxiliary or a modal is inverted before its subject (*How much gas **did** the boilers **consume***, *At what
 * time **does** the ceremony **begin***), when that verb is not a light verb, the head, or a word the answer type
 * stands for (*charge* in a money question). A passive (*is charged*, *must … be changed*) or a verb in another clause
 * (*if it runs late*, *staff who work from home*) is left out: those are said in too many ways.
 */
function distinctiveOf(question: string, type: AnswerType | null, value: ValueKind | null, skip: (t: Token) => boolean, read: Read): string[] {
  const tokens = tag(question);
  const at = tokens.findIndex((t) => WH_EN.has(fold(t.value)));
  if (at < 0) return [];
  const aux = tokens.findIndex((t, k) => k > at && t.pos === 'AUX');
  // `do` or a modal: `is … retained`, `was … named` are passives, `is the recommended price` a copula.
  if (aux < 0 || !INVERTED_AUX.has(fold(tokens[aux]!.value))) return [];
  if (aux < 0 || tokens.slice(at + 1, aux).some((t) => t.pos === 'VERB')) return [];
  let k = aux + 1;
  while (tokens[k] && (SUBJECT_POS.has(tokens[k]!.pos) || (fold(tokens[k]!.value) === 'of' && k > aux + 1))) k++;
  const t = tokens[k];
  // A participle before a noun modifies it (`the routing API`): no verb.
  // A participle before a noun modifies it (`the routing API`); one before an auxiliary is in the subject (`reservations
  // noted on delivery be confirmed`): no verb read.
  if (!t || t.pos !== 'VERB' || k === aux + 1 || /^(?:NOUN|PROPN)$/.test(tokens[k + 1]?.pos ?? '') || tokens.slice(k + 1).some((x) => x.pos === 'AUX')) return [];
  const w = fold(t.value);
  if (w === read.head || LIGHT_VERBS.has(w) || skip(t) || isGeneric(w, type, value) || DEVERBAL_PREPOSITIONS.has(w)) return [];
  return [w];
}

/** Adjectives of quantity, identity and distribution: they narrow nothing to one kind (*other*, *same*, *many*). */
const NOT_NARROWING = new Set('other same such many much more most less least few fewer several own each every any all both various certain different new usual normal'.split(' '));

/**
 * The words narrowing a noun of an English question (Asked.contrasts): an adjective or a noun right before a noun (*a
 * **female** dog*, *the **evening** rate*, *the **maximum** deposit*), not a name, a figure, a word saying when or a
 * word the answer type stands for, with the words WordNet opposes to it.
 */
function contrastsIn(question: string, type: AnswerType | null, value: ValueKind | null, skip: (t: Token) => boolean): Contrast[] {
  const tokens = tag(question);
  const out: Contrast[] = [];
  for (let k = 0; k + 1 < tokens.length; k++) {
    const t = tokens[k]!;
    if ((t.pos !== 'ADJ' && t.pos !== 'NOUN') || tokens[k + 1]!.pos !== 'NOUN' || !/^\p{Ll}+$/u.test(t.value)) continue;
    const w = fold(t.value);
    if (skip(t) || NOW.has(w) || NOT_NARROWING.has(w) || isGeneric(w, type, value) || whenOf(w) || periodsOf(w).length > 0 || out.some((c) => c.word === w)) continue;
    const against = contrastsOf(w);
    const lex = t.pos === 'NOUN' ? firstNounClass(w) : null;
    if (against.length > 0 || lex !== null) out.push({ word: w, against: new Set(against.map((a) => stemmed(a)[0])), noun: stemmed(fold(tokens[k + 1]!.value))[0], lex });
  }
  return out;
}

/**
 * Whether a sentence is about another thing of the kind the question narrows (Asked.contrasts): it says a word opposed
 * to a narrowing word of the question (*male* for *female*, *minimum* for *maximum*) and not that word itself, nor its
 * synonyms, translations or derived forms, anywhere in its context.
 */
function saysOpposite(asked: Asked, sentenceWords: string[], contextWords: string[]): boolean {
  return asked.contrasts.some((c) => (sentenceWords.some((w) => c.against.has(stemmed(w)[0])) || saysSister(c, sentenceWords)) && !holdsForm(wordForms(c.word), contextWords));
}

/**
 * The noun the question narrows, narrowed in the sentence by another noun of the same class (*the **day** rate* for
 * *the evening rate*: two times of day): a sister thing, when that noun is no form of the question's.
 */
function saysSister(c: Contrast, words: string[]): boolean {
  if (c.lex === null) return false;
  for (let i = 1; i < words.length; i++) {
    if (stemmed(words[i]!)[0] !== c.noun) continue;
    const w = words[i - 1]!;
    if (w !== c.word && w.length >= 3 && /^\p{L}+$/u.test(w) && firstNounClass(w) === c.lex && !holdsForm(wordForms(c.word), [w])) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------
// The answering sentence

/** Words stemmed so far (both stems, and the French stem of the English one), emptied when full. */
const STEM_MEMO_MAX = 50_000;
const stemMemo = new Map<string, [string, string, string]>();

function stemmed(w: string): [string, string, string] {
  let s = stemMemo.get(w);
  if (!s) {
    const en = stemEnglish(w);
    s = [en, stemFrench(w), stemFrench(en)];
    if (stemMemo.size >= STEM_MEMO_MAX) stemMemo.clear();
    stemMemo.set(w, s);
  }
  return s;
}

/** Both languages' stems of a word: a French question may be answered by an English document. */
const stemsOf = (w: string): string[] => stemmed(w).slice(0, 2);

/** Forms that stand for the head: its stems, and those of its synonyms and translations. */
export function headForms(asked: Asked): Set<string> {
  if (!asked.head) return new Set();
  const forms = new Set([asked.head, ...alternativesOf(asked.head), ...roleFunctionsOf(asked)].flatMap(stemsOf));
  for (const w of relatedWords(asked.head)) for (const f of relatedStems(w)) forms.add(f);
  return forms;
}

/**
 * The function words of a role asked by a who-question (`commissioning` in *Who is the commissioning
 * specialist*): titles vary from one document to another (specialist, engineer, officer, lead) while the
 * function is what tells one role from another, so the function beside a name says the role. Only nouns
 * (not `new`), and not a person noun itself (`senior`).
 */
function roleFunctionsOf(asked: Asked): string[] {
  if (asked.type !== 'person' || asked.language !== 'en' || !asked.head || !nounClasses(asked.head).has(LEX.person)) return [];
  return asked.phrase.filter((w) => {
    if (w === asked.head || w.length < 4 || isGeneric(w, asked.type, asked.value)) return false;
    const classes = nounClasses(w);
    return classes.size > 0 && !classes.has(LEX.person);
  });
}

/** Forms that say a word: its stems, and those of its synonyms, translations and related words (as for the head). */
function wordForms(w: string): Set<string> {
  let forms = formsMemo.get(w);
  if (!forms) {
    forms = new Set([w, ...alternativesOf(w)].flatMap(stemsOf));
    for (const r of relatedWords(w)) for (const f of relatedStems(r)) forms.add(f);
    if (formsMemo.size >= STEM_MEMO_MAX) formsMemo.clear();
    formsMemo.set(w, forms);
  }
  return forms;
}
const formsMemo = new Map<string, Set<string>>();

/** Whether some word of the text is one of the forms (by either language's stem). */
const holdsForm = (forms: Set<string>, words: string[]) =>
  words.some((w) => {
    const [en, fr] = stemmed(w);
    return forms.has(en) || forms.has(fr);
  });

/** Whether the words say a word (wordForms), also as the end of a closed compound (`chip` in *microchip*). */
const saysWordIn = (w: string, words: string[]) => holdsForm(wordForms(w), words) || (w.length >= 4 && words.some((x) => x.length > w.length && x.endsWith(w)));

/** A related word as a form: itself, and those of its stems long enough not to be another word (`due` is no `du`). */
const relatedStems = (w: string): string[] => [w, ...stemsOf(w).filter((s) => s.length >= 4)];

/**
 * Words related to a folded word (the graded head of issue 26, fourth round), closer first: its paraphrases
 * in the business lexicon (paraphrase.ts: *testers* / *QA*, *hosted* / *stored*; the lexicon holds both
 * languages) and the forms WordNet derives from it (*storage* of store). One step only: a translation's
 * paraphrases drift (*rate* is *tarif*, whose paraphrase *fee* is no VAT rate). Kept apart from
 * alternativesOf, which the verifier and the search share.
 */
export function relatedWords(folded: string): string[] {
  if (folded.length < 3 || /\d/.test(folded)) return [];
  const bases = [folded, ...baseFormsOf(folded)];
  const para = new Set(bases.flatMap(paraphrasesOf));
  for (const b of bases) for (const w of relatedOf(b).derived) if (/^\p{L}+$/u.test(w)) para.add(w);
  para.delete(folded);
  return [...para];
}

/**
 * Forms one step further from the head: its WordNet hypernyms and hyponyms (*fee* and *toll*). The gate
 * accepts them only with the retrieval's own evidence (answeringSentences, `evidence`).
 */
export function kinForms(asked: Asked): Set<string> {
  if (!asked.head || asked.language !== 'en') return new Set();
  const kin = [asked.head, ...baseFormsOf(asked.head)].flatMap((w) => relatedOf(w).kin).filter((w) => /^\p{L}+$/u.test(w));
  return new Set(kin.flatMap(relatedStems));
}

/** The context of a sentence that may state the head or the terms: the sentence before, the table header, the section, the document's name. */
export interface SentenceContext {
  previous: string;
  header: string;
  section: string;
  sourceName: string;
  /** A field's record (seventh round): the whole block of `Label: value` fields it was read from (recordFields). */
  record?: string;
  /**
   * The codes the passage states alone of their shape (lanswer round, soleCodes), as folded words: a passage naming one
   * project code, one invoice number or one year is about it in each of its sentences. A question's code is one of them
   * only as a whole (the figure 240 is not the item code NG-CHR-240).
   */
  sole?: string[];
  /**
   * The document's head (eighth round): what it states before its first section, its number, parties and period
   * (`Policy number: PSM-CH-2026-58317`), which each of its rows and sentences is about without repeating it.
   */
  document?: string;
}

function holdsHead(asked: Asked, forms: Set<string>, words: string[]): boolean {
  if (!asked.head) return true;
  if (words.some((w) => {
    const [en, fr] = stemmed(w);
    return forms.has(en) || forms.has(fr);
  })) return true;
  return saysInitials(asked, words) || saysAsNoun(asked, words) || saysHyphenated(asked.head, words);
}

/**
 * A hyphenated head (`co-investigator`, `sous-traitant`) is said by its parts in a row, as a text's words split it, or
 * written as one word (`coinvestigator`).
 */
function saysHyphenated(head: string, words: string[]): boolean {
  const parts = head.split('-').filter(Boolean);
  if (parts.length < 2) return false;
  const joined = parts.join('');
  for (let i = 0; i < words.length; i++) {
    if (words[i] === joined || stemmed(words[i]!)[0] === stemmed(joined)[0]) return true;
    if (parts.every((p, k) => words[i + k] === p || (k === parts.length - 1 && words[i + k] !== undefined && stemmed(words[i + k]!)[0] === stemmed(p)[0]))) return true;
  }
  return false;
}

/** French nouns made from a verb's stem (`coulage`, `livraison`, `versement`, `fermeture`). */
const FR_NOMINAL = /^(?:age|ages|aison|aisons|ement|ements|ation|ations|ure|ures)$/;

/**
 * A French verb head said by its noun (`coulé` / *le coulage*, `livrer` / *livraison*): a word of the text is the
 * head's French stem (4 letters at least) followed by a suffix that makes a noun of a verb.
 */
function saysAsNoun(asked: Asked, words: string[]): boolean {
  if (asked.language !== 'fr' || !asked.head) return false;
  // A folded feminine participle keeps an `e` its verb's stem has not (`réparée` stems to `repare`).
  const base = stemmed(asked.head)[1].replace(/e$/, '');
  return base.length >= 4 && words.some((w) => w.length > base.length && w.startsWith(base) && FR_NOMINAL.test(w.slice(base.length)));
}

/**
 * A French verb said by a word of its family (q-nearmiss round): a word of the text opens with the verb's French stem of
 * 4 letters at least (`signé` / *signataire*, *signature*), as the English verb is said by WordNet's derived forms.
 */
function saysFrenchFamily(asked: Asked, verb: string, words: string[]): boolean {
  if (asked.language !== 'fr') return false;
  const base = stemmed(verb)[1].replace(/e$/, '');
  return base.length >= 4 && words.some((w) => w.startsWith(base));
}

/** `clean air delivery rate` stated as `CADR`: the initials of the head's phrase say all its words. */
function saysInitials(asked: Asked, words: string[]): boolean {
  if (asked.phrase.length < 2) return false;
  const initials = asked.phrase.map((w) => w[0]).join('');
  return initials.length >= 3 && words.includes(initials);
}

/** The nouns narrowing the head (Asked.modifiers), each said in the words (as for the head) or by the phrase's initials. */
const holdsModifiers = (asked: Asked, words: string[]) => asked.modifiers.every((m) => holdsForm(wordForms(m), words)) || saysInitials(asked, words);

/**
 * A compound is respected unless its text names one of its parts without the whole: `parent` where the
 * question asks about a `grand-parent` is another thing; a text naming neither may say it otherwise.
 */
function respectsCompound(parts: string[], words: string[]): boolean {
  const joined = parts.join('');
  const norm = (w: string) => stemmed(w)[2];
  const stems = parts.map(norm);
  const normed = words.map(norm);
  for (let i = 0; i < words.length; i++) {
    if (words[i] === joined) return true;
    if (stems.every((s, k) => normed[i + k] === s)) return true;
  }
  return !stems.some((s) => normed.includes(s));
}

const ANAPHORA = /^\s*(?:it|its|this|that|these|those|they|their|such|he|she|il|elle|ils|elles|ce|cet|cette|ces|celui-ci|celle-ci|ceux-ci|celles-ci|son|sa|ses|leur|leurs)\b/iu;

/** A text without its plain figures with a unit (`12-month`, `24-hour`), which are no codes of a thing. */
const withoutFigures = (text: string) => text.replace(/\b\d+(?:[.,]\d+)?-\p{L}+/gu, ' ');

/**
 * A code or a figure of the question, as written (`aqf 50` for AQF-50), in a folded text. A figure joined to its unit
 * as a modifier (`a 15-minute consultation`, `a 3-year term`) is said by the figure and its unit in the plural too
 * (`15 minutes`, `3 years`): the same measure as a noun phrase.
 */
export const holdsTerm = (t: Pick<Entity, 'words'>, flat: string): boolean =>
  flat.includes(` ${t.words.join(' ')} `) || flat.includes(` ${t.words.join('')} `) || (t.words.length === 2 && /^\d+$/.test(t.words[0]!) && /^\p{L}{2,}$/u.test(t.words[1]!) && flat.includes(` ${t.words[0]} ${t.words[1]}s `)) || holdsLabelledAcross(t, flat);

/**
 * A code made of a common word and what it numbers (*Line A*, *building A*, *a 10-entry card*) is written in a document of
 * the other language with the word translated, on either side of its number (*ligne A*, *bâtiment A*, *Carte 10
 * entrées*; fourteenth round, lcross2): the word's glossary rendering, or its plural, beside the same number or letter.
 */
function holdsLabelledAcross(t: Pick<Entity, 'words'>, flat: string): boolean {
  if (t.words.length !== 2) return false;
  const at = t.words.findIndex((w) => /^\p{L}{3,}$/u.test(w));
  const mark = t.words[1 - at];
  if (at < 0 || !mark || !/^(?:\d+|\p{L})$/u.test(mark)) return false;
  const renderings = translationsOf(t.words[at]!);
  if (renderings.length === 0) return false;
  const stem = (w: string) => stemmed(w)[1];
  const said = new Set(renderings.map(stem));
  const ws = flat.split(' ');
  return ws.some((w, i) => w === mark && [ws[i - 1], ws[i + 1]].some((n) => n !== undefined && n.length >= 3 && said.has(stem(n))));
}

/** A clause's number opening a sentence before its first word (`4.2 Items`, `12.1.3 Le client`). */
const CLAUSE_NUMBER = /^\s*\d+(?:\.\d+)+\.?\s+(?=\p{Lu})/u;

/** A figure written alone (`250`, `60,000`, `4.5`), not a code's digits. */
const FIGURE = /^\d+(?:[.,]\d+)*$/;

/** The sentence with the question's own figures (its terms written as bare figures) and its clause number blanked out. */
export function withoutOwnFigures(asked: Pick<Asked, 'terms'>, sentence: string): string {
  // A clause's number opening it (`4.2 Items returned…`, `1.3 Each resident…`) labels it and states no value.
  let out = sentence.replace(CLAUSE_NUMBER, '');
  for (const t of asked.terms) if (FIGURE.test(t.text)) out = out.replace(figurePattern(t.text), ' ');
  return out;
}

/** The lower-case noun right after the head and *of* / *de* and an article (*location d'une corde*: `corde`). */
function ofHead(question: string, head: string): string | null {
  const ws = question.match(/[\p{L}\p{N}]+/gu) ?? [];
  for (let i = 0; i + 2 < ws.length; i++) {
    if (fold(ws[i]!) !== head || !/^(?:of|de|du|des|d)$/i.test(ws[i + 1]!)) continue;
    let k = i + 2;
    if (/^(?:the|a|an|un|une|le|la|les|l)$/i.test(ws[k]!)) k++;
    const w = ws[k];
    return w && /^\p{Ll}{3,}$/u.test(w) ? fold(w) : null;
  }
  return null;
}

/** A code naming a thing (`CN-2025-0041`, `INV-2025-0352`): letters and digits, not a bare figure. */
const namingCodesOf = (text: string): Entity[] => codesOf(text).filter((c) => /\p{L}/u.test(c.text) && /\d/.test(c.text));

/**
 * The sentence without the values said of another thing than the question's coded one (thirteenth round, lfact2): when
 * the question names a code (*invoice INV-2025-0352*), a value in the parenthesis right after another code (*Credit note
 * CN-2025-0041 (£38.00)*) is that code's value, and when the sentence opens on another code before the question's (its
 * subject), every value before the question's code is said of that subject: *Credit note CN-2025-0041 (£38.00) relates
 * to 4 sensor brackets from invoice INV-2025-0352* states no amount of the invoice.
 */
export function withoutOthersValues(asked: Pick<Asked, 'terms'>, sentence: string): string {
  const own = asked.terms.filter((t) => /\p{L}/u.test(t.text) && /\d/.test(t.text));
  if (own.length === 0) return sentence;
  const codes = namingCodesOf(sentence);
  const isOwn = (c: Entity) => own.some((t) => t.words.join(' ') === c.words.join(' ') || t.words.join('') === c.words.join(''));
  const others = codes.filter((c) => !isOwn(c));
  if (others.length === 0) return sentence;
  let out = sentence;
  const blank = (from: number, to: number) => (out = out.slice(0, from) + ' '.repeat(to - from) + out.slice(to));
  // The value's own phrase: the parenthesis right after another code.
  for (const c of others) {
    const m = /^\s*\(([^()]*)\)/.exec(sentence.slice(c.end));
    if (m) blank(c.end, c.end + m[0].length);
  }
  // The clause's subject: the sentence opens on another code, the question's comes later.
  const first = codes[0]!;
  const ownAt = codes.find(isOwn);
  if (!isOwn(first) && ownAt) blank(0, ownAt.start);
  return out;
}

/**
 * The sentence without the values of a list whose labels do not say the thing asked (thirteenth round, lfact2): in a list
 * of labelled values (*Location : chaussons CHF 6.–, baudrier CHF 4.–, système d'assurage CHF 3.–*), a value's own phrase
 * is its item's label. When the question asks the head of a thing (*la location d'une **corde***), the items whose label
 * says that thing keep their values and the others lose theirs; when no label and nothing else in the sentence says it,
 * the list holds no value of it.
 */
export function withoutOtherItems(asked: Pick<Asked, 'type' | 'value' | 'of'>, sentence: string): string {
  if (!asked.of || !asked.type) return sentence;
  const colon = sentence.search(/:\s/);
  const start = colon < 0 ? 0 : colon + 1;
  const items: { from: number; to: number; label: string }[] = [];
  const re = /[^,;]+(?:[,;](?!\s)[^,;]*)*/g;
  const rest = sentence.slice(start);
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    const text = m[0];
    if (!holdsValue(asked, text)) continue;
    const label = /^[^\d€£$]*/u.exec(text)![0];
    if (!/\p{L}{3,}/u.test(label)) return sentence;
    items.push({ from: start + m.index, to: start + m.index + text.length, label });
  }
  if (items.length < 2) return sentence;
  const saying = items.filter((it) => saysWord(asked.of!, it.label));
  if (saying.length === 0 && saysWord(asked.of, sentence)) return sentence;
  let out = sentence;
  for (const it of items) if (!saying.includes(it)) out = out.slice(0, it.from) + ' '.repeat(it.to - it.from) + out.slice(it.to);
  return out;
}

/** A name's number in a text: a capitalised word, not opening it, and the figure right after it (`CANSail 5–6`, `Room 12`). */
const NAMED_NUMBER = /(?<=[^\s.!?]\s+)(\p{Lu}\p{L}+)\s+(\d+)(?![\d.,:]\d)/gu;

/** The question's numbered things (Asked.numbered): each capitalised word, not a month, and its figure. */
function numberedOf(question: string): [string, string][] {
  return [...question.matchAll(NAMED_NUMBER)].filter((m) => monthsOf(m[1]!).size === 0).map((m) => [m[1]!, m[2]!]);
}

/**
 * Whether a sentence (with its context) leaves the question's numbered thing unsaid (thirteenth round, lfact2): the question
 * names *CANSail **5**–6*; a row whose own phrase is *CANSail 1–2*, or *Coastal Navigation*, is about another course, even
 * where a `5` and a `6` are said elsewhere in it (*Aug 5–8*, *6 Tuesday evenings*). The word and its figure are said
 * together in the sentence, its table header, record, section, document name or head.
 */
export function missesNumbered(asked: Pick<Asked, 'numbered'>, sentence: string, context: SentenceContext): boolean {
  if (!asked.numbered) return false;
  const near = ` ${wordsOf(`${sentence}\n${context.header}\n${context.record ?? ''}\n${context.section}\n${context.sourceName}\n${context.document ?? ''}`).join(' ')} `;
  return asked.numbered.some(([word, figure]) => !near.includes(` ${fold(word)} ${figure} `));
}

const MONTH = '(?:jan(?:uary|vier)?|f[eé]v(?:rier)?|feb(?:ruary)?|mar(?:ch|s)?|apr(?:il)?|avr(?:il)?|mai|june?|juin|july?|juil(?:let)?|aug(?:ust)?|ao[uû]t|sep(?:t(?:ember|embre)?)?|oct(?:ober|obre)?|nov(?:ember|embre)?|dec(?:ember)?|d[eé]c(?:embre)?)\\.?';
/**
 * A day or a month of a year as written (`12 juin 2025`, `3rd April`, `October 2026`, `2025-04-18`, `18/04/2025`); May
 * only with its year (`2 may be absent` is a count).
 */
const DAY_WRITTEN = new RegExp(
  `\\b(?:\\d{1,2}(?:er|st|nd|rd|th)?\\s+(?:${MONTH}(?:\\s+\\d{4})?|may\\s+\\d{4})|may\\s+(?:\\d{1,2},?\\s+)?\\d{4}|${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}|${MONTH}\\s+\\d{4}|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}/\\d{1,2}/\\d{2,4})\\b`,
  'giu',
);

/** A time of day with its minutes (`17 h 35`, `9:30`, `10h15`, `2.30 pm`). */
const CLOCK_WRITTEN = /\b\d{1,2}\s?(?:h|:)\s?\d{2}\b|\b\d{1,2}(?:[.:]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?!\p{L})/giu;

/**
 * The text with its days, times of day and years blanked out: their figures are no amount (`d'ici la réunion du 12 juin
 * 2025`, `la séance est levée à 17 h 35`, `l'assemblée générale de 2026`).
 */
export const withoutDays = (text: string): string => text.replace(DAY_WRITTEN, ' ').replace(CLOCK_WRITTEN, ' ').replace(YEAR_SAID, '$1 ');

/**
 * A year after a word saying when (`in 2024`, `exercice 2025`), or after *of* / *de* ending its phrase (`l'assemblée
 * générale de 2026.`); not a count (`up to 2000 vehicles`, `un total de 2000 personnes`).
 */
const YEAR_SAID =
  /(\b(?:in|since|until|during|year|fiscal|season|en|depuis|jusqu'en|d'ici|annee|année|exercice|saison|campagne)|\b(?:of|de)(?=\s+\d{4}(?!\s*[\p{L}\d])))\s+(?:19|20)\d{2}(?![\d.,]\d)/giu;

/** The first noun classes of things numbered by a figure after their name (`bay 2`, `version 3`, `clause 11`, `Zone 4`). */
const NUMBERED_CLASSES = new Set<number>([LEX.artifact, LEX.communication, LEX.group, LEX.location, 17, 25]);
const MEASURED = new RegExp(`^(?:${[VALUE_PATTERNS.weight, VALUE_PATTERNS.sound, VALUE_PATTERNS.speed, VALUE_PATTERNS.length].map((r) => r.source).join('|')})$`);
/** Noun classes of a measure, whose figure after it is its value (`capacity 60`, `age 15`): attribute, quantity, possession, time. */
const MEASURE_CLASSES = new Set<number>([7, LEX.quantity, LEX.possession, LEX.time]);
/** A noun, then one figure of at most three digits written alone, or a list of them (`items 2, 4, 5 and 6`). */
const LABEL_FIGURES = /(?<![\p{L}\p{N}])(\p{L}{3,})\s(\d{1,3}(?:(?:,\s|\s(?:and|et|&)\s)\d{1,3})*)(?!\d|[.,]\d|\s?(?:%|[€£$¥]))(?=\s*(\p{L}*))/gu;
/**
 * Digits in three groups or more not all of three digits after the first (`GB 318 7741 52`, `0330 912 4470`, `000 000 000
 * 00017`), or after *no.* / *n°* / *#*: an identifier (a VAT, telephone or company number), not an amount.
 */
const IDENTIFIER = /(?<![\d.,])\d+(?:[ \u00a0]\d+){2,}(?![\d.,]\d)|(?<=\b(?:no\.?|n°|nº|#)\s?)[A-Z]{0,3}\s?\d[\d ]*/giu;

/**
 * The text without figures that number a thing rather than count it (fourteenth round, lfact3): a figure right after
 * the noun it numbers (*printer bay 2*, *rate card version 3*, *clause 11*) or a list of them after a plural noun (*VAT
 * on items 2, 4, 5 and 6*), the noun being a thing (an artifact, a text, a group, a place: WordNet's first noun sense), no sense of
 * it a measure (*capacity 60* stays a count), and a single figure after a plural noun staying its label (*Seats 240*);
 * and the digits of an identifier. English puts a count before its noun (*2 bays*), a number after it names one.
 */
export function withoutLabels(text: string): string {
  const out = text.replace(IDENTIFIER, (m) => ' '.repeat(m.length));
  // The noun's class is read in English WordNet: a French word spelt like an English one (`Sur 412 membres`) is not it.
  if (languageOf(out) !== 'en') return out;
  return out.replace(LABEL_FIGURES, (m, noun: string, figures: string, next: string) => {
    // A figure with its unit (`bay 2 m wide`) measures.
    if (next && MEASURED.test(`1 ${fold(next)}`)) return m;
    // A verb or a function word before the figure (`was 41`) is no noun, whatever WordNet reads in it (`wa`).
    if (EN_WORDS.has(noun.toLowerCase()) || LIGHT_VERBS.has(noun.toLowerCase())) return m;
    const list = /\D/.test(figures);
    const plural = /[^s]s$/i.test(noun);
    if (list ? !plural : plural) return m;
    const classes = [...nounClasses(noun)];
    if (!NUMBERED_CLASSES.has(classes[0]!) || classes.some((c) => MEASURE_CLASSES.has(c))) return m;
    return `${noun} ${' '.repeat(figures.length)}`;
  });
}

const figureMemo = new Map<string, RegExp>();
/** A figure as written, `.` and `,` alike, not inside a longer figure (`250` is not in `1,250`). */
function figurePattern(figure: string): RegExp {
  let re = figureMemo.get(figure);
  if (!re) {
    if (figureMemo.size > 1_000) figureMemo.clear();
    re = new RegExp(`(?<![\\d.,])${figure.replace(/[.,]/g, '[.,]')}(?![\\d]|[.,]\\d)`, 'g');
    figureMemo.set(figure, re);
  }
  return re;
}

/**
 * Whether one sentence answers what is asked: it holds a value of the asked type and kind, and the head,
 * the codes and figures and the compounds are in it or in its context. Compounds are read only when the
 * passage is in the question's language (a compound is not translated).
 */
export function sentenceAnswers(
  asked: Asked,
  sentence: string,
  context: SentenceContext,
  forms: Set<string> = headForms(asked),
  sameLanguage = true,
  evidence?: Evidence,
  frame = false,
): boolean {
  // A date may be the document's own (minutes dated in their title, a section per meeting).
  const dated = (asked.type === 'date' || asked.type === 'deadline') && holdsValue(asked, `${context.section}\n${context.sourceName}`);
  // The question's own figures are what it is about, not its answer (lfact round): *Combien de pots de 250 g…* is not
  // answered by the sentence whose only figure is that `250 g`.
  const own = withoutOtherItems(asked, withoutOthersValues(asked, withoutOwnFigures(asked, sentence)));
  const valued = asked.type === 'amount' ? withoutLabels(withoutDays(own)) : own;
  if (!dated && !(context.header ? rowHoldsValue(asked, valued, context.header) : holdsValue(asked, valued))) return false;
  // A row or sentence not numbering the question's thing as it does (*CANSail 1–2* for *CANSail 5–6*) is about another one;
  // a passage in the other language may number it under a translated word.
  if (sameLanguage && missesNumbered(asked, sentence, context)) return false;
  // The sentence before counts when this one continues it (`It is extended…`, `Celle-ci…`).
  const continues = ANAPHORA.test(sentence);
  const around = `${continues ? context.previous : ''}\n${context.header}\n${context.record ?? ''}\n${context.section}\n${context.sourceName}`;
  const words = [...wordsOf(sentence), ...wordsOf(around)];
  // A head the glossary cannot translate is not required of a passage in the other language.
  const headRequired = sameLanguage || (asked.head !== null && translationsOf(asked.head).length > 0);
  if (headRequired && !holdsHead(asked, forms, words)) {
    // With the retrieval's evidence, the head may be in the passage elsewhere, or said by a kin word here.
    const byEvidence = evidence && (holdsHead(asked, forms, evidence.passageWords) || holdsHead(asked, evidence.kin, words));
    // Or the question's frame answers (twelfth round): a value of the asked kind beside the question's object noun, in a
    // passage of either language (fourteenth round: the object said by its translation).
    if (!byEvidence && !(frame && framed(asked, sentence, context, words))) return false;
  }
  const near = ` ${wordsOf(`${sentence}\n${context.header}\n${context.record ?? ''}\n${context.section}\n${context.sourceName}\n${context.document ?? ''}`).join(' ')} `;
  // A sentence naming no code of its own goes on with the codes of the one before (`… the AQ-350 and the
  // AQ-200 … Decision: two additional QA engineers…`); one naming another code is about that one.
  const before = asked.terms.length > 0 && codesOf(withoutFigures(sentence)).length === 0 ? ` ${wordsOf(context.previous).join(' ')} ` : '';
  const sole = (t: Entity) => context.sole?.includes(t.words.join(' ')) ?? false;
  if (!asked.terms.every((t) => holdsTerm(t, near) || sole(t) || (before !== '' && holdsTerm(t, before)))) return false;
  // A sentence naming a sister of the question's name (*Whitcombe House* for *Whitcombe Annex*) is about the other one.
  if (asked.names && namesSister(asked.names, sentence)) return false;
  // An amount counted per period (`hourly rate`, `montant mensuel`) is stated with its period, here or in its context.
  if ((asked.type === 'amount' || asked.type === null) && !asked.periods.every((p) => p.some((w) => words.includes(w)))) return false;
  // A sentence naming months, none of them the question's, is about another period (September for August).
  if (asked.months.length > 0) {
    const named = monthsOf(`${sentence}\n${context.header}`);
    if (named.size > 0 && !asked.months.some((m) => named.has(m))) return false;
    // A sentence naming no month is of its document's period (eighth round): a head stating other months only (the
    // October bill's `Billing period: 1 October 2026 to 31 October 2026`) is about another period.
    const period = named.size === 0 && context.document ? monthsSpannedOf(context.document) : null;
    if (period && period.size > 0 && !asked.months.some((m) => period.has(m))) return false;
  }
  // A sentence naming years, none of them the question's, is about another period (the 2024 budget for 2025; lnear round).
  if (namesOtherYears(asked, `${sentence}\n${context.header}`)) return false;
  // A sentence about the opposite of what the question narrows (*male* for a *female* dog) answers another question.
  if (sameLanguage && asked.contrasts.length > 0 && saysOpposite(asked, wordsOf(`${sentence}\n${context.header}`), [...words, ...wordsOf(context.document ?? '')])) return false;
  // The nouns narrowing the head are said beside it too: the *contents* sum insured is not the buildings one.
  if (sameLanguage && !holdsModifiers(asked, words) && !(evidence && holdsModifiers(asked, evidence.passageWords))) return false;
  // What the value is for is said beside it (lrefuse2 round): a fee for records access is no fee for an examination.
  if (sameLanguage && asked.purpose) {
    const near = [...words, ...wordsOf(context.document ?? '')];
    const says = (ws: string[]) => asked.purpose!.some((w) => saysWordIn(w, ws));
    if (!says(near) && !(evidence && says(evidence.passageWords))) return false;
  }
  // A question about the value now, or a former one, is answered only by a sentence saying so (WHEN).
  if (asked.when && !statesWhen(asked.when, `${sentence}\n${context.header}\n${context.section}`)) return false;
  return !sameLanguage || asked.compounds.every((c) => respectsCompound(c, words));
}

/**
 * The words naming the question's thing: its object nouns (Asked.frame; in French `things`), the nouns narrowing another
 * noun (*identification* chip), the parts of a hyphenated compound (*cross-country*), past the head and its phrase. Narrowing adjectives
 * are left to the opposed-word rule (saysOpposite): the asker's own idiom (*top speed*, *base fare*) is often not the
 * document's. Measured (lrefuse4): the French word after an object noun (*capacité **standard***) refused one near miss
 * more on the development sets but cost a right fact on a check set, and is not read.
 */
export function subjectWordsOf(asked: Asked): string[] {
  // The head's own phrase (*clean air delivery* rate, said *CADR*) names the value asked, and what the value is for is read
  // by rule 16, where one of its nouns is enough (Asked.purpose): neither names the thing here.
  const aside = new Set([...asked.phrase, ...(asked.purpose ?? [])]);
  const objects = ((asked.language === 'fr' ? asked.frame?.things : asked.frame?.objects) ?? []).filter((w) => !aside.has(w));
  const modifiers = asked.contrasts.filter((c) => c.lex !== null && !asked.phrase.includes(c.word)).map((c) => c.word);
  const out = new Set<string>([...objects, ...modifiers, ...asked.compounds.flat()]);
  if (asked.head) out.delete(asked.head);
  return [...out].filter((w) => w.length >= 3 && !/\d/.test(w) && !PAYING_VERBS.has(w) && !FR_NOUN_AFTER.has(w) && !FR_SKIP.has(w));
}

/**
 * Whether a table row is about another thing than the question's (fourteenth round, lrefuse4): a table lists things of
 * one kind, one a row, each named in its own cells, while its header, section, document name and head say what the
 * whole table is about. A word naming the question's thing (subjectWordsOf) said nowhere in the passage (the row, its
 * header, section, document name and head, the passage's other text: `passage`, its words) leaves the row another thing's:
 * *Standard ski set | CHF 54* for cross-country skis, *Châtaignier | 7,20 €/kg* for acacia honey. The gate reads it only
 * in a passage of the question's language.
 */
export function rowMissesSubject(asked: Asked, row: string, context: SentenceContext, passage: string[] = []): boolean {
  if (!context.header) return false;
  const wanted = subjectWordsOf(asked);
  if (wanted.length === 0) return false;
  // A row's own cells saying what the value is for (rule 16: *Microchip implantation* for *inserting an identification
  // chip in a pet*) name the thing asked; the question's other nouns are its setting, but for a compound's parts.
  const cells = wordsOf(row);
  const named = asked.purpose?.some((w) => saysWordIn(w, cells)) ?? false;
  const around = wordsOf(`${row}\n${context.header}\n${context.section}\n${context.sourceName}\n${context.document ?? ''}\n${context.record ?? ''}`);
  const said = (w: string) => saysWordIn(w, around) || saysWordIn(w, passage);
  // A noun modifying the next noun of an English compound (*identification* chip) may be left out where that noun is said
  // (*Microchip implantation*): the compound's head names the thing.
  const modifierOfSaid = (w: string) => asked.contrasts.some((c) => c.word === w && c.lex !== null && said(c.noun));
  const compound = new Set(asked.compounds.flat());
  return wanted.some((w) => (!named || compound.has(w)) && !said(w) && !modifierOfSaid(w));
}

/**
 * A comparison with another period (*contre 16 050 hectolitres en 2024*, *up from £3,100 in 2024*, *than in 2023*): its year
 * is the period the value is compared with, not the one the sentence is about.
 */
const COMPARED = /\b(?:contre|par rapport (?:a|au|aux)|compare (?:a|au|aux)|compared (?:with|to)|than|versus|vs|up from|down from|against)\b[^.;:|]*/g;

/** Whether a text names years and none of the question's (Asked.years; the built-in model's choice reads it too). */
export function namesOtherYears(asked: Asked, text: string): boolean {
  if (!asked.years) return false;
  const named = yearsOf(fold(text).replace(COMPARED, ' '));
  return named.size > 0 && !asked.years.some((y) => named.has(y));
}

/**
 * Whether a table row is another row's thing (seventeenth round, lnear): a word naming the question's thing (subjectWordsOf,
 * and what the value is for, Asked.purpose) that this row does not say, nor its header, section, document name or head,
 * while another row of the same table (`others`) says it in its own cells beside another word of the question this row says
 * too: the table tells rows of one kind apart by that word, and this row is one of the others (*Cat neutering (female)* for
 * a female dog, where *Dog neutering (male)* is a row too). A row saying none of the question's words with it is another
 * kind of line (*Total due* beside *VAT at 20 %* for the total *VAT included*).
 */
export function rowNamesOther(asked: Asked, row: string, context: SentenceContext, others: string[]): boolean {
  if (!context.header || others.length === 0) return false;
  const wanted = [...new Set([...subjectWordsOf(asked), ...(asked.purpose ?? [])])].filter((w) => w !== asked.head && w.length >= 3 && !/\d/.test(w));
  if (wanted.length === 0) return false;
  const around = wordsOf(`${row}\n${context.header}\n${context.section}\n${context.sourceName}\n${context.document ?? ''}\n${context.record ?? ''}`);
  const cells = wordsOf(row);
  const rows = others.map(wordsOf);
  // The other row is of the same kind as this one: both say another word of the question in their cells (*neutering*).
  const asking = [...new Set([...(asked.head ? [asked.head] : []), ...asked.phrase, ...asked.modifiers, ...wanted, ...asked.contrasts.map((c) => c.word)])];
  const kin = (w: string, r: string[]) => asking.some((q) => q !== w && saysWordIn(q, cells) && saysWordIn(q, r));
  // A row saying a word of the question's thing the other row lacks (*week-ends* where the other row is the technician's
  // weekday rate) is told apart by it from that row: neither is the other's.
  const ownOnly = (r: string[]) => wanted.some((q) => saysWordIn(q, cells) && !saysWordIn(q, r));
  return wanted.some((w) => !saysWordIn(w, around) && rows.some((r) => saysWordIn(w, r) && kin(w, r) && !ownOnly(r)));
}

/**
 * The words naming the question's item (seventeenth round, lfall): the words of its names (*Whitcombe Annex*), its codes,
 * the words naming its thing (subjectWordsOf) and what the value is for (Asked.purpose) — not its head nor the generic
 * words of what it asks. Empty when the question names no item.
 */
export function itemWordsOf(asked: Asked): { words: string[]; codes: Entity[] } {
  const names = (asked.names ?? []).flatMap((n) => n.words).filter((w) => w.length >= 3 && !/^\d+$/.test(w) && !ITEM_FUNCTION_WORDS.has(w));
  const things = [...subjectWordsOf(asked), ...(asked.purpose ?? [])].filter((w) => w !== asked.head && w.length >= 3 && !/\d/.test(w));
  const codes = asked.terms.filter((t) => /\p{L}/u.test(t.text) && /\d/.test(t.text));
  return { words: [...new Set([...names, ...things])], codes };
}

const ITEM_FUNCTION_WORDS = new Set('the and for les des aux sur'.split(' '));

/**
 * Whether a passage (its sentences with their rows' headers, sections, the sentences before them, its document's name and
 * head: `texts`) names the question's item (itemWordsOf): one of its words, as the word, a stem, a synonym or a derived
 * form, or one of its codes. Null when the question names no item. Read by the built-in model on the sentences it picked
 * (local-answer.ts): a passage naming none of the question's item is about another thing, and its value of the asked type
 * is another thing's.
 */
export function namesItem(asked: Asked, texts: string[]): boolean | null {
  const item = itemWordsOf(asked);
  if (item.words.length === 0 && item.codes.length === 0) return null;
  const around = wordsOf(texts.join('\n'));
  const flat = ` ${around.join(' ')} `;
  return item.words.some((w) => saysWordIn(w, around)) || item.codes.some((t) => holdsTerm(t, flat));
}

/**
 * A share that is paid, not a threshold: a percentage of the sentence that is no figure of the question and not said
 * after a comparison (*below 50 %*, *under 85 %*, *at least 99.9 %*), which states a condition.
 */
function paidShare(asked: Asked, sentence: string): boolean {
  const figures = new Set(asked.terms.flatMap((t) => t.words));
  for (const m of fold(sentence).matchAll(/(\p{L}+(?:\s+\p{L}+)?)?\s*(\d+(?:[.,]\d+)?)\s*(?:%|percent|per cent|pour cent)/gu)) {
    if (figures.has(m[2]!.replace(/[.,]\d+$/, ''))) continue;
    if (m[1] && /\b(?:below|under|above|over|than|least|most|exceeds?|falls?|drops?|reaches?|sous|dessous|dessus|moins|plus|depasse)$/.test(m[1])) continue;
    return true;
  }
  return false;
}

/** Whether a sentence (as a table row under its header, or alone) holds a value of the kind: a payment is money or a share. */
function holdsFrameValue(asked: Asked, sentence: string, context: SentenceContext): boolean {
  const holds = (a: Pick<Asked, 'type' | 'value'>) => (context.header ? rowHoldsValue(a, sentence, context.header) : holdsValue(a, sentence));
  if (asked.frame?.money) return holds({ type: 'amount', value: 'money' }) || (holds({ type: 'amount', value: 'percentage' }) && paidShare(asked, sentence));
  // `How often` asks a recurrence, `how quickly` a limit: said in the sentence or its table's header.
  const said = fold(`${sentence}\n${context.header}`);
  if (asked.frame?.duration === 'recurrence' && !RECURRENCE.test(said)) return false;
  if (asked.frame?.duration === 'limit' && !LIMIT.test(said)) return false;
  return asked.type !== null && holds(asked);
}

/**
 * A French object noun said in the sentence as written (its plural or singular, accents kept: *financé* is no
 * *finances*), or by a synonym or translation.
 */
function saysWritten(written: string, folded: string, sentence: string): boolean {
  const raw = sentence.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  const single = written.replace(/[sx]$/, '');
  if (raw.some((w) => w === written || w === single || w === `${single}s` || w === `${single}x`)) return true;
  const folded2 = wordsOf(sentence);
  // Not the word's own folded forms (`finance` is also the folded participle `financé`).
  return alternativesOf(folded).filter((a) => a.replace(/[sx]$/, '') !== folded.replace(/[sx]$/, '')).some((a) => folded2.includes(a));
}

/**
 * The question's frame answers where its head is not said (twelfth round, lpred; Asked.frame): the sentence holds a value
 * of the asked kind (a payment: money or a share) and one of the question's object nouns is said in it or its context
 * (its table header, record, section, document name: as the word, a stem, a synonym, a translation, a paraphrase or a
 * derived form). A head that is the main verb (*write to*, *pass on*, *look after*) is said by its object instead. A noun
 * head said by another word of the domain (*rebate* / *service credit*) is not required when the value's kind is narrow
 * (a payment, a date, a duration, a person, a place, or a named kind of amount) and the sentence itself states each code
 * and figure of the question (*85 %*, *P1*), which tie the value to the question's own case.
 */
function framed(asked: Asked, sentence: string, context: SentenceContext, words: string[]): boolean {
  const f = asked.frame;
  if (!f || f.objects.length === 0 || !asked.head) return false;
  if (!holdsFrameValue(asked, sentence, context)) return false;
  if (!f.objects.some((o) => holdsForm(wordForms(o), words))) return false;
  // The act the question sets aside, said here, is what this value is of.
  if (f.excluded.some((v) => holdsForm(wordForms(v), wordsOf(sentence)))) return false;
  // A date is the date of an act: without the act (`pay`), the invoice's own date answers another question. A duration
  // without the act is read only as a recurrence (*how often*) or a time limit (*how quickly*): *how long* an act takes
  // is not how long its object lasts.
  // A French verb head (no tagger: the objects are read from determiners) asks two of its objects said in the sentence
  // itself (*la maturité … de vendange de chaque parcelle*), not one word of the whole document (*le club*).
  if (f.verb && asked.language === 'fr' && f.objects.length >= 2 && f.objects.filter((o, i) => saysWritten(f.written?.[i] ?? o, o, sentence)).length < 2) return false;
  if (f.verb) return asked.type !== 'date' && asked.type !== 'deadline' && (asked.type !== 'duration' || f.duration !== undefined);
  const narrow = f.money || asked.value !== null || (asked.type !== null && asked.type !== 'amount');
  const flat = ` ${wordsOf(sentence).join(' ')} `;
  // A French question naming a payment by its noun (*Quelle **avance** faut-il verser en passant commande*; thirteenth
  // round) and no code or figure: its object said in the sentence itself ties the money to the question's case.
  const paymentNoun = asked.language === 'fr' && f.money && FR_PAYMENT.has(asked.head);
  if (asked.terms.length === 0 && paymentNoun) return f.objects.some((o) => holdsForm(wordForms(o), wordsOf(sentence)));
  // A French noun head is the first content word after the asking word (frenchHead, no tagger), often not what is asked:
  // said otherwise, it is not dropped for the codes and figures alone (thirteenth round: a near miss answered).
  if (asked.language === 'fr') return false;
  return narrow && asked.terms.length > 0 && asked.terms.every((t) => holdsTerm(t, flat));
}

/** The question's proper adjectives (same language only) and acronyms (or their translation) are in the words. */
export function holdsQualifiers(asked: Asked, words: string[], sameLanguage: boolean): boolean {
  const have = new Set(words);
  return asked.qualifiers.every((q) => {
    if (have.has(q.word) || translationsOf(q.word).some((t) => have.has(t)) || paraphrasesOf(q.word).some((t) => have.has(t))) return true;
    // A proper adjective is not translated here: it binds only a passage in the question's language.
    return !q.acronym && !sameLanguage;
  });
}

/**
 * Sentences of a passage: after . ! ? and at line breaks; list markers dropped. Never after a title's abbreviation
 * (`Mrs.`, `Prof.`, `Dr.`, `M.`, `Mme.`): `Our Data Protection Officer is Mrs. Lorraine Whitcombe.` is one sentence,
 * whose answer to *who* is the name after the title. Never after a list item's number opening a line or a table cell
 * (`| 2. Bare-metal respray … | £10,510 |`): the item is one sentence, its number no sentence of its own (lfact3).
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])(?<!(?<![\p{L}.])(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sr|St|Messrs|M|MM|Mme|Mmes|Mlle|Mlles|Me|Pr)\.)(?<!(?:^|\n|\|)\s*\d{1,3}\.)\s+(?=[\p{Lu}\p{N}"'«(\[])/u)
    .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** A table row as written in markdown (`| a | b |`) or as ingested (`a | b`, parse-markdown.ts; `| Amount` with an empty first cell). */
const isTableRow = (s: string) => /^\|.*\|$/.test(s.trim()) || /\S\s\|\s\S/.test(s) || /^\|\s+\S/.test(s.trim());
const isSeparator = (s: string) => /^\|?[\s:|-]+\|?$/.test(s.trim()) && s.includes('-');

/**
 * The label of a field (`Bill date: `, `Payment due: `, `Date d'entrée en vigueur : `): a capitalised word and
 * at most three more in lower case (or an acronym), then a colon and a space.
 */
const FIELD_LABEL = /(?<=^|\s)\p{Lu}[\p{L}'’-]*(?:\s(?:[\p{Ll}(][\p{L}'’()-]*|\p{Lu}{2,}))?(?:\s(?:[\p{Ll}(][\p{L}'’()-]*|\p{Lu}{2,})){0,2}\s?:\s/gu;

/**
 * The fields of a record (seventh round of issue 26). A document's header block (`Bill number: … Bill date: …
 * Customer: … Payment due: …`) is written one field a line, and the ingestion joins its lines into one
 * paragraph: read as one sentence, it held a value of every type and most of a question's words, and the
 * built-in model gave the whole block as the answer. A sentence holding two fields or more is read as its
 * fields, each with the whole record as its context (the record's number or party still names each field).
 */
export function recordFields(sentence: string): string[] {
  const starts = [...sentence.matchAll(FIELD_LABEL)].map((m) => m.index!);
  if (starts.length < 2) return [sentence];
  if (starts[0] !== 0) starts.unshift(0);
  return starts.map((at, i) => sentence.slice(at, starts[i + 1] ?? sentence.length).trim()).filter((f) => /[\p{L}\p{N}]/u.test(f));
}

/**
 * The fields a document's head states (eighth round): its `Label: value` fields (`Policy number: PSM-…`,
 * `Devis n° : DGS-…`, `Period: …`), joined. Its prose is left out: an opening sentence may name other things in
 * passing (*the AQ-150 and AQ-350 models have their own manuals*), a field names the document's own.
 */
export function headFields(text: string): string {
  const out: string[] = [];
  let header = true;
  for (const s of sentencesOf(text)) {
    if (isSeparator(s)) continue;
    if (isTableRow(s)) {
      // A table of two columns is a record written as rows (lanswer round: `Invoice number | INV-2026-083315`), its
      // header row (`Item | Details`) naming the columns; a wider table's rows are no fields of the document.
      const cells = cellsOf(s);
      // A first row stating a code (`Invoice number | INV-2025-0387` under an empty header row, which the sentences drop)
      // is a field, not a header: a header names columns (lfact round).
      const field = cells.length === 2 && /^\p{Lu}/u.test(cells[0]!) && cells[1]!.length > 0;
      if (field && (!header || codesOf(cells[1]!).some((c) => /\p{L}/u.test(c.text) && /\d/.test(c.text)))) out.push(`${cells[0]}: ${cells[1]}`);
      header = false;
      continue;
    }
    header = true;
    for (const f of recordFields(s)) if (new RegExp(`^${FIELD_LABEL.source}`, 'u').test(f)) out.push(f);
  }
  return out.join('\n');
}

/** The cells of a table row (`a | b | c`, `| a | b |`). */
const cellsOf = (row: string): string[] => {
  const r = row.trim();
  // `| a | b |` as written; as ingested `a | b`, where a leading bar is an empty first cell (`| Chargement | Livraison`).
  return (/^\|.*\|$/.test(r) ? r.slice(1, -1) : r).split('|').map((c) => c.trim());
};

/**
 * Whether a table row holds a value of the asked type and kind, each cell read with its column's header (eighth
 * round): the row is a fact `header: value`, and the header says what its cells are (`Price (CHF) | 540.00` is an
 * amount of money, where the cell alone is a bare figure). The type is the cell's own (a header's `Boiler 1` is
 * no figure of a row); the kind may be said by the header. A row whose cells do not line up with the header's is
 * read as a sentence.
 */
export function rowHoldsValue(asked: Pick<Asked, 'type' | 'value'>, row: string, header: string): boolean {
  if (holdsValue(asked, row)) return true;
  const cells = cellsOf(row);
  const heads = cellsOf(header);
  if (!asked.type || !asked.value || asked.value === 'day' || asked.value === 'clock' || cells.length !== heads.length) return false;
  return cells.some((c, i) => holdsAnswerType(asked.type!, c) && VALUE_PATTERNS[asked.value!].test(fold(withoutCodes(`${heads[i]} ${c}`))));
}

/**
 * The codes a passage states alone of their shape (lanswer round): a code with letters (`PEAT-MP-26`, `INV-2025-0318`)
 * when the passage names no other code written the same way (its letters alike, its digits aside). The passage is then
 * about that project or invoice in each of its sentences: *Co-investigator: Prof. Adeyemi* in the award letter of project
 * PEAT-MP-26. A passage naming two (the AQ-150 and the AQ-350, two invoices) leaves each sentence its own, and a plain
 * figure or a year is never a passage's subject (a year said in passing, *12.9 % in 2024*, is no period of the passage:
 * measured, a tuning-7 near miss answered). Each code as its folded words, space-separated.
 */
export function soleCodes(text: string): string[] {
  const shapes = new Map<string, Set<string>>();
  for (const c of codesOf(text)) {
    if (!/\p{L}/u.test(c.text) || !/\d/.test(c.text) || /^\d+(?:[.,]\d+)?-\p{L}+$/u.test(c.text)) continue;
    const shape = c.words.map((w) => w.replace(/\d/g, '#')).join(' ');
    const at = shapes.get(shape) ?? new Set<string>();
    at.add(c.words.join(' '));
    shapes.set(shape, at);
  }
  return [...shapes.values()].filter((s) => s.size === 1).map((s) => [...s][0]!);
}

/**
 * Each sentence of a passage with its context (the sentence before, the header row of its table, its record, the
 * document's head). A table's header row is the context of its rows, never a sentence of its own: it names the
 * columns and states no value (eighth round: `Card type | Attached to | Monthly limit` was given as an answer).
 */
export function sentencesWithContext(p: { text: string; section?: string; sourceName?: string; document?: string }): { sentence: string; context: SentenceContext }[] {
  const out: { sentence: string; context: SentenceContext }[] = [];
  let previous = '';
  let header = '';
  let inTable = false;
  const sole = soleCodes(p.text);
  const document = { ...(p.document ? { document: p.document } : {}), ...(sole.length > 0 ? { sole } : {}) };
  for (const s of sentencesOf(p.text)) {
    if (isSeparator(s)) continue;
    if (isTableRow(s)) {
      if (!inTable) {
        [header, inTable, previous] = [s, true, s];
        continue;
      }
    } else [header, inTable] = ['', false];
    const fields = inTable ? [s] : recordFields(s);
    for (const f of fields) {
      const record = fields.length > 1 ? { record: s } : {};
      out.push({ sentence: f, context: { previous, header, section: p.section ?? '', sourceName: p.sourceName ?? '', ...record, ...document } });
      previous = f;
    }
  }
  return out;
}

/**
 * The retrieval's own evidence for a passage (light's gate, issue 26 fourth round): it was ranked first by
 * a clear margin and holds the question's specific terms. Then the head of what is asked may be anywhere
 * in the passage rather than beside the value, or said by a kin word (kinForms) beside it.
 */
export interface Evidence {
  kin: Set<string>;
  passageWords: string[];
}

/** The sentences of a passage that answer what is asked. */
export function answeringSentences(
  asked: Asked,
  p: { text: string; section?: string; sourceName?: string; document?: string },
  forms: Set<string> = headForms(asked),
  withEvidence?: { kin: Set<string> },
  frame = false,
): string[] {
  const sameLanguage = languageOf(p.text) === asked.language;
  const all = wordsOf(`${p.sourceName ?? ''}\n${p.section ?? ''}\n${p.text}`);
  // A passage naming a compound's part without the whole (`parent`, not `grand-parent`) is about another thing.
  if (sameLanguage && !asked.compounds.every((c) => respectsCompound(c, all))) return [];
  if (!holdsQualifiers(asked, all, sameLanguage)) return [];
  // The question's distinctive verbs and adjectives are said in the passage or its document's head (q-nearmiss round).
  if (sameLanguage && asked.distinctive.length > 0) {
    const said = [...all, ...wordsOf(p.document ?? '')];
    if (!asked.distinctive.every((w) => holdsForm(wordForms(w), said) || saysFrenchFamily(asked, w, said))) return [];
  }
  const evidence = withEvidence ? { kin: withEvidence.kin, passageWords: all } : undefined;
  // A table row names its own thing in its cells (fourteenth round, lrefuse4): a row of a passage that never says the
  // question's thing is another thing's (*Standard ski set* for cross-country skis). Read by the gate only: the built-in
  // model chooses among the sentences of the passages the gate let through as before.
  const sentences = sentencesWithContext(p);
  // A row whose table says the question's thing in another row is that other row's neighbour (rowNamesOther).
  const othersOf = (x: { sentence: string; context: SentenceContext }) =>
    sentences.filter((o) => o !== x && o.context.header === x.context.header).map((o) => o.sentence);
  return sentences
    .filter((x) => !(sameLanguage && rowMissesSubject(asked, x.sentence, x.context, all)))
    .filter((x) => !(sameLanguage && x.context.header && rowNamesOther(asked, x.sentence, x.context, othersOf(x))))
    .filter((x) => sentenceAnswers(asked, x.sentence, x.context, forms, sameLanguage, evidence, frame))
    .map((x) => x.sentence);
}

