import { expect, it } from 'vitest';
import { Verifier } from '../../src/modules/verify/engine.js';
async function verdict(claim: string, ...documents: string[]) {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}
it('x', async () => {
  const doc = '| Service | Price |\n|---|---|\n| Additional cleaning visit on request, excluding VAT | £95 per visit |';
  console.log('A', await verdict('The cleaning costs £9,000 a year excluding VAT.', doc));
  console.log('A2', await verdict('Cleaning costs £9,000 a year.', 'Additional cleaning visits cost £95 per visit.'));
  console.log('A3', await verdict('The cleaning visits cost £9,000 a year.', 'The cleaning visits cost £95 per visit.'));
  console.log('B', await verdict('Chaque lampe Lumis L-20 du devis a une puissance de 12 W.', '- 20 lampes Lumis L-20 de 12 W chacune, soit une puissance totale de 240 W ;'));
});
