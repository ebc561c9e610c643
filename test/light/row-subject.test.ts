import { describe, expect, it } from 'vitest';
import { askedOf, rowMissesSubject } from '../../src/lib/language/asked.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';

/**
 * Fourteenth round of issue 26 (lrefuse4; docs/quality.md, "Fourteenth round: a table row's own thing"; docs/light.md
 * rule 23): a table lists things of one kind, one a row, each named in its cells; a row answers only a question whose thing
 * the passage says (in the row, around the table or elsewhere in the passage). Tables written for these tests.
 */
const table = (rows: string[], header: string, section = '', before = '') => ({
  text: `${before ? `${before}\n\n` : ''}| ${header} |\n|${header.split('|').map(() => '---').join('|')}|\n${rows.map((r) => `| ${r} |`).join('\n')}`,
  section,
  sourceName: 'price-list.md',
  sourceId: 'src_1',
});

describe("a table row names its own thing", () => {
  const skis = table(['Standard ski set (Rossignol Experience 80) | CHF 54 | CHF 138', 'Helmet only | CHF 9 | CHF 24'], 'Item | 1 day | 3 days', 'Alpenglow rental prices');

  it('sister row: cross-country skis are not answered by the standard ski set or the helmet row', () => {
    expect(answers(skis, gateOf('What daily price does Alpenglow charge for cross-country skis?'))).toBe(false);
  });

  it('the row naming the thing answers', () => {
    const with_ = table(['Cross-country ski set | CHF 32 | CHF 80', 'Helmet only | CHF 9 | CHF 24'], 'Item | 1 day | 3 days', 'Alpenglow rental prices');
    expect(answers(with_, gateOf('What daily price does Alpenglow charge for cross-country skis?'))).toBe(true);
  });

  it('French object noun: acacia honey is not answered by the rows of other honeys', () => {
    const q = "Quel prix a été payé aux adhérents pour le miel d'acacia en 2024 ?";
    const rows = (label: string) => table([`${label} | 9,2 t | 7,20 €/kg`, 'Sapin | 4,1 t | 8,50 €/kg'], 'Miel | Récolte 2024 | Prix payé aux adhérents', 'Récolte et prix 2024');
    expect(answers(rows('Châtaignier'), gateOf(q))).toBe(false);
    expect(answers(rows('Acacia'), gateOf(q))).toBe(true);
  });

  it("French participle and compound preposition: Qu'a décidé l'assemblée au sujet de… names no thing by décidé or sujet", () => {
    const f = askedOf("Qu'a décidé l'assemblée au sujet de l'ouverture d'une boutique le samedi matin ?").frame!;
    expect(f.things).not.toContain('decide');
    expect(f.things).not.toContain('sujet');
    expect(f.things).toContain('boutique');
  });

  it('the thing said elsewhere in the passage: the row is read with it', () => {
    const q = 'What is the charge for inserting an identification chip in a pet at Willowbrook?';
    const p = table(['MIC-01 | Microchip insertion | £25.00'], 'Code | Service | Price', 'Willowbrook price list', 'Every pet registered with the practice may be identified.');
    expect(answers(p, gateOf(q))).toBe(true);
  });

  it("compound modifier: an identification chip is said by the row's Microchip", () => {
    const p = table(['MIC-01 | Microchip implantation and registration | £24.00'], 'Code | Service | Price', 'Willowbrook price list');
    expect(answers(p, gateOf('What does Willowbrook charge for an identification chip?'))).toBe(true);
  });

  it("the head's phrase: the clean air delivery rate is said by the header's CADR", () => {
    const p = table(['AQ-500 | up to 80 m² | 600 m³/h'], 'Model | Room | CADR', 'Specifications');
    expect(answers(p, gateOf('What is the clean air delivery rate of the AQ-500?'))).toBe(true);
  });

  it('what the value is for, named by the row: the other nouns are its setting', () => {
    const p = table(['MIC-01 | Microchip implantation | £24.00'], 'Code | Service | Price', 'Prices');
    expect(answers(p, gateOf('What is the charge for inserting an identification chip in a pet?'))).toBe(true);
  });

  it('a prose sentence is not read as a row', () => {
    const asked = askedOf('What daily price does Alpenglow charge for cross-country skis?');
    expect(rowMissesSubject(asked, 'A standard ski set costs CHF 54 a day.', { previous: '', header: '', section: '', sourceName: 'x.md' })).toBe(false);
  });
});
