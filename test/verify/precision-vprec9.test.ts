import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { titleHeadsOf } from '../../src/modules/verify/titles.js';

/** The verdict of one claim against one document named `source`. */
async function verdictIn(claim: string, source: string, content: string): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages([{ source, content }]);
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/** The heads of the titles `text` gives the name `name`. */
function heads(text: string, name: string): string[][] {
  const start = text.indexOf(name);
  return titleHeadsOf(text, { start, end: start + name.length });
}

/**
 * Eighteenth round of issue 26 (docs/quality.md, "Eighteenth round: wrong verdicts (vprec9)"): wrong supports of the
 * development sets fixed by a general rule. Documents written for these tests, none from a labelled set. Each case fails on
 * main (6782099, 188028c); each control passes on both.
 */
describe('precision (eighteenth round, vprec9)', () => {
  describe('a role said of another person: the document gives the claim’s title to another name, never to the claim’s', () => {
    const minutes =
      '# Harbour Rowing Club — committee meeting, 4 March 2026\n\n**Present:** Nadia Ferreira (Chair), Tomasz Wilk (Treasurer), Lucy Brennan (Secretary), Owen Pritchard, Hana Sato\n\n## 1. Boat store\n\nOwen Pritchard presented a quote for repairing the boat store roof at £2,300 including VAT.\n\n## 2. Subscriptions\n\nThe Treasurer reported that 64 members have renewed.\n';
    const source = 'rowing-club-minutes.md';
    it('`Tomasz Wilk (Treasurer)` and `Owen Pritchard presented a quote …` do not support `Owen Pritchard is the treasurer of Harbour Rowing Club`', async () => {
      expect(await verdictIn('Owen Pritchard is the treasurer of Harbour Rowing Club.', source, minutes)).not.toBe('supported');
    });
    it('control: the treasurer named in the document is still supported', async () => {
      expect(await verdictIn('Tomasz Wilk is the treasurer of Harbour Rowing Club.', source, minutes)).toBe('supported');
    });
    it('control: what the other person did is still supported', async () => {
      expect(await verdictIn('Owen Pritchard presented a quote for repairing the boat store roof.', source, minutes)).toBe('supported');
    });
    const terms =
      '# Tour terms — Vale Singers, Lyon 2026\n\n**Group leader:** Mr Peter Hollis\n**Musical director:** Ms Joanna Reeve\n\n## Programme\n\nThe musical director is responsible for the repertoire. Rehearsal rooms are booked by the group leader.\n';
    it('`**Musical director:** Ms Joanna Reeve` does not let `The musical director is responsible …` support `Peter Hollis is the musical director for the tour`', async () => {
      expect(await verdictIn('Peter Hollis is the musical director for the choir tour.', 'tour-terms.md', terms)).not.toBe('supported');
    });
    it('control: the group leader’s own title is still supported', async () => {
      expect(await verdictIn('Peter Hollis is the group leader for the choir tour.', 'tour-terms.md', terms)).toBe('supported');
    });
  });
  describe('a title’s head, its complement cut and its possessor plural', () => {
    it('reads `secretary` in `the secretary of the Ashby model railway club` (seven words, which titlesOf drops)', () => {
      expect(heads('Dan Hurst is the secretary of the Ashby model railway club.', 'Dan Hurst')).toEqual([['secretary']]);
    });
    it('reads `lead beekeeper` after a plural possessor (`Meadow Hives’ lead beekeeper for the roof hives`)', () => {
      expect(heads("Ana Lopes is Meadow Hives' lead beekeeper for the roof hives.", 'Ana Lopes')).toEqual([['lead', 'beekeeper']]);
    });
    it('control: no title in `Dan Hurst signed the lease on 3 May`', () => {
      expect(heads('Dan Hurst signed the lease on 3 May.', 'Dan Hurst')).toEqual([]);
    });
  });
});
