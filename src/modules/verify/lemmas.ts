/**
 * Lemmas before stemming (seventh round of issue 26): the Snowball stemmers cut suffixes, so an irregular form and
 * its verb stay apart (`held` / `hold`, `paid` / `pay`, French `repris` / `reprend`, `rompt` / `rompre`) and, on
 * folded French words, a feminine participle keeps an `e` its masculine has lost (`rejetée` stems to `rejete`,
 * `rejeté` to `rejet`). Each form here is brought to its lemma first, on both sides (claim and passages), so the
 * same verb is one stem whatever its tense, person or agreement. Words that are also common nouns of another
 * meaning (`saw`, `found`, `left`, `felt`, `ground`) are left out, and so is French `compris`, `comprise(s)`: in
 * contracts it is *included* (`y compris`, `Prestations comprises`), not a form of `comprendre` (*to understand*, *to
 * consist of*).
 */
import type { Language } from './language.js';

/** English irregular verbs: past and participle forms → base form. */
const ENGLISH_FORMS: Record<string, string> = {};
for (const line of [
  'hold held', 'uphold upheld', 'withhold withheld', 'keep kept', 'pay paid', 'prepay prepaid', 'sell sold', 'buy bought', 'make made',
  'take took taken', 'undertake undertook undertaken', 'overtake overtook overtaken', 'mistake mistook mistaken', 'give gave given',
  'forgive forgave forgiven', 'go went gone', 'undergo underwent undergone', 'come came', 'become became', 'overcome overcame',
  'get got gotten', 'bring brought', 'tell told', 'say said', 'think thought', 'begin began begun', 'choose chose chosen',
  'drive drove driven', 'write wrote written', 'run ran', 'overrun overran', 'build built', 'rebuild rebuilt', 'catch caught',
  'teach taught', 'seek sought', 'understand understood', 'withdraw withdrew withdrawn', 'draw drew drawn', 'forbid forbade forbidden',
  'rise rose risen', 'arise arose arisen', 'fall fell fallen', 'grow grew grown', 'shrink shrank shrunk', 'know knew known', 'show shown',
  'break broke broken', 'speak spoke spoken', 'steal stole stolen', 'freeze froze frozen', 'hide hid hidden', 'eat ate eaten',
  'fly flew flown', 'throw threw thrown', 'wear wore worn', 'tear tore torn', 'swear swore sworn', 'strike struck', 'stand stood',
  'withstand withstood', 'sit sat', 'sleep slept', 'deal dealt', 'mean meant', 'send sent', 'lend lent', 'spend spent', 'feed fed',
  'flee fled', 'lead led', 'mislead misled', 'hear heard', 'forget forgot forgotten', 'hang hung', 'lay laid', 'win won', 'lose lost',
  'see seen', 'foresee foresaw foreseen', 'oversee oversaw overseen', 'ride rode ridden', 'shake shook shaken', 'sink sank sunk',
  'bind bound', 'fight fought', 'light lit', 'meet met', 'shoot shot', 'stick stuck', 'swing swung', 'wind wound', 'dig dug', 'sling slung',
]) {
  const [base, ...forms] = line.split(' ');
  for (const f of forms) ENGLISH_FORMS[f] = base!;
}

/** French irregular verbs (folded): forms whose stem is not the infinitive's → the infinitive. */
const FRENCH_FORMS: Record<string, string> = {};
for (const line of [
  'prendre prend prennent pris prise prises', 'reprendre reprend reprennent repris reprise reprises',
  'entreprendre entreprend entrepris',
  'surprendre surprend surpris', 'apprendre apprend apprennent appris',
  'rompre rompt rompu rompue rompus rompues', 'interrompre interrompt interrompu interrompue interrompus interrompues',
  'mettre met mettent mis mise mises', 'permettre permet permettent permis', 'remettre remet remettent remis',
  'soumettre soumet soumettent soumis soumise soumises', 'transmettre transmet transmettent transmis transmise transmises',
  'admettre admet admettent admis admise admises', 'omettre omet omis', 'promettre promet promis',
  'interdire interdit interdite interdits interdites interdisent', 'dire dit dite dits dites disent',
  'tenir tient tiennent tenu tenue tenus tenues', 'obtenir obtient obtiennent obtenu obtenue obtenus obtenues',
  'maintenir maintient maintiennent maintenu maintenue maintenus maintenues', 'retenir retient retiennent retenu retenue retenus retenues',
  'venir vient viennent venu venue venus venues', 'prevenir previent previennent prevenu prevenue',
  'intervenir intervient interviennent intervenu intervenue', 'convenir convient conviennent convenu convenue convenus convenues',
  'devenir devient deviennent devenu devenue',
  'revenir revient reviennent', 'contenir contient contiennent', 'appartenir appartient appartiennent', 'detenir detient detiennent',
  'atteindre atteint atteints atteignent', 'comprendre comprend comprennent',
  'voir voit voient vu vue vus vues', 'prevoir prevoit prevoient prevu prevue prevus prevues',
  'recevoir recoit recoivent recu recue recus recues', 'devoir doit doivent du due dus dues',
  'couvrir couvre couvrent couvert couverte couverts couvertes', 'ouvrir ouvre ouvrent ouvert ouverte ouverts ouvertes',
  'offrir offre offrent offert offerte offerts offertes', 'souffrir souffre souffert',
  'inclure inclut incluent inclus incluse incluses', 'exclure exclut excluent exclu exclue exclus exclues',
  'conclure conclut concluent conclu conclue conclus conclues',
  'rendre rend rendent rendu rendue rendus rendues', 'vendre vend vendent vendu vendue vendus vendues',
  'suspendre suspend suspendent suspendu suspendue suspendus suspendues', 'attendre attend attendent attendu attendue attendus attendues',
  'perdre perd perdent perdu perdue perdus perdues', 'repondre repond repondent repondu',
  'ecrire ecrit ecrite ecrits ecrites ecrivent', 'inscrire inscrit inscrite inscrits inscrites inscrivent',
  'prescrire prescrit prescrite prescrits prescrites', 'produire produit produisent', 'reduire reduit reduite reduits reduites reduisent',
  'conduire conduit conduisent', 'construire construit construite construisent', 'faire fait faite faits faites font',
]) {
  const [base, ...forms] = line.split(' ');
  for (const f of forms) FRENCH_FORMS[f] = base!;
}

/**
 * Sixteenth round (vfrench): French verbs in the present or future tense after a noun subject (`Le locataire paie`, `revient
 * à`, `coûte`, `comprend`, `prévoit`), which no auxiliary announces. Regular `-er` verbs by their stem (third person singular
 * and plural, future), the others by their forms. Verbs whose third person is also a common noun or adjective after a noun
 * (`fixe`, `ferme`, `livre`, `compte`, `montre`, `règle`, `porte`) are left out.
 */
const ER_STEMS =
  'cout pay achet ajout accept accord appliqu assur augment annul command conserv conseill consomm contact demand depass diminu dur employ envisag entrain exig factur fourn gagn impos indiqu install mesur organis pes prolong propos rapport rembours remplac represent reserv respect rest situ sembl signal touch utilis verifi vers eman elev achev termin commenc debut expir arriv pass fonctionn exoner autoris oblig plafonn stipul calcul estim '.split(' ');
const ER_FORMS = new Set<string>();
/** Present forms of those verbs → their first person (`touchent` → `touche`, `paient` → `paye`): one stem with the participle's. */
const ER_PRESENT: Record<string, string> = {};
for (const s of ER_STEMS.filter(Boolean)) {
  for (const end of ['e', 'ent', 'era', 'eront']) ER_FORMS.add(s + end);
  ER_PRESENT[s + 'ent'] = s + 'e';
  // `payer`: `paie`, `paient`, `paiera` beside `paye`, `payent`.
  if (s.endsWith('y')) {
    for (const end of ['ie', 'ient', 'iera', 'ieront']) ER_FORMS.add(s.slice(0, -1) + end);
    ER_PRESENT[s.slice(0, -1) + 'ie'] = s + 'e';
    ER_PRESENT[s.slice(0, -1) + 'ient'] = s + 'e';
  }
}
const OTHER_FORMS = new Set(
  (
    'revient reviennent reviendra contient contiennent contiendra comprend comprennent comprendra prevoit prevoient prevoira prend prennent prendra ' +
    'atteint atteignent atteindra couvre couvrent couvrira offre offrent offrira ouvre ouvrent ouvrira inclut incluent exclut excluent ' +
    'obtient obtiennent tient tiennent appartient appartiennent convient conviennent devient deviennent intervient interviennent ' +
    'detient detiennent maintient maintiennent vaut valent vaudra court courent suit suivent dit disent fait font fera feront ' +
    'recoit recoivent recevra rend rendent rendra vend vendent vendra depend dependent permet permettent permettra remet remettent ' +
    'soumet soumettent produit produisent reduit reduisent conduit conduisent construit construisent joint joignent dispose disposent ' +
    'finit finissent fournit fournissent garantit garantissent beneficie beneficient definit definissent choisit choisissent ' +
    'reunit reunissent agit agissent etablit etablissent accueille accueillent part partent sort sortent va vont ira iront'
  ).split(' '),
);
const NOT_VERBS = new Set(['fixe', 'ferme', 'livre', 'compte', 'montre', 'regle', 'porte', 'part', 'reste', 'total', 'marche', 'loge']);

/** Whether a folded word, in the present or future tense, is one of the verbs above. */
export const isPresentVerbForm = (folded: string): boolean => !NOT_VERBS.has(folded) && (ER_FORMS.has(folded) || OTHER_FORMS.has(folded));


const own = (table: Record<string, string>, w: string) => (Object.hasOwn(table, w) ? table[w] : undefined);

/** The lemma of a folded word to stem in `language` (the word itself when it has no other). */
export function lemmaOf(word: string, language: Language): string {
  if (language === 'en') return own(ENGLISH_FORMS, word) ?? word;
  const irregular = own(FRENCH_FORMS, word) ?? own(ER_PRESENT, word);
  if (irregular) return irregular;
  // A feminine participle or adjective, folded (`approuvée` → `approuvee`): its masculine (`approuve`), which the
  // stemmer then cuts as it cuts the masculine.
  if (word.length > 5 && word.endsWith('ees')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('ee')) return word.slice(0, -1);
  return word;
}
