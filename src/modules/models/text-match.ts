/**
 * Word matching for the local model: lowercase, accents stripped, English and French stop words
 * dropped, light suffix stemming so that "invoices", "invoice" and "factures", "facture" meet.
 */

const STOP_WORDS = new Set(
  [
    // English
    'a an the is are was were be been being am do does did done what which who whom whose when where why how',
    'i me my mine we us our you your yours he him his she her hers it its they them their theirs',
    'this that these those there here of in on at to for from by with about as into onto than then',
    'and or but nor not no yes if so can could would should will shall may might must have has had',
    'please tell give show any some all also just more most very too much many each other such own',
    'same only up down out over again further once let know want need like get got',
    // French (accents already stripped)
    'le la les un une des du de au aux et ou mais donc or ni car est sont etre ete suis es sommes etes',
    'ai as avons avez ont avoir eu je tu il elle nous vous ils elles on moi toi lui leur leurs',
    'mon ma mes ton ta tes son sa ses notre nos votre vos ce cet cette ces ca cela ceci qui que quoi',
    'quel quelle quels quelles dont comment pourquoi quand combien dans en sur sous pour par avec sans',
    'ne pas plus tres aussi bien fait faire peut peux pouvez dire dis dites svp merci stp qu',
  ]
    .join(' ')
    .split(' '),
);

/** Longest first; a suffix is only cut when at least three letters remain. */
const SUFFIXES = ['ations', 'ation', 'ements', 'ement', 'ments', 'ment', 'ings', 'ing', 'euses', 'euse', 'eurs', 'eur', 'ed', 'es', 'er', 's', 'e'];

export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

export function words(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Cuts suffixes until none applies, so "orders", "ordered" and "order" all reach "ord". */
export function stem(word: string): string {
  for (let cut = true; cut; ) {
    const suffix = SUFFIXES.find((s) => word.length - s.length >= 3 && word.endsWith(s));
    cut = suffix !== undefined;
    if (suffix) word = word.slice(0, -suffix.length);
  }
  return word.endsWith('y') && word.length > 3 ? `${word.slice(0, -1)}i` : word;
}

/** The distinct content stems of a text: what two texts must share to be about the same thing. */
export function contentStems(text: string): Set<string> {
  const stems = new Set<string>();
  for (const w of words(text)) {
    if (STOP_WORDS.has(w)) continue;
    if (w.length < 2 && !/\d/.test(w)) continue;
    stems.add(stem(w));
  }
  return stems;
}

/** Sentences of a text: split after . ! ? and at line breaks; list markers and blank lines dropped. */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'«(\[])/u)
    .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

export type SmallTalk = 'greeting' | 'thanks' | 'farewell';

const SMALL_TALK: Record<SmallTalk, string[]> = {
  greeting: ['hello', 'hi', 'hey', 'hiya', 'good morning', 'good afternoon', 'good evening', 'bonjour', 'bonsoir', 'salut', 'coucou', 'how are you', 'ca va', 'comment allez vous', 'comment vas tu'],
  thanks: ['thanks', 'thank you', 'thx', 'cheers', 'merci', 'merci beaucoup', 'thanks a lot', 'many thanks'],
  farewell: ['bye', 'goodbye', 'see you', 'au revoir', 'a bientot', 'bonne journee', 'bonne soiree'],
};

/** Fillers allowed around a greeting without making it a real question. */
const FILLERS = new Set(['there', 'again', 'everyone', 'all', 'so', 'much', 'very', 'a', 'lot', 'you', 'ok', 'okay', 'great', 'and', 'bien', 'tous', 'vous', 'toi', 'oh', 'well']);

/** Recognises short greetings, thanks and goodbyes in English and French. */
export function smallTalkOf(text: string): SmallTalk | undefined {
  const ws = words(text);
  if (ws.length === 0 || ws.length > 6) return undefined;
  const joined = ` ${ws.join(' ')} `;
  for (const kind of Object.keys(SMALL_TALK) as SmallTalk[]) {
    const phrase = SMALL_TALK[kind].find((p) => joined.includes(` ${p} `));
    if (!phrase) continue;
    const rest = joined.replace(` ${phrase} `, ' ').trim().split(' ').filter(Boolean);
    if (rest.every((w) => FILLERS.has(w) || isSmallTalkWord(w))) return kind;
  }
  return undefined;
}

function isSmallTalkWord(word: string): boolean {
  return Object.values(SMALL_TALK).some((phrases) => phrases.some((p) => p.split(' ').includes(word)));
}

/** True when the text reads as French rather than English (more French stop words). */
export function looksFrench(text: string): boolean {
  const ws = words(text);
  const fr = ws.filter((w) => FRENCH_MARKERS.has(w)).length;
  const en = ws.filter((w) => ENGLISH_MARKERS.has(w)).length;
  return fr > en;
}

const FRENCH_MARKERS = new Set(['le', 'la', 'les', 'des', 'est', 'je', 'vous', 'quel', 'quelle', 'pour', 'avec', 'bonjour', 'salut', 'merci', 'une', 'du', 'au', 'revoir', 'bonsoir', 'coucou', 'ca', 'comment']);
const ENGLISH_MARKERS = new Set(['the', 'is', 'are', 'what', 'i', 'you', 'for', 'with', 'hello', 'hi', 'thanks', 'thank', 'a', 'of', 'how', 'bye', 'hey']);
