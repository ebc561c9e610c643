import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { isFrenchVerb } from '../../src/modules/verify/french-verbs.js';
import { lemmaOf } from '../../src/modules/verify/lemmas.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Sixteenth round of issue 26 (docs/quality.md, "Sixteenth round: French verbs tagged and related (vfrench)"). French verbs
 * the English tagger does not read: a present tense after a noun subject, a verb joined to its elided clitic, a participle
 * after an adverb; their present forms brought to one stem; French verbs of one statement related; `soumis` / `exonéré`.
 * Documents written for these tests, none from a labelled set.
 */
describe('sixteenth round: French verb forms tagged', () => {
  it('a present tense after a noun subject (`Le locataire paie`, `coûte`, `revient`, `comprend`, `prévoit`)', () => {
    expect(isFrenchVerb('paie', 'locataire')).toBe(true);
    expect(isFrenchVerb('coûte', 'Planora')).toBe(true);
    expect(isFrenchVerb('revient', 'contrat')).toBe(true);
    expect(isFrenchVerb('comprend', 'forfait')).toBe(true);
    expect(isFrenchVerb('prévoit', 'règlement')).toBe(true);
    expect(isFrenchVerb('touchent', 'salariés')).toBe(true);
    expect(isFrenchVerb('achètera', 'club')).toBe(true);
  });
  it('the same forms after a determiner or a preposition are nouns (`la paie`, `de commande`, `sur mesure`)', () => {
    expect(isFrenchVerb('paie', 'la')).toBe(false);
    expect(isFrenchVerb('commande', 'de')).toBe(false);
    expect(isFrenchVerb('mesure', 'sur')).toBe(false);
    expect(isFrenchVerb('demande', 'une')).toBe(false);
  });
  it('nouns and adjectives after a noun are no verbs (`prix fixe`, `offre ferme`, `somme totale`)', () => {
    expect(isFrenchVerb('fixe', 'prix')).toBe(false);
    expect(isFrenchVerb('ferme', 'offre')).toBe(false);
    expect(isFrenchVerb('totale', 'somme')).toBe(false);
  });
  it('a verb joined to its elided clitic (`n\'accorde`, `s\'élève`)', () => {
    expect(isFrenchVerb("n'accorde", 'traiteur')).toBe(true);
    expect(isFrenchVerb('s’élève', 'cotisation')).toBe(true);
  });
  it('a participle after an adverb after its auxiliary (`est désormais prévue`, `ne sera pas ouvert`), the adverb no verb', () => {
    expect(isFrenchVerb('prévue', 'désormais', 'est')).toBe(true);
    expect(isFrenchVerb('ouvert', 'pas', 'sera')).toBe(true);
    expect(isFrenchVerb('accordée', 'pas', "n'est")).toBe(true);
    expect(isFrenchVerb('désormais', 'est')).toBe(false);
  });
  it('after an adverb, an adjective in -able or an infinitive is no participle (`ne sont pas récupérables`)', () => {
    expect(isFrenchVerb('récupérables', 'pas', 'sont')).toBe(false);
    expect(isFrenchVerb('servir', 'pas', 'peuvent')).toBe(false);
  });
  it('present forms share the participle\'s stem (`touchent` / `touché`, `paient` / `payé`, `comprennent` / `comprend`)', () => {
    expect(lemmaOf('touchent', 'fr')).toBe('touche');
    expect(lemmaOf('paient', 'fr')).toBe('paye');
    expect(lemmaOf('paie', 'fr')).toBe('paye');
    expect(lemmaOf('comprennent', 'fr')).toBe(lemmaOf('comprend', 'fr'));
    expect(lemmaOf('revient', 'fr')).toBe('revenir');
  });
});

describe('sixteenth round: French claims read with their verbs', () => {
  const minutes = [
    '# Domaine des Corbières — procès-verbal du conseil du 3 octobre 2025',
    '',
    "Le conseil décide que le caveau du domaine ne sera pas ouvert le lundi pendant l'hiver (de janvier à mars) ;",
    '',
    'Une aide départementale de **12 000 €** a été sollicitée mais n\'est pas encore accordée.',
    '',
    '- Margaux Delval propose d\'organiser une dégustation publique le 14 mars 2026 ;',
    '',
    'Les réservations de groupe sont passées par téléphone auprès de M. Aubertin.',
    '',
    'Les adhérents dont l\'exploitation est dans le canton bénéficient d\'une mise à disposition gratuite du pressoir par an.',
  ].join('\n');

  it('a negated participle after its adverb (`ne sera pas ouvert`) is the sentence\'s own statement: supported', async () => {
    expect(await verdict('Le caveau du domaine ne sera pas ouvert le lundi de janvier à mars.', minutes)).toBe('supported');
  });
  it('control: the cellar said open on Mondays is not supported', async () => {
    expect(await verdict('Le caveau du domaine sera ouvert le lundi de janvier à mars.', minutes)).not.toBe('supported');
  });
  it('a participle after `déjà` (`a déjà été accordée`) against `n\'est pas encore accordée`: contradicted', async () => {
    expect(await verdict('L\'aide départementale de 12 000 € a déjà été accordée.', minutes)).toBe('contradicted');
  });
  it('control: the aid said requested is not contradicted', async () => {
    expect(await verdict('L\'aide départementale de 12 000 € a été sollicitée.', minutes)).not.toBe('contradicted');
  });
  it('a present plural (`se passent`) and the participle (`sont passées`): one verb, supported', async () => {
    expect(await verdict('Les réservations de groupe se passent par téléphone auprès de M. Aubertin.', minutes)).toBe('supported');
  });
  it('control: another verb (`se règlent`) is not supported', async () => {
    expect(await verdict('Les réservations de groupe se règlent par téléphone auprès de M. Aubertin.', minutes)).not.toBe('supported');
  });
  it('a French verb relation: `envisagée` / `propose d\'organiser`, same date: supported', async () => {
    expect(await verdict('Une dégustation publique du domaine est envisagée pour le 14 mars 2026.', minutes)).toBe('supported');
  });
  it('control: another date is not supported', async () => {
    expect(await verdict('Une dégustation publique du domaine est envisagée pour le 21 mars 2026.', minutes)).not.toBe('supported');
  });
  it('a French verb relation: `disposent de` / `bénéficient de` (the present tense now a verb, the relation says it): supported', async () => {
    expect(await verdict('Les adhérents du canton disposent du pressoir gratuitement une fois par an.', minutes)).toBe('supported');
  });
});
