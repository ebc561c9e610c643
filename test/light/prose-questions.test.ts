import { describe, expect, it } from 'vitest';
import { askedOf } from '../../src/lib/language/asked.js';
import { answerLocally } from '../../src/modules/models/local-answer.js';
import type { TurnMaterial } from '../../src/modules/models/provider.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';

/** Eighth round of issue 26 (docs/quality.md, "light's prose answers"): French questions and the head they ask. */
const ask = (question: string, material: TurnMaterial) => answerLocally({ messages: [{ role: 'user', content: question }], material }).content;
const passage = (text: string, sourceName: string) => ({ text, section: '', sourceName, sourceId: 'src_1' });

describe('French inverted questions: the subject is not what is asked', () => {
  it('inverted subject: the verb after the pronoun is the head (le transporteur doit-il livrer → livrer)', () => {
    expect(askedOf('Sous combien de jours le transporteur doit-il livrer la marchandise ?').head).toBe('livrer');
    expect(askedOf('Quand la toiture doit-elle être réparée ?').head).toBe('reparee');
  });

  it('inverted subject: a complement after the pronoun is the head when no verb follows (verse-t-il en dépôt → depot)', () => {
    expect(askedOf('Quelle somme le locataire verse-t-il en dépôt ?').head).toBe('depot');
  });

  it('inverted subject: a noun that is not the subject stays the head (quel montant de pénalité le prestataire doit-il verser)', () => {
    expect(askedOf('Quel montant de pénalité le prestataire doit-il verser ?').head).toBe('penalite');
    expect(askedOf("Quelle est la pénalité si le prestataire arrive en retard ?").head).toBe('penalite');
    // The object of another verb, before a preposition, is no subject of the inverted verb.
    expect(askedOf("Un client qui a commandé un meuble sur mesure chez Dubois peut-il se rétracter ?").head).toBe('meuble');
  });

  it('inverted subject: the built-in model answers with the sentence of the asked act, not the one naming the subject', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'contrat-transport.md', text: 'Le transporteur assure une permanence 5 jours par semaine. La livraison intervient sous 3 jours ouvrés après l\'enlèvement.' }],
    };
    expect(ask('Sous combien de jours le transporteur doit-il livrer la marchandise ?', material)).toMatch(/^La livraison intervient sous 3 jours/);
  });

  it('inverted subject: a sentence saying the act without its subject answers (quand la toiture doit-elle être réparée)', () => {
    const gate = gateOf('Quand la toiture doit-elle être réparée ?');
    expect(answers(passage('La réparation est prévue le 12 mai 2027, après la visite de l\'expert.', 'compte-rendu-chantier.md'), gate)).toBe(true);
  });
});

describe('French verb heads said by their noun', () => {
  it('verb as noun: couler is said by le coulage, livrer by la livraison', () => {
    expect(answers(passage('Le coulage de la chape est prévu le 4 mai 2027.', 'planning.md'), gateOf('Quand faut-il couler la chape ?'))).toBe(true);
    expect(answers(passage('La livraison des fenêtres est prévue le 9 juin 2027.', 'planning.md'), gateOf('Quand faut-il livrer les fenêtres ?'))).toBe(true);
  });

  it('verb as noun: a word sharing only the start of the stem is no noun of the verb (couleur is not coulage)', () => {
    expect(answers(passage('La couleur de la chape est choisie le 4 mai 2027.', 'planning.md'), gateOf('Quand faut-il couler la chape ?'))).toBe(false);
  });
});

describe('the asked type said by its noun', () => {
  it('frequency: à quelle fréquence and how frequently ask a period, and the frequency is not the head', () => {
    const fr = askedOf("À quelle fréquence le technicien contrôle-t-il la chaudière ?");
    expect(fr.type).toBe('duration');
    expect(fr.head).not.toBe('frequence');
    expect(askedOf('How frequently are the filters replaced?').type).toBe('duration');
    expect(answers(passage('Le contrôle de la chaudière a lieu tous les 12 mois.', 'contrat-entretien.md'), gateOf('À quelle fréquence le technicien contrôle-t-il la chaudière ?'))).toBe(true);
  });
});

describe('the built-in model: the answering sentence the ranking leaves out', () => {
  it('answering sentence without the question\'s words: le coulage answers quand faut-il couler, before a sentence sharing the words without the date', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'planning.md', text: "L'équipe de la chape est celle de l'entreprise Martin. Le coulage est prévu le 4 mai 2027." }],
    };
    expect(ask('Quand faut-il couler la chape ?', material)).toMatch(/^Le coulage est prévu le 4 mai 2027/);
  });

  it('answering sentence without the question\'s words: with no type asked, a head said otherwise (move / travel) does not outrank the sentence sharing the words', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'loan.md', text: 'The works shall travel in crates by air. The museum has approved Alpine Art Transport as the carrier for the paintings.' }],
    };
    expect(ask('Which carrier has the museum approved to move the paintings?', material)).toMatch(/^The museum has approved Alpine Art Transport/);
  });
});

describe('French names the tagger misses', () => {
  it('French name word: a capitalised word inside a French question is never the head (Nettoyage Pro)', () => {
    expect(askedOf("À quelle fréquence Nettoyage Pro passe-t-il pour l'entretien des vitres ?").head).toBe('entretien');
  });
});

describe("the built-in model's sentence, lanswer round (issue 26)", () => {
  it('a which-question asking no head is answered by the sentence naming the kind asked (Tariff), not the one sharing its names', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'energy-invoice.md', text: 'Item | Details\nCustomer | Brindle Lane Bakery Ltd\nSupply address | 27 Brindle Lane, Preston\nTariff | Voltara Business Fix 24 (fixed-rate)' }],
    };
    expect(askedOf('Which electricity tariff is Brindle Lane Bakery on?').kind).toBe('tariff');
    expect(ask('Which electricity tariff is Brindle Lane Bakery on?', material)).toMatch(/^Tariff \| Voltara Business Fix 24/);
  });
});
