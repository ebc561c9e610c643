/**
 * Negation markers and antonyms (English and French), on folded words. Antonyms are compared by stem,
 * with the stemmer of the verification's language, so `increased`, `increases` and `increase` are one.
 */

/** Words that negate the clause they are in. `n't` is folded into `not` by `negationCount`. */
const NEGATIONS = new Set([
  'not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'without',
  'ne', 'n', 'pas', 'jamais', 'aucun', 'aucune', 'rien', 'sans', 'ni', 'nullement', 'non',
]);

/**
 * Words after `no` / `not` that make a bound rather than a negation: `no later than`, `not more than`,
 * `not exceeding` state a limit and agree with `by`, `at most`, `up to`.
 */
const BOUNDS = new Set(['later', 'earlier', 'more', 'less', 'fewer', 'sooner', 'exceed', 'exceeding', 'exceeds', 'longer', 'shorter', 'higher', 'lower', 'greater', 'smaller']);

/** French `ne … pas` and `n'… jamais` are one negation, not two. */
const FRENCH_PARTICLES = new Set(['ne', 'n']);

/** Number of negations in a list of folded words (contracted `isn't`, `doesn't` count once). */
export function negationCount(folded: readonly string[]): number {
  let n = 0;
  let particle = false;
  for (let i = 0; i < folded.length; i++) {
    const w = folded[i]!;
    if (w === 't' && i > 0 && /n$/.test(folded[i - 1]!)) {
      n++;
      continue;
    }
    if (!NEGATIONS.has(w)) continue;
    const next = folded[i + 1] ?? '';
    if ((w === 'no' || w === 'not') && BOUNDS.has(next) && (/^(later|earlier|sooner|exceed|exceeding|exceeds)$/.test(next) || folded[i + 2] === 'than')) continue;
    if (FRENCH_PARTICLES.has(w)) {
      particle = true;
      n++;
      continue;
    }
    if (particle && (w === 'pas' || w === 'jamais' || w === 'rien' || w === 'aucun' || w === 'aucune')) {
      particle = false;
      continue;
    }
    n++;
  }
  return n;
}

export const isNegationWord = (w: string): boolean => NEGATIONS.has(w);

/** Pairs of opposite words; every form listed is stemmed, so a few forms per idea are enough. */
const PAIRS: [string, string][] = [
  ['increase', 'decrease'], ['increase', 'decline'], ['increase', 'fall'], ['increase', 'drop'], ['increase', 'reduce'],
  ['rise', 'fall'], ['rose', 'fell'], ['rise', 'fell'], ['rose', 'fall'], ['rose', 'declined'], ['rose', 'dropped'], ['grew', 'shrank'], ['grew', 'fell'], ['grew', 'declined'], ['rise', 'decline'], ['rise', 'drop'], ['grow', 'shrink'], ['grow', 'decline'], ['growth', 'decline'],
  ['gain', 'loss'], ['profit', 'loss'], ['higher', 'lower'], ['more', 'less'], ['more', 'fewer'], ['above', 'below'],
  ['before', 'after'], ['earlier', 'later'], ['open', 'closed'], ['accept', 'reject'], ['approve', 'reject'],
  ['approved', 'rejected'], ['approve', 'deny'], ['allow', 'forbid'], ['allowed', 'prohibited'], ['allowed', 'forbidden'],
  ['permitted', 'prohibited'], ['include', 'exclude'], ['included', 'excluded'], ['win', 'lose'], ['won', 'lost'],
  ['success', 'failure'], ['succeeded', 'failed'], ['positive', 'negative'], ['maximum', 'minimum'], ['early', 'late'],
  ['mandatory', 'optional'], ['required', 'optional'], ['legal', 'illegal'], ['valid', 'invalid'], ['true', 'false'],
  ['public', 'private'], ['internal', 'external'], ['start', 'end'], ['first', 'last'], ['largest', 'smallest'],
  ['strengthen', 'weaken'], ['improve', 'worsen'], ['upgrade', 'downgrade'], ['hire', 'dismiss'], ['buy', 'sell'],
  ['bought', 'sold'], ['acquired', 'sold'], ['export', 'import'], ['surplus', 'deficit'], ['credit', 'debit'],
  ['hausse', 'baisse'], ['augmente', 'diminue'], ['augmente', 'baisse'], ['augmentation', 'diminution'], ['augmentation', 'baisse'],
  ['progresse', 'recule'], ['croissance', 'recul'], ['benefice', 'perte'], ['gain', 'perte'], ['gagne', 'perdu'],
  ['superieur', 'inferieur'], ['plus', 'moins'], ['avant', 'apres'], ['ouvert', 'ferme'], ['accepte', 'refuse'],
  ['autorise', 'interdit'], ['inclus', 'exclu'], ['obligatoire', 'facultatif'], ['obligatoire', 'optionnel'],
  ['legal', 'illegal'], ['valide', 'invalide'], ['vrai', 'faux'], ['public', 'prive'], ['achete', 'vendu'],
  ['excedent', 'deficit'], ['maximum', 'minimum'], ['premier', 'dernier'], ['embauche', 'licencie'],
  // Seventh round: a permission or a decision and its refusal, the words meaning a negation (`prohibited` is "not
  // allowed", `rejetée` "pas approuvée") against their positive counterparts.
  ['permit', 'prohibit'], ['permitted', 'forbidden'], ['allow', 'prohibit'], ['allow', 'ban'], ['accept', 'refuse'],
  ['accepted', 'refused'], ['approve', 'refuse'], ['approved', 'refused'], ['grant', 'refuse'], ['include', 'excluding'],
  ['permis', 'interdit'], ['permet', 'interdit'], ['autoriser', 'interdire'], ['permettre', 'interdire'],
  ['approuve', 'rejete'], ['adopte', 'rejete'], ['accepte', 'rejete'], ['approuve', 'refuse'], ['accorde', 'refuse'],
  ['inclure', 'exclure'], ['compris', 'exclu'], ['incluse', 'exclue'], ['comprend', 'exclut'],
];

const antonymsByStemmer = new WeakMap<(w: string) => string, Map<string, Set<string>>>();

/** The antonym relation over stems: stem → stems of its opposites. Built once per stemmer (read only). */
export function antonymsFor(stem: (w: string) => string): Map<string, Set<string>> {
  const kept = antonymsByStemmer.get(stem);
  if (kept) return kept;
  const map = new Map<string, Set<string>>();
  antonymsByStemmer.set(stem, map);
  const add = (a: string, b: string) => {
    if (a === b) return;
    let set = map.get(a);
    if (!set) map.set(a, (set = new Set()));
    set.add(b);
  };
  for (const [a, b] of PAIRS) {
    add(stem(a), stem(b));
    add(stem(b), stem(a));
  }
  return map;
}
