import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { claimRoles, parenOwner, sentenceFrames } from '../../src/modules/verify/frames.js';
import { dates } from '../../src/modules/verify/dates.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

const roleKinds = (text: string) => {
  const ds = dates(text);
  const { roles } = sentenceFrames(text, ds);
  return ds.map((_, i) => roles[i]).map((r) => (r ?? []).map((x) => (x.kind === 'nth' ? `nth${x.n}${x.last ? 'last' : ''}` : x.kind)).join('+'));
};

/**
 * Sixteenth round of issue 26 (docs/quality.md, "Sixteenth round: a value in its frame (vdates)"): a claim's date or amount
 * stated by the sentence in another frame (a range's bound, a list's item, a change's new value, a field label, a
 * parenthesis after its noun), read by role. Sentences written for these tests, none from a labelled set. Each case fails on
 * main (745e2ac); each control passes on both.
 */
describe('a value in its frame (sixteenth round)', () => {
  describe('frames.ts', () => {
    it('reads the bounds of a range, a list, a one-sided bound and a labelled field', () => {
      expect(roleKinds('The fair runs from 3 May to 9 June 2026.')).toEqual(['start', 'end']);
      expect(roleKinds('Le gymnase est fermé du 2 août 2026 à midi jusqu’au 24 août 2026.')).toEqual(['start', 'end']);
      expect(roleKinds('Three payments: 1 March 2026, 1 June 2026 and 1 September 2026.')).toEqual(['nth1', 'nth2', 'nth3last']);
      expect(roleKinds('Members may book from Monday, 6 April 2026.')).toEqual(['start']);
      expect(roleKinds('Ouverture du site : 2 mars 2026 — Fermeture : 30 octobre 2026')).toEqual(['start', 'end']);
      // Control: two dates of two events are no range.
      expect(roleKinds('Signed on 2 March 2026 and filed on 9 March 2026.')).toEqual(['', '']);
    });
    it('reads the role a claim gives its value', () => {
      const kinds = (claim: string, value: string) => claimRoles(claim, { start: claim.indexOf(value), end: claim.indexOf(value) + value.length }).map((r) => `${r.role.kind}:${r.closure ?? ''}`);
      expect(kinds('The fair opens on 3 May 2026.', '3 May 2026')).toEqual(['start:opening']);
      expect(kinds('The gym reopens after the summer on 24 August 2026.', '24 August 2026')).toEqual(['end:closing']);
      expect(kinds('La troisième mensualité est due le 1er juin 2026.', '1er juin 2026')).toEqual(['nth:']);
      expect(kinds('The wall will be lowered to 1.2 m.', '1.2 m')).toEqual(['target:']);
      // Control: two roles of different kinds say none.
      expect(kinds('The fair opens and ends on 3 May 2026.', '3 May 2026')).toEqual([]);
    });
    it('reads the noun phrase a parenthesis is said of', () => {
      const text = 'The kit has 6 Norva NX-8 pumps (8 bar pressure), 2 Norva NX-12 pumps (12 bar pressure) and a tank.';
      const at = text.indexOf('12 bar');
      const owner = parenOwner(text, { start: at, end: at + 6 })!;
      expect(text.slice(owner.start, owner.end).trim()).toBe('2 Norva NX-12 pumps');
    });
  });

  describe('a range’s bound', () => {
    const fair = '# Kelso Craft Fair\n\nThe stalls will be open in the old market hall from 3 May to 9 June 2026, every day but Monday.';
    it('the start of a range for an opening claim', async () => {
      expect(await verdict('The Kelso Craft Fair stalls open on 3 May 2026.', fair)).toBe('supported');
    });
    it('the end of a range for an ending claim, in French', async () => {
      const doc = '# Piscine des Acacias\n\nLa saison estivale de la piscine des Acacias a lieu du 13 juin au 30 août 2026, tous les jours.';
      expect(await verdict('La saison estivale de la piscine des Acacias se termine le 30 août 2026.', doc)).toBe('supported');
    });
    it('the end of a closing range for a reopening claim', async () => {
      const doc = '# Arden Library\n\nThe reading rooms close for refurbishment from 2 July 2026 at noon until 17 August 2026 at 9:00 a.m.';
      expect(await verdict('The reading rooms reopen after refurbishment on 17 August 2026.', doc)).toBe('supported');
      // Control: a closing's start is no reopening.
      expect(await verdict('The reading rooms reopen after refurbishment on 2 July 2026.', doc)).not.toBe('supported');
    });
    it('the claim’s date at the other bound is no verdict (vsup: frames only support)', async () => {
      expect(await verdict('The Kelso Craft Fair stalls open on 9 June 2026.', fair)).toBe('unverifiable');
    });
    it('a rival date alone in the claim’s role is no verdict (vsup)', async () => {
      const doc = '# Tarn Lodge\n\nThe shop opens from 10:00 to 18:00 in the busy season (6 July – 30 August 2026).';
      expect(await verdict("Tarn Lodge's busy season starts on 1 July 2026.", doc)).toBe('unverifiable');
    });
    it('a one-sided start against another date is no verdict (vsup)', async () => {
      const doc = '# Glenmore halls\n\nStudents may move in from Sunday, 13 September 2026 at 10:00 a.m.';
      expect(await verdict('Students can start moving into the Glenmore halls on Sunday, 20 September 2026.', doc)).toBe('unverifiable');
    });
    it('a labelled field for an ending claim', async () => {
      const doc = '# Camping Les Pins\n\nOuverture du camping : samedi 4 avril 2026 — Fermeture : dimanche 11 octobre 2026';
      expect(await verdict('Le camping Les Pins ferme le dimanche 11 octobre 2026.', doc)).toBe('supported');
    });
    it('a claim stating the whole range with another verb of span', async () => {
      const doc = '# Club de voile des Mouettes — Adhésion 2026\n\nLa saison court du 1er avril 2026 au 31 octobre 2026.';
      expect(await verdict('La saison du club va du 1er avril 2026 au 31 octobre 2026.', doc)).toBe('supported');
      // Control: another end.
      expect(await verdict('La saison du club va du 1er avril 2026 au 30 septembre 2026.', doc)).not.toBe('supported');
    });
  });

  describe('a list’s item', () => {
    const doc = '# Forfait de ramonage\n\nLe forfait de ramonage est payable en trois échéances, le 1er mars 2026, le 1er juin 2026 et le 1er septembre 2026.';
    it('the nth item for an ordinal claim', async () => {
      expect(await verdict('La deuxième échéance du forfait de ramonage est fixée au 1er juin 2026.', doc)).toBe('supported');
    });
    it('the claim’s date at another item is no verdict (vsup)', async () => {
      expect(await verdict('La deuxième échéance du forfait de ramonage est fixée au 1er septembre 2026.', doc)).toBe('unverifiable');
    });
  });

  describe('a change’s new value', () => {
    const doc = '| Item | Work | Price |\n| --- | --- | --- |\n| W1 | Garden wall, 22 m long | Lower height from 2.4 m to 1.5 m and cap it | £640 |';
    it('the new value for a claim of the change', async () => {
      expect(await verdict('The garden wall will be brought down to a height of 1.5 metres.', doc)).toBe('supported');
    });
    it('the old value for a claim of the change is no verdict (vsup)', async () => {
      expect(await verdict('The garden wall will be brought down to a height of 2.4 metres.', doc)).toBe('unverifiable');
    });
  });

  describe('a table cell under its header', () => {
    const doc = '# Velora bike hire — prices\n\nAll prices include VAT.\n\n| Bike | 1 day | 3 days | 7 days |\n| --- | --- | --- | --- |\n| Touring bike (Velora T2) | €30 | €80 | €150 |\n| Child bike | €12 | €30 | €60 |';
    it('the cell whose column header states the claim’s other amount', async () => {
      expect(await verdict('A touring bike costs €80 for three days at Velora.', doc)).toBe('supported');
    });
    it('control: another amount in that column stays contradicted', async () => {
      expect(await verdict('A touring bike costs €95 for three days at Velora.', doc)).toBe('contradicted');
    });
  });

  describe('a parenthesis after its noun', () => {
    const doc = '# Norva kit\n\nThe kit has 6 Norva NX-8 pumps (8 bar pressure), 2 Norva NX-12 pumps (12 bar pressure) and a tank.';
    it('the amount in the parenthesis after the claim’s name', async () => {
      const d = '# Lindqvist laundry\n\nThe package includes 12 Lindqvist LQ-25 washers (25 kg capacity), 4 Lindqvist LQ-40 washers (40 kg capacity) and 6 dryers.';
      expect(await verdict('Each Lindqvist LQ-40 washer holds 40 kg of laundry.', d)).toBe('supported');
      expect(await verdict('Each Lindqvist LQ-25 washer holds 25 kg of laundry.', d)).toBe('supported');
      // Control: another name's parenthesis.
      expect(await verdict('Each Lindqvist LQ-25 washer holds 40 kg of laundry.', d)).not.toBe('supported');
      expect(doc).toContain('Norva');
    });
  });
});
