import { describe, expect, it } from 'vitest';
import { Verifier, type Verdict } from '../../src/modules/verify/engine.js';
import { inCode, predicateGap, type FrameAlignment, type FrameWord } from '../../src/modules/verify/predicate.js';

/** The verdict of one claim against passages (each a document of its own). */
async function verdict(claim: string, ...documents: string[]): Promise<Verdict> {
  const v = new Verifier(claim);
  await v.addPassages(documents.map((content, i) => ({ source: `doc-${i}.md`, content })));
  const [result] = await v.verify(claim);
  return result!.verdict;
}

/**
 * Twelfth round of issue 26 (docs/quality.md, "Twelfth round: predicates for support (vpred)"): a sentence stating the
 * claim's whole predicate (its figures and names in their roles, its other words in the sentence or its context, its main
 * verb said otherwise) supports it. Documents written for these tests, none from a labelled set.
 */
describe('twelfth round: whole-predicate support', () => {
  const minutes = [
    '# Minutes of the annual general meeting — Brackenfield Allotment Society',
    '',
    '## 4. Budget',
    '',
    'The maintenance budget for 2027: £3,450, in two instalments.',
    '',
    '## 5. Open day',
    '',
    '- Open day of the society: 14 June 2027, at the main gate;',
  ].join('\n');
  const manual = '# Flight operations manual — Heronfield Surveys\n\n## Limits\n\n- Maximum distance of the drones from the pilot: 400 metres, always within visual line of sight.';

  describe('the main verb said by no verb (a field, a list item): `adopted`, `is planned for`, `must stay within`', () => {
    it('an amount, its subject in the sentence and the document\'s name in its title', async () => {
      expect(await verdict('The Brackenfield Allotment Society adopted a maintenance budget of £3,450 for 2027.', minutes)).toBe('supported');
    });
    it('a date, the event said by the field\'s label', async () => {
      expect(await verdict('An open day of the Brackenfield Allotment Society is planned for 14 June 2027.', minutes)).toBe('supported');
    });
    it('a measure, the limit said by a noun (`Maximum distance`)', async () => {
      expect(await verdict('Heronfield drones must stay within 400 metres of the pilot.', manual)).toBe('supported');
    });
  });

  describe('a sentence stating an event of its own (another verb) does not say the claim\'s verb otherwise', () => {
    it('`discussed` is no `adopted`', async () => {
      const discussed = '# Minutes — Brackenfield Allotment Society\n\nThe committee discussed a maintenance budget for 2027 of £3,450.';
      expect(await verdict('The Brackenfield Allotment Society adopted a maintenance budget of £3,450 for 2027.', discussed)).toBe('unverifiable');
    });
  });

  describe('a claim whose entity or figure is absent is never supported', () => {
    it('another amount', async () => {
      expect(await verdict('The Brackenfield Allotment Society adopted a maintenance budget of £3,950 for 2027.', minutes)).not.toBe('supported');
    });
    it('another date', async () => {
      expect(await verdict('An open day of the Brackenfield Allotment Society is planned for 21 June 2027.', minutes)).not.toBe('supported');
    });
    it('a name no document mentions', async () => {
      expect(await verdict('An open day of the Oakhurst Allotment Society is planned for 14 June 2027.', minutes)).toBe('unverifiable');
    });
  });

  describe('only the main verb may be said otherwise', () => {
    it('a word of what the claim says, missing (`observer`), is no support', async () => {
      expect(await verdict('Heronfield drones must stay within 400 metres of the observer.', manual)).toBe('unverifiable');
    });
    it('a qualifier of the claim\'s noun, missing (`training budget`), is no support', async () => {
      expect(await verdict('The Brackenfield Allotment Society adopted a training budget of £3,450 for 2027.', minutes)).toBe('unverifiable');
    });
    it('a main verb that undoes the fact (`rejected`) is never left to be said otherwise', async () => {
      expect(await verdict('The Brackenfield Allotment Society rejected a maintenance budget of £3,450 for 2027.', minutes)).toBe('unverifiable');
    });
  });

  describe('the frame decision (predicateGap)', () => {
    const word = (over: Partial<FrameWord>): FrameWord => ({ stem: 'x', verb: false, light: false, said: false, inSentence: true, held: true, toldApart: false, ...over });
    const base: FrameAlignment = {
      figures: 1,
      figuresInSentence: 1,
      figuresAgree: true,
      names: 1,
      namesHeld: 1,
      namesInSentence: 0,
      words: [word({ stem: 'budget', said: true }), word({ stem: 'adopt', verb: true, said: true, held: false, inSentence: false })],
      otherVerbs: 0,
      polarity: 'same',
      flipped: false,
      restricted: false,
    };
    it('the main verb missing, everything else held: no gap', () => {
      expect(predicateGap(base)).toBeNull();
    });
    it('the relation only in the context (the sentence holds the anchors, none of the claim\'s words)', () => {
      expect(predicateGap({ ...base, words: [word({ stem: 'minut', inSentence: false }), word({ stem: 'take', verb: true, held: false, inSentence: false })] })).toBe('relation-in-context-only');
    });
    it('what the claim says held only by the context', () => {
      expect(predicateGap({ ...base, words: [word({ stem: 'board' }), word({ stem: 'spend', said: true, inSentence: false })] })).toBe('object-in-context-only');
    });
    it('the main verb missing where the sentence states an event of its own (another verb)', () => {
      expect(predicateGap({ ...base, otherVerbs: 1 })).toBe('verb-of-another-event');
    });
    it('the main verb told apart by the document (stated elsewhere beside the same words)', () => {
      expect(predicateGap({ ...base, words: [word({ stem: 'budget' }), word({ stem: 'adopt', verb: true, held: false, inSentence: false, toldApart: true })] })).toBe('verb-told-apart');
    });
    it('a condition the sentence adds, an unclear polarity, a figure in another role', () => {
      expect(predicateGap({ ...base, restricted: true })).toBe('condition-left-out');
      expect(predicateGap({ ...base, polarity: 'unclear' })).toBe('polarity-unclear');
      expect(predicateGap({ ...base, figuresAgree: false })).toBe('figure-in-another-role');
    });
  });

  it('a figure inside a code or a reference is no amount of its own (`17` of `17-3`)', () => {
    expect(inCode('| 17-3 | Chase the roofer |', { start: 2, end: 4 })).toBe(true);
    expect(inCode('INV-2025-0387', { start: 4, end: 8 })).toBe(true);
    expect(inCode('Meeting no. 17 was held', { start: 12, end: 14 })).toBe(false);
  });
});
