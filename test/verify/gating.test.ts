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
 * Third round of issue 26 (docs/verifier.md, "Subject gating"): a verdict only when the evidence sentence is
 * about the claim's own subject, a contradiction only for a like-for-like conflict, a support only when the
 * sentence covers the whole claim. Every sentence here is written for these tests (none from the labelled set),
 * and most cases are traps: the wrong verdict an earlier rule gave.
 */
describe('subject gating', () => {
  describe('negation scoped to its clause', () => {
    it('a negation of another predicate joined by "and" does not flip the claim', async () => {
      const doc = 'The service charge covers garden upkeep and does not cover roof repairs.';
      expect(await verdict('The service charge covers garden upkeep.', doc)).toBe('supported');
      expect(await verdict('The service charge covers roof repairs.', doc)).toBe('contradicted');
    });

    it('a negation inside a relative clause about someone else is not the claim\'s', async () => {
      const doc = 'Guests who do not hold a parking permit must leave their cars at the north gate.';
      expect(await verdict('Guests must leave their cars at the north gate.', doc)).not.toBe('contradicted');
    });

    it('a contrast (unlike, except) puts the negation on another subject: no verdict', async () => {
      const doc = 'Freelance translators, unlike salaried staff, are not eligible for the year-end bonus.';
      expect(await verdict('Salaried staff are eligible for the year-end bonus.', doc)).toBe('unverifiable');
    });

    it('a negated claim agrees with a negative word of the evidence (not allowed = prohibited)', async () => {
      const doc = 'Open flames are prohibited in the paint store.';
      expect(await verdict('Open flames are not allowed in the paint store.', doc)).not.toBe('contradicted');
    });

    it('a negation in the clause after "mais" belongs to that clause (French)', async () => {
      const doc = 'Les repas du midi ne sont pas remboursés, mais le logement est pris en charge par l\'employeur.';
      expect(await verdict('Le logement est pris en charge par l\'employeur.', doc)).toBe('supported');
      expect(await verdict('Les repas du midi sont remboursés.', doc)).toBe('contradicted');
    });

    it('a condition (unless) makes the negation conditional: no contradiction of the plain claim', async () => {
      const doc = 'Tenants may not keep dogs in the flat unless the owner gives written consent.';
      expect(await verdict('Tenants may keep dogs in the flat.', doc)).not.toBe('contradicted');
    });

    it('a true negative claim stated with another negative word is not contradicted', async () => {
      const doc = 'Water damage caused by the user is excluded from the two-year warranty.';
      expect(await verdict('The two-year warranty does not cover water damage caused by the user.', doc)).not.toBe('contradicted');
    });
  });

  describe('amounts of the same subject', () => {
    it('two amounts joined by "and": each is about its own noun', async () => {
      const doc = 'The yearly licence costs 1 200 EUR and the optional onboarding day costs 450 EUR.';
      expect(await verdict('The yearly licence costs 1 200 EUR.', doc)).toBe('supported');
      expect(await verdict('The yearly licence costs 450 EUR.', doc)).toBe('contradicted');
    });

    it('a word of what the claim says held by another amount of the sentence: that amount is the claim\'s, not the first one', async () => {
      const doc = 'The guarantee covers the screen for 24 months and the battery for 12 months.';
      expect(await verdict('The guarantee covers the battery for 24 months.', doc)).not.toBe('supported');
      expect(await verdict('The guarantee covers the screen for 24 months.', doc)).toBe('supported');
    });

    it('an amount of another charge in the same sentence neither supports nor contradicts', async () => {
      const doc = 'Invoices settled late bear a penalty of 8% per year and a fixed recovery charge of 40 EUR.';
      expect(await verdict('The late payment penalty is 40 EUR.', doc)).not.toBe('supported');
      expect(await verdict('The fixed recovery charge is 60 EUR.', doc)).toBe('contradicted');
    });

    it('a sentence whose only amount is about another noun does not contradict the claim\'s amount', async () => {
      const doc = 'The caretaker inspects the boiler every spring; the callout fee is 95 EUR.';
      expect(await verdict('The boiler inspection costs 120 EUR.', doc)).toBe('unverifiable');
    });

    it('another currency with another figure is not a conflict (a conversion the document does not state)', async () => {
      const doc = 'The Veltro K2 kettle retails at £79.';
      expect(await verdict('The Veltro K2 kettle retails at €92.', doc)).toBe('unverifiable');
      expect(await verdict('The Veltro K2 kettle retails at €79.', doc)).toBe('contradicted');
    });

    it('a document stating both currencies: the claim is compared with its own currency', async () => {
      const doc = ['# Veltro price list', '', '| Model | Price (GBP) | Price (EUR) |', '|---|---|---|', '| Veltro K2 | £79 | €92 |'].join('\n');
      expect(await verdict('The Veltro K2 costs €92.', doc)).toBe('supported');
      expect(await verdict('The Veltro K2 costs €79.', doc)).toBe('contradicted');
    });
  });

  describe('dates of the same event', () => {
    it('a date of another event in the same sentence does not contradict', async () => {
      const doc = 'The supply agreement was signed on 4 February 2026 and enters into force on 1 March 2026.';
      expect(await verdict('The supply agreement enters into force on 1 March 2026.', doc)).toBe('supported');
      expect(await verdict('The supply agreement was signed on 1 March 2026.', doc)).toBe('contradicted');
      expect(await verdict('The supply agreement was renewed on 4 February 2026.', doc)).toBe('unverifiable');
    });

    it('a sentence whose only date is of another event is not evidence about the claim\'s date', async () => {
      const doc = 'Following the audit of 12 May 2026, the depot will be repainted.';
      expect(await verdict('The depot will be repainted on 20 June 2026.', doc)).toBe('unverifiable');
    });

    it('a bound (before, by) against an exact date is not a conflict', async () => {
      const doc = 'The survey results are published on 3 October 2026.';
      expect(await verdict('The survey results are published before 30 October 2026.', doc)).not.toBe('contradicted');
    });
  });

  describe('names and codes', () => {
    it('an unknown product code whose other words match: unverifiable, not judged on the rest', async () => {
      const doc = 'The Norvik P3 projector has a brightness of 3 000 lumens.';
      expect(await verdict('The Norvik P5 projector has a brightness of 3 000 lumens.', doc)).toBe('unverifiable');
      expect(await verdict('The Norvik P5 projector has a brightness of 4 000 lumens.', doc)).toBe('unverifiable');
    });

    it('an acronym such as VAT is not a name: a VAT claim is judged on its figures', async () => {
      const doc = 'VAT is charged at 5.5% on books.';
      expect(await verdict('VAT is charged at 5.5% on books.', doc)).toBe('supported');
      expect(await verdict('VAT is charged at 20% on books.', doc)).toBe('contradicted');
    });

    it('a changed name in the same role contradicts; a name in another role does not', async () => {
      const doc = 'The minutes were taken by Ingrid Olsen and approved by Tomas Berg.';
      expect(await verdict('The minutes were taken by Tomas Berg.', doc)).not.toBe('supported');
      expect(await verdict('The minutes were approved by Tomas Berg.', doc)).toBe('supported');
    });

    it('a name of the sentence said of another action is not the claim\'s (prepared by / approved by)', async () => {
      const doc = 'The budget was prepared by Marta Ruiz and approved by Paul Chen.';
      expect(await verdict('The budget was approved by Paul Chen.', doc)).toBe('supported');
      expect(await verdict('The budget was approved by Marta Ruiz.', doc)).toBe('unverifiable');
      expect(await verdict('The budget was approved by Anna Holt.', doc)).toBe('contradicted');
    });

    it('a person the documents never mention is unverifiable', async () => {
      const doc = 'The site visit was led by Karim Haddad.';
      expect(await verdict('The site visit was attended by Laura Bianchi.', doc)).toBe('unverifiable');
    });
  });

  describe('reading the facts', () => {
    it('a time of day is one value: 18:00 against 19:00 is a conflict, not two numbers', async () => {
      const doc = 'The reading room closes at 18:00 on weekdays.';
      expect(await verdict('The reading room closes at 18:00 on weekdays.', doc)).toBe('supported');
      expect(await verdict('The reading room closes at 19:00 on weekdays.', doc)).toBe('contradicted');
    });

    it('a number right after a capitalised word is a model\'s, not an amount (Lumo 300 lamps)', async () => {
      const doc = 'Each Lumo 300 lamp on order PO-7731 costs €64.';
      expect(await verdict('Each Lumo 300 lamp on order PO-7731 costs €64.', doc)).toBe('supported');
      expect(await verdict('Each Lumo 300 lamp on order PO-7731 costs €46.', doc)).toBe('contradicted');
    });

    it('a label and its value (`Date of handover: …`): the value is the label\'s', async () => {
      const doc = ['# Handover record — Quay Street depot', '', '**Date of handover:** 2 June 2026'].join('\n');
      expect(await verdict('The Quay Street depot handover date is 2 June 2026.', doc)).toBe('supported');
      expect(await verdict('The Quay Street depot handover date is 9 June 2026.', doc)).toBe('contradicted');
    });

    it('a bound against an exact amount is not a like-for-like conflict (at least 3 against 2)', async () => {
      const doc = 'Visitors to the clean room wear 2 pairs of gloves.';
      expect(await verdict('Visitors to the clean room wear at least 3 pairs of gloves.', doc)).toBe('unverifiable');
      expect(await verdict('Visitors to the clean room wear 3 pairs of gloves.', doc)).toBe('contradicted');
    });
  });

  describe('polarity', () => {
    it('`no longer` negates; `ne … que` restricts and is not a negation', async () => {
      expect(await verdict('Paper timesheets are accepted.', 'Paper timesheets are no longer accepted.')).toBe('contradicted');
      const doc = 'Les frais de taxi ne sont remboursés que sur présentation du reçu.';
      expect(await verdict('Les frais de taxi ne sont pas remboursés.', doc)).toBe('unverifiable');
    });

    it('a word meaning a negation against a negation: no verdict either way (exempt / not subject to)', async () => {
      const doc = 'Apprentices are exempt from the parking charge.';
      expect(await verdict('Apprentices are subject to the parking charge.', doc)).not.toBe('supported');
    });
  });

  describe('partial statements', () => {
    it('an exception the claim does not state (except contractors) leaves the plain claim unsupported', async () => {
      const doc = 'The rooftop terrace is open to all tenants except subletters.';
      expect(await verdict('The rooftop terrace is open to all tenants.', doc)).toBe('unverifiable');
    });

    it('a negation that comes with a time or amount the claim does not state is conditional', async () => {
      const doc = 'Bicycle storage is not free for residents after 1 October 2026.';
      expect(await verdict('Bicycle storage is free for residents.', doc)).toBe('unverifiable');
    });

    it('a change (extended by 6 months) is not the value itself (lasted 6 months)', async () => {
      const doc = 'The pilot programme was extended by 6 months.';
      expect(await verdict('The pilot programme lasted 6 months.', doc)).toBe('unverifiable');
    });
  });

  describe('coverage', () => {
    it('words the amount\'s kind already says may be missing (costs, for a currency)', async () => {
      const doc = 'The Brenna desk lamp is listed at £38.';
      expect(await verdict('The Brenna desk lamp costs £38.', doc)).toBe('supported');
    });

    it('one missing word of the predicate is tolerated where the amount anchors it, never a verb', async () => {
      const doc = 'The Brenna desk lamp is listed at £38.';
      expect(await verdict('The Brenna desk lamp is listed at £38 online.', doc)).toBe('supported');
      expect(await verdict('The Brenna desk lamp was discounted at £38.', doc)).toBe('unverifiable');
    });

    it('a claim adding a qualifier the sentence does not state is not supported', async () => {
      const doc = 'The Norvik P3 projector weighs 2.4 kg.';
      expect(await verdict('The Norvik P3 projector weighs 2.4 kg without its carrying case.', doc)).toBe('unverifiable');
      expect(await verdict('The Norvik P3 projector weighs 2.4 kg.', doc)).toBe('supported');
    });

    it('a claim about another group than the sentence\'s is not supported', async () => {
      const doc = 'Permanent staff receive a meal allowance of 9 EUR per working day.';
      expect(await verdict('Seasonal interns receive a meal allowance of 9 EUR per working day.', doc)).toBe('unverifiable');
    });

    it('a paraphrase covering every word through synonyms is supported', async () => {
      const doc = 'The library closes at 18:00 on Saturdays.';
      expect(await verdict('On Saturdays the library shuts at 18:00.', doc)).toBe('supported');
    });
  });
});
