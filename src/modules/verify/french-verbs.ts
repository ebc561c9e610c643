import { fold, STOP_WORDS } from './text.js';

/** Auxiliaries, modals and clitics: the word after one is a verb (`est signé`, `doit être réglé`, `ne rompt`, `qui valide`). */
const BEFORE_VERB = new Set(
  'a ont avait avaient aura auront est sont etait etaient sera seront ete etre avoir doit doivent devra devront peut peuvent pourra pourront faut ne n se s qui il elle ils elles on'.split(' '),
);

/** Prepositions that introduce an infinitive (`de payer`, `pour signer`, `sans rompre`) as well as a noun (`de maintenance`). */
const BEFORE_INFINITIVE = new Set(['de', 'd', 'à', 'pour', 'sans']);

/**
 * The endings of French infinitives (`payer`, `choisir`, `recevoir`, `prendre`, `suivre`, `mettre`, `connaître`, `dire`,
 * `rompre`, `conclure`), not those of nouns ending like them (`salaire`, `toiture`, `ordre`, `lettre`, `centre`).
 */
const INFINITIVE = /(?:er|ir|oir|[dv]re|ttre|a[iî]tre|[^a]ire|ompre|clure)$/;

/** Number words: never verbs (`a deux mois`, `de cinq jours`). */
const NUMBER_WORDS = new Set(
  'un une deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize vingt trente quarante cinquante soixante cent cents mille million millions milliard'.split(' '),
);

/**
 * Whether a French word is a verb (the tagger is English): an imperfect (`-ait`), a word right after an auxiliary, a
 * modal or a clitic, or an infinitive after its preposition (`de payer`, not `de maintenance`, `de Planora`, `de cinq`).
 * Names (capitalised), number words and nouns ending like verbs (`année`, `société`, `accident`) are not verbs.
 */
export function isFrenchVerb(word: string, previous: string): boolean {
  const w = fold(word);
  if (!/^\p{L}+$/u.test(w) || STOP_WORDS.has(w) || NUMBER_WORDS.has(w) || /^\p{Lu}/u.test(word)) return false;
  if (/(?:ait|aient)$/.test(w) && w.length > 4) return true;
  const before = previous.toLowerCase().replace(/['’]$/, '');
  if (BEFORE_INFINITIVE.has(before)) return INFINITIVE.test(w);
  return BEFORE_VERB.has(fold(before));
}
