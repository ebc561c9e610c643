import { describe, expect, it } from 'vitest';
import { recordFields, sentencesWithContext } from '../../src/lib/language/asked.js';
import { specificTermsOf } from '../../src/lib/language/entities.js';
import { translationsOf } from '../../src/lib/language/glossary.js';
import { answerLocally } from '../../src/modules/models/local-answer.js';
import type { TurnMaterial } from '../../src/modules/models/provider.js';
import { coverageOf, termGroups } from '../../src/modules/light/coverage.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';

/** Seventh round of issue 26 (docs/quality.md): light's answers across languages and from records, each rule on its case. */
const ask = (question: string, material: TurnMaterial) => answerLocally({ messages: [{ role: 'user', content: question }], material }).content;
const passage = (text: string, sourceName: string) => ({ text, section: '', sourceName, sourceId: 'src_1' });

describe('cross-lingual: the glossary of the documents\' domains', () => {
  it('cross-lingual: a word of a document\'s domain has its rendering in the other language (lift / ascenseur, excess / franchise, container / conteneur)', () => {
    expect(translationsOf('lift')).toContain('ascenseur');
    expect(translationsOf('excess')).toContain('franchise');
    expect(translationsOf('conteneur')).toContain('container');
    expect(translationsOf('october')).toContain('octobre');
  });

  it('cross-lingual: a form the glossary does not list is found by its stem in either language (copropriétaire, containers, conteneurs)', () => {
    expect(translationsOf('coproprietaire')).toContain('owners');
    expect(translationsOf('containers')).toContain('conteneur');
    expect(translationsOf('conteneurs')).toContain('container');
    // A short word is never read as another language's stem.
    expect(translationsOf('du')).not.toContain('duration');
  });

  it('cross-lingual: a French question covers the English passage that says it (franchise / excess, dégât / damage, eaux / water)', () => {
    const groups = termGroups('Quelle est la franchise pour un dégât des eaux sur les bâtiments ?');
    const freq = { total: 20, df: groups.map(() => 1) };
    const { coverage } = coverageOf(groups, freq, [{ section: 'Excesses', text: 'Escape of water: excess £1,000 for damage to the buildings.' }]);
    expect(coverage).toBeGreaterThan(0.6);
  });

  it('cross-lingual: an English question on a French quote is answered with the sentence of the asked thing (validité du devis), not another duration', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'devis-menuiserie.md', text: 'La pose dure 3 jours. Validité du devis : 45 jours à compter de sa date.' }],
    };
    expect(ask('How long is the quote from the joinery valid?', material)).toMatch(/^Validité du devis : 45 jours/);
  });
});

describe('cross-lingual: the built-in model on a French invoice', () => {
  it('cross-lingual: the total including VAT is the TTC row, not the VAT rows or the total before tax (TTC / HT)', () => {
    const material: TurnMaterial = {
      passages: [{ ref: 1, sourceName: 'facture-f-2027-0412.md', text: 'Désignation | Montant\nTotal HT | 2 222,50 €\nTVA à 10 % (sur 1 840,00 €) | 184,00 €\nTotal TTC | 2 483,00 €' }],
    };
    expect(ask("What is the total including VAT on the caterer's invoice?", material)).toMatch(/^Total TTC \| 2 483,00 €/);
  });
});

describe('records: a block of Label: value fields', () => {
  it('record: a header block joined into one paragraph is read as its fields', () => {
    expect(recordFields('Bill number: TE-2026-0917 Bill date: 6 October 2026 Customer: Mossgrave Clinic, 5 Rookhill Lane, Norwich Payment due: 27 October 2026 by direct debit')).toEqual([
      'Bill number: TE-2026-0917',
      'Bill date: 6 October 2026',
      'Customer: Mossgrave Clinic, 5 Rookhill Lane, Norwich',
      'Payment due: 27 October 2026 by direct debit',
    ]);
    expect(recordFields("Effectif : 74 salariés Date d'entrée en vigueur : 1er septembre 2026")).toEqual(['Effectif : 74 salariés', "Date d'entrée en vigueur : 1er septembre 2026"]);
    // One label is a sentence that says what follows, not a record.
    expect(recordFields('Decision: two additional QA engineers will join at 10:00.')).toEqual(['Decision: two additional QA engineers will join at 10:00.']);
  });

  it('record: each field keeps the whole record as its context (the bill number still names the due date)', () => {
    const [, due] = sentencesWithContext({ text: 'Bill number: TE-2026-0917 Payment due: 27 October 2026', sourceName: 'bill.md' });
    expect(due!.sentence).toBe('Payment due: 27 October 2026');
    expect(due!.context.record).toContain('TE-2026-0917');
    expect(answers(passage('Bill number: TE-2026-0917 Payment due: 27 October 2026', 'bill.md'), gateOf('When is payment of bill TE-2026-0917 due?'))).toBe(true);
  });

  it('record: the built-in model answers with the field holding the asked value, not the whole header block', () => {
    const material: TurnMaterial = {
      passages: [
        {
          ref: 1,
          sourceName: 'postmortem.md',
          text: 'Company: Vellamy Logistics Incident ID: INC-2026-0914-02 Severity: SEV-1 Incident commander: Priya Ramaswamy (Platform Engineering)',
        },
      ],
    };
    const answer = ask('Who was the incident commander of the Vellamy outage?', material);
    expect(answer).toMatch(/^Incident commander: Priya Ramaswamy/);
    expect(answer).not.toContain('SEV-1');
  });
});

describe('names: the words that open a question', () => {
  it('absent entity rule: an asking or linking word opening a question (Pourquoi, Chez, If) is no name the documents must hold', () => {
    const names = (q: string) => specificTermsOf(q).filter((t) => t.kind === 'name').map((t) => t.words.join(' '));
    expect(names('Pourquoi le traiteur a-t-il facturé 45 convives au lieu de 50 ?')).toEqual([]);
    expect(names("Chez Menuiserie Vasseur-Lebrun, que devient l'acompte ?")).not.toContain('chez menuiserie vasseur');
    expect(names('Pourquoi le gros œuvre de la résidence Les Aubépines a-t-il pris du retard ?')).toEqual(['aubepines']);
  });
});
