import { describe, expect, it } from 'vitest';
import { askedOf, typeWords } from '../../src/lib/language/asked.js';
import { cognatesOf, translationsOf } from '../../src/lib/language/glossary.js';
import { coverageOf, termGroups } from '../../src/modules/light/coverage.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';

/** Fourteenth round of issue 26 (lcross2, docs/quality.md): questions in one language on documents in the other. */
const passage = (text: string, section = '', sourceName = 'document.md') => ({ text, section, sourceName, sourceId: 'src_1' });

describe('across languages: cognates', () => {
  it('cognate: a word is rewritten by the regular ending pairs of English and French, both ways (olympic / olympique, capacité / capacity)', () => {
    expect(cognatesOf('olympic')).toContain('olympique');
    expect(cognatesOf('dentist')).toContain('dentiste');
    expect(cognatesOf('external')).toContain('externe');
    expect(cognatesOf('capacite')).toContain('capacity');
    expect(cognatesOf('technicien')).toContain('technician');
    // A short word keeps no stem of its own to rewrite.
    expect(cognatesOf('city')).toEqual([]);
  });

  it('cognate: an English question covers the French passage that writes its words as cognates the glossary does not list', () => {
    const groups = termGroups('Who is the external dentist?');
    const freq = { total: 20, df: groups.map(() => 1) };
    const { coverage } = coverageOf(groups, freq, [{ section: 'Contacts', text: 'Le dentiste externe est le Dr Anne Morel.' }]);
    expect(coverage).toBeGreaterThan(0.5);
  });
});

describe('across languages: a code made of a word and its number', () => {
  it('labelled code: *Line A* is held by a French row that writes *Ligne A*, not by another line', () => {
    const table = "Le tableau donne la production et le rendement de chacune des lignes du tissage pour le mois.\nLigne | Article | Rendement machine\nLigne A | TC-240 | 91 %\nLigne B | TC-260 | 88 %";
    expect(answers(passage(table, 'Production par ligne'), gateOf('What machine efficiency did Line A achieve?'))).toBe(true);
    expect(answers(passage(table, 'Production par ligne'), gateOf('What machine efficiency did Line C achieve?'))).toBe(false);
  });

  it('labelled code: a *10-entry card* is the French *Carte 10 entrées*, the number on either side of the translated word', () => {
    const table = 'Formule | Adulte | Enfant\nEntrée unique | CHF 28.– | CHF 16.–\nCarte 10 entrées | CHF 250.– | CHF 140.–';
    expect(answers(passage(table, 'Tarifs'), gateOf('How much is a 10-entry card for an adult?'))).toBe(true);
    expect(answers(passage(table, 'Tarifs'), gateOf('How much is a 20-entry card for an adult?'))).toBe(false);
  });
});

describe('across languages: the frame of a question', () => {
  it('frame across languages: a verb head the French passage does not say is answered by the value beside the translated object', () => {
    const text = "L'ascenseur est resté en panne du 3 au 17 janvier 2025. Le prestataire Ascenseurs Garonne n'a pas respecté le délai d'intervention de 48 heures.";
    const gate = gateOf('Which company maintains the lift in building A?');
    expect(answers(passage(text, 'Ascenseur du bâtiment A'), gate)).toBe(false);
    expect(answers(passage(text, 'Ascenseur du bâtiment A'), gate, false, true)).toBe(true);
  });

  it('frame across languages: an absent object still refuses (the lift asked, a passage on the car park)', () => {
    const text = 'Le prestataire Parkings Garonne est intervenu en 24 heures sur les barrières du parking.';
    expect(answers(passage(text, 'Parking du bâtiment A'), gateOf('Which company maintains the lift in building A?'), false, true)).toBe(false);
  });
});

describe('across languages: words of the asked type and of the trades', () => {
  it('type words: the words that only name the asked kind of value are read in both languages (pourcentage)', () => {
    expect(typeWords(askedOf('Quel pourcentage du coût CleanCrest rembourse-t-il ?'))).toContain('pourcentage');
    expect(typeWords(askedOf('What percentage of the cost does CleanCrest refund?'))).toContain('pourcentage');
  });

  it('glossary of trades: words of crafts, leisure and the care of goods have their rendering (harvest / récolte, rink / patinoire, linge / linen)', () => {
    expect(translationsOf('harvest')).toContain('recolte');
    expect(translationsOf('rink')).toContain('patinoire');
    expect(translationsOf('linge')).toContain('linen');
  });
});
