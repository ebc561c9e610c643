import { isPresentVerbForm } from './lemmas.js';
import { fold, STOP_WORDS } from './text.js';
import { unnamed } from '../../lib/unnamed.js';

export { isPresentVerbForm };

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
 * Adverbs standing between an auxiliary and its participle (`est désormais prévue`, `a déjà été accordée`, `ne sera pas
 * ouvert`): never verbs themselves, and the word after one is read as if it followed the auxiliary.
 */
const ADVERBS = new Set('pas jamais desormais deja toujours egalement encore point guere souvent parfois enfin ensuite finalement seulement notamment'.split(' '));

/** A participle (`prévue`, `accordée`, `ouvert`, `inclus`, `remis`), not an adjective in `-able` (`récupérables`) nor an infinitive. */
const PARTICIPLE = /(?:e|ee|es|ees|i|ie|is|ies|u|ue|us|ues|it|ite|its|ites|ert|erte|erts|ertes|int|inte|ints|intes)$/;
const ADJECTIVE = /(?:able|ible)s?$/;

/** An elided clitic joined to its verb in one token (`n'accorde`, `s'élève`, `s'applique`): the word after it is a verb. */
const CLITIC_VERB = /^(?:n|s|m|t)['’](\p{L}+)$/u;

/** Words after which a present-tense form is a noun, not a verb (`la paie`, `une demande`, `de commande`, `sur mesure`). */
const BEFORE_NOUN = new Set(
  'le la les l un une des du de d au aux ce cet cette ces son sa ses leur leurs mon ma mes ton ta tes notre votre nos vos chaque toute tout tous toutes quel quelle quels quelles plusieurs aucun aucune nul nulle a à en par pour sur sous avec sans dans chez entre vers et ou'.split(' '),
);

/**
 * Whether a French word is a verb (the tagger is English): an imperfect (`-ait`), a word right after an auxiliary, a
 * modal or a clitic (an adverb between them apart: `est désormais prévue`), a verb joined to its elided clitic
 * (`n'accorde`, `s'élève`), a present or future tense after a noun subject (`Le locataire paie`, not `la paie`), or an
 * infinitive after its preposition (`de payer`, not `de maintenance`, `de Planora`, `de cinq`). Names (capitalised),
 * number words, adverbs and nouns ending like verbs (`année`, `société`, `accident`) are not verbs.
 */
export function isFrenchVerb(word: string, previous: string, earlier = ''): boolean {
  const clitic = CLITIC_VERB.exec(word);
  if (clitic) return !/^\p{Lu}/u.test(clitic[1]!) && !STOP_WORDS.has(fold(clitic[1]!));
  const w = fold(word);
  if (!/^\p{L}+$/u.test(w) || STOP_WORDS.has(w) || NUMBER_WORDS.has(w) || ADVERBS.has(w) || /^\p{Lu}/u.test(word)) return false;
  if (/(?:ait|aient)$/.test(w) && w.length > 4) return true;
  const bare = unnamed((x: string) => fold(x.toLowerCase().replace(/['’]$/, '').replace(/^(?:n|s|qu)['’](?=\p{L})/u, '')));
  let before = bare(previous);
  if (ADVERBS.has(before) && earlier !== '') {
    // After an adverb, a participle of the auxiliary before it (`est désormais prévue`, `ne sera pas ouvert`).
    if (!PARTICIPLE.test(w) || ADJECTIVE.test(w) || /(?:er|ir)$/.test(w)) return false;
    before = bare(earlier);
  }
  if (BEFORE_INFINITIVE.has(before)) return INFINITIVE.test(w);
  if (BEFORE_VERB.has(before)) return true;
  return before !== '' && /^[\p{L}'’-]+$/u.test(previous) && !BEFORE_NOUN.has(before) && !NUMBER_WORDS.has(before) && isPresentVerbForm(w);
}

/** `isFrenchVerb` of a tagged token, read with the two tokens before it. */
export const isFrenchVerbAt = (tokens: readonly { value: string }[], i: number): boolean =>
  isFrenchVerb(tokens[i]!.value, tokens[i - 1]?.value ?? '', tokens[i - 2]?.value ?? '');
