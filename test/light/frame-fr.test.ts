import { describe, expect, it } from 'vitest';
import { askedOf } from '../../src/lib/language/asked.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';

/**
 * Light's gate by the question's frame in French (issue 26, thirteenth round, lpred2; docs/light.md rule 20): the frame
 * read from French interrogatives, object nouns after a determiner, the verb head dropped for object + value kind under
 * the English guards, and a payment named by its noun (avance / acompte). Each case runs the gate without the frame
 * (refused) and with it. Sentences written for these tests.
 */
const passage = (text: string, sourceName: string, section = '') => ({ text, section, sourceName, sourceId: 'src_1' });
const strict = (p: ReturnType<typeof passage>, q: string) => answers(p, gateOf(q));
const byFrame = (p: ReturnType<typeof passage>, q: string) => answers(p, gateOf(q), false, true);

describe("light's gate by frame, French questions (thirteenth round)", () => {
  it('verb head (qui + verbe): who checks the ripeness is answered by the person beside the object, without the verb', () => {
    const q = 'Qui contrôle la maturité des pommes au verger Ravelin ?';
    expect(askedOf(q).frame).toMatchObject({ verb: true });
    expect(askedOf(q).frame?.objects).toContain('maturite');
    const p = passage('La maturité des pommes est suivie chaque semaine par Claire Dumontet, cheffe de culture.', 'verger-ravelin.md');
    expect(strict(p, q)).toBe(false);
    expect(byFrame(p, q)).toBe(true);
  });

  it('verb head: one object of a whole document (le club) beside a name does not say who does the act (two objects asked)', () => {
    const q = 'Qui tient les finances du club de Montvallon ?';
    expect(askedOf(q).frame).toMatchObject({ verb: true, objects: ['finances', 'club'] });
    expect(byFrame(passage('Présidence de séance : M. Gérard Fontanel, président du club.', 'ag-club-montvallon.md'), q)).toBe(false);
  });

  it('payment noun: a head only translated to a possession word (rendement / return) is no payment noun without a figure', () => {
    const q = 'Quel est le rendement moyen des panneaux chez Solvera ?';
    expect(byFrame(passage('Les panneaux sont garantis 25 ans en production (80 % de la puissance nominale).', 'solvera-devis.md'), q)).toBe(false);
  });

  it('payment noun: an avance said as an acompte answers when the object (la commande) is in the sentence itself', () => {
    const q = 'Quelle avance faut-il verser en passant commande chez Menuiserie Orvale ?';
    expect(askedOf(q).frame).toMatchObject({ verb: false, money: true, objects: ['commande'] });
    const p = passage('Un acompte de 30 % du prix TTC est versé à la commande.', 'cgv-menuiserie-orvale.md');
    expect(strict(p, q)).toBe(false);
    expect(byFrame(p, q)).toBe(true);
  });

  it('payment noun: money beside no object of the question (the delivery fee) does not answer', () => {
    const q = 'Quelle avance faut-il verser en passant commande chez Menuiserie Orvale ?';
    expect(byFrame(passage('La livraison est facturée 45 € par meuble.', 'cgv-menuiserie-orvale.md'), q)).toBe(false);
  });

  it('verb head: a date is the date of the act asked; an invoice date does not answer when it was paid (quand … réglée)', () => {
    const q = 'À quelle date la facture FA-2030-0101 de Keller a-t-elle été réglée ?';
    expect(byFrame(passage('Facture n° FA-2030-0101 | Date de la facture : 3 mars 2030', 'keller-facture-fa-2030-0101.md'), q)).toBe(false);
  });

  it('verb head: a duration asked without a recurrence or a limit (pendant combien de temps … gardés) is not read by the frame', () => {
    const q = 'Pendant combien de temps les relevés du compteur sont-ils gardés chez Hydrelis ?';
    expect(askedOf(q).frame).toMatchObject({ verb: true });
    expect(byFrame(passage('Hydrelis relève le compteur tous les 6 mois.', 'hydrelis-contrat.md'), q)).toBe(false);
  });

  it('French noun head with a code: not dropped for the code alone (a penalty asked, a discount on the same lot said)', () => {
    const q = 'Quelle pénalité s\'applique au lot L-24 chez Orvale ?';
    expect(byFrame(passage('Pour le lot L-24, une remise de 5 % sur le prix est accordée au client.', 'orvale-contrat.md'), q)).toBe(false);
  });

  it('absent entity: the frame never stands for a name the passage lacks', () => {
    const q = 'Quelle avance faut-il verser en passant commande chez Ébénisterie Quillon ?';
    expect(byFrame(passage('Un acompte de 30 % du prix TTC est versé à la commande.', 'cgv-menuiserie-orvale.md'), q)).toBe(false);
  });
});
