import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Seventeenth round of issue 26 (docs/quality.md, "Seventeenth round: an amount said of the claim's thing by its own sentence
 * (vprec7)"): an amount of the sentence is read as the claim's only where the sentence's own words (not only its document's
 * title, section heading or head names) say it of the claim's thing. Documents written for these tests, none from a labelled set.
 * Each case fails on main (857b356); each control passes on both.
 */
describe('precision (seventeenth round, vprec7)', () => {
  describe('an amount of another thing, the claim’s words held only by the title and the section heading', () => {
    const head = '# Comité des fêtes de Valmont — Fête du village 2026\n\n## Budget et dépenses\n\nLe comité a voté le budget de la fête.\n\n';
    const claim = 'Le comité prévoit 7 900 € de dépenses pour la fête de 2026.';
    it('`pour un cachet de 1 100 €` does not contradict `Le comité prévoit 7 900 € de dépenses …`', async () => {
      const doc = `${head}Le concert du dimanche, prévu après le défilé, sera animé par la fanfare « Les Cuivres d’Oc » pour un cachet de 1 100 €.\n`;
      expect(await verdict(claim, doc)).not.toBe('contradicted');
    });
    it('control: an amount the sentence itself says of the claim’s thing still contradicts', async () => {
      expect(await verdict(claim, `${head}Le comité prévoit 9 200 € de dépenses pour la fête.\n`)).toBe('contradicted');
    });
  });

  describe('a table row of another line, the claim’s words held only by the title and the section heading', () => {
    const head = '# Relevé individuel de charges — Exercice 2025\n\n**Copropriétaires :** M. et Mme Karim Haddad\n\n## Provisions et solde\n\n| Poste | Montant |\n| --- | --- |\n';
    const claim = 'Les Haddad ont versé 3 600 € de provisions pour l’exercice 2025.';
    it('`| Charges réelles 2025 | 3 912,40 € |` does not contradict `Les Haddad ont versé 3 600 € de provisions …`', async () => {
      expect(await verdict(claim, `${head}| Charges réelles 2025 | 3 912,40 € |\n`)).not.toBe('contradicted');
    });
    it('control: a row naming the claim’s line still contradicts', async () => {
      expect(await verdict(claim, `${head}| Provisions versées 2025 | 3 840,00 € |\n`)).toBe('contradicted');
    });
  });

  describe('a graded support leaving out a word saying how many or which way the claim compares', () => {
    const fees =
      "# Hillcrest University Summer School 2026 — Fees and Payment Guide\n\n## Discounts\n\n- **Partner institutions:** students currently enrolled at one of Hillcrest's partner universities receive 10% off tuition.\n";
    it('`students … at one of the partner universities` does not support `Most Summer School students come from the partner universities`', async () => {
      expect(await verdict("Most Summer School students come from Hillcrest's partner universities.", fees)).not.toBe('supported');
    });
    it('control: the claim the sentence states is still supported', async () => {
      expect(await verdict("Summer School students enrolled at Hillcrest's partner universities receive 10% off tuition.", fees)).toBe('supported');
    });
    const terms = '# Larkfield Singers — Tour Terms 2026\n\n## 3. Prices\n\nNon-singing companions pay the same price as singers.\n';
    it('`pay the same price as singers` does not support `pay a lower tour price than the singers`', async () => {
      expect(await verdict('Non-singing companions pay a lower tour price than the singers.', terms)).not.toBe('supported');
    });
    it('control: `pay the same tour price as the singers` is still supported', async () => {
      expect(await verdict('Non-singing companions pay the same tour price as the singers.', terms)).toBe('supported');
    });
  });

  describe('a support leaving out the period the claim’s rate is counted over', () => {
    const contract =
      "# Contrat de maintenance des portes automatiques\n\n## Article 6 — Délais d'intervention\n\nEn cas de dépassement de ces délais, le Prestataire verse au Client une pénalité de **40 € par heure de retard**, dans la limite de 10 % du prix annuel.\n";
    it('`40 € par heure de retard` does not support `40 € par minute de retard`', async () => {
      expect(await verdict("La pénalité pour retard d'intervention est de 40 € par minute de retard.", contract)).not.toBe('supported');
    });
    it('control: `40 € par heure de retard` is still supported', async () => {
      expect(await verdict("La pénalité pour retard d'intervention est de 40 € par heure de retard.", contract)).toBe('supported');
    });
    const prices = '# Règlement du camping des Saules\n\n## Article 3 — Tarifs 2026\n\n| Prestation | Prix par nuit |\n|---|---|\n| Emplacement caravane | 8,20 € |\n| Véhicule supplémentaire | 2,00 € |\n';
    it('a price under the column `Prix par nuit` does not support `8,20 € par semaine`', async () => {
      expect(await verdict('Un emplacement caravane coûte 8,20 € par semaine.', prices)).not.toBe('supported');
    });
    it('control: `8,20 € par nuit` is still supported', async () => {
      expect(await verdict('Un emplacement caravane coûte 8,20 € par nuit.', prices)).toBe('supported');
    });
  });

  describe('a negation reaching over the month `May`', () => {
    it('`We do not run night sky walks from May to August` is no support for `Night Sky Walks are held from May to August`', async () => {
      const guide = '# Fellside Observatory — Visitor Guide\n\n## Night Sky Walks\n\nWe do not run night sky walks from May to August, because the nights are too short at our latitude.\n';
      expect(await verdict('Night Sky Walks are held from May to August.', guide)).not.toBe('supported');
    });
    it('control: the modal `may` still reads as before', async () => {
      const rules = '# Fellside Observatory — Visitor Guide\n\n## Night Sky Walks\n\nVisitors may not bring dogs on night sky walks, because they disturb the other guests.\n';
      expect(await verdict('Visitors may bring dogs on night sky walks.', rules)).toBe('contradicted');
    });
  });

  describe('a differing date beside one equal to the claim’s, said of the claim’s word', () => {
    const fr =
      '# Centre équestre du Val — Saison 2025-2026\n\n## Inscriptions\n\nLes inscriptions ouvrent le samedi 14 juin 2025 pour les cavaliers déjà inscrits la saison précédente, et le samedi 28 juin 2025 pour les nouveaux cavaliers.\n';
    it('`le samedi 14 juin 2025 pour les cavaliers déjà inscrits` does not contradict `Les inscriptions des nouveaux cavaliers ouvrent le samedi 28 juin 2025`', async () => {
      expect(await verdict('Les inscriptions des nouveaux cavaliers ouvrent le samedi 28 juin 2025.', fr)).not.toBe('contradicted');
    });
    it('`on Saturday 7 March 2026 for returning members` does not contradict `Registration for new members opens on Saturday 21 March 2026`', async () => {
      const en = '# Riverside Rowing Club — Season 2026\n\n## Membership\n\nRegistration opens on Saturday 7 March 2026 for returning members, and on Saturday 21 March 2026 for new members.\n';
      expect(await verdict('Registration for new members opens on Saturday 21 March 2026.', en)).not.toBe('contradicted');
    });
    it('control: a date equal to neither still contradicts', async () => {
      expect(await verdict('Les inscriptions des nouveaux cavaliers ouvrent le samedi 12 juillet 2025.', fr)).toBe('contradicted');
    });
  });

  describe('a name of several words found only in pieces, one in the sentence and one in the title', () => {
    const rules = '# Birchwood Street School of Dance — Spring Term 2026: Fees and Rules\n\n## Uniform\n\nUniform is available from our supplier, Kestrel Dancewear, with a 10% discount for our pupils.\n';
    it('`our supplier, Kestrel Dancewear` under the `Birchwood Street` title does not support `The school’s uniform supplier is Birchwood Dancewear`', async () => {
      expect(await verdict("The school's uniform supplier is Birchwood Dancewear.", rules)).not.toBe('supported');
    });
    it('control: the name the sentence holds whole is still supported', async () => {
      expect(await verdict("The school's uniform supplier is Kestrel Dancewear.", rules)).toBe('supported');
    });
  });
});
