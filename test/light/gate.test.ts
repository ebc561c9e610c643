import { describe, expect, it } from 'vitest';
import { answerTypeOf, holdsAnswerType } from '../../src/lib/language/answer-type.js';
import { askedOf, headFields, relatedWords, typeWords } from '../../src/lib/language/asked.js';
import { paraphrasesOf } from '../../src/lib/language/paraphrase.js';
import { contrastsOf, relatedOf } from '../../src/lib/language/wordnet.js';
import { expansionTerms, queryTerms } from '../../src/modules/knowledge/search-text.js';
import { coverageOf, termGroups } from '../../src/modules/light/coverage.js';
import { declined } from '../../src/modules/light/grounded.js';
import { answers, gateOf } from '../../src/modules/light/light.service.js';

/** Light's gate and the search's expansion (issue 26), each rule on the kind of case it handles (docs/light.md, "The gate"). */
const passage = (text: string, sourceName = 'price-list.md', section = '') => ({ text, section, sourceName, sourceId: 'src_1' });

describe("light's gate", () => {
  it('absent entity: a passage without the product model the question names does not answer (AQ-500 is not AQ-350)', () => {
    const q = 'What is the clean air delivery rate of the AQ-500?';
    expect(answers(passage('Model | Room | CADR\nAQ-350 | up to 60 m² | 450 m³/h'), gateOf(q))).toBe(false);
    expect(answers(passage('Model | Room | CADR\nAQ-500 | up to 80 m² | 600 m³/h'), gateOf(q))).toBe(true);
  });

  it('absent entity: an invoice number counts as written, not as its pieces found apart', () => {
    const q = 'What is the total of invoice INV-2025-0412?';
    expect(answers(passage('Total due: £3,108.00. See also order 0412 of 2025.', 'invoice-inv-2025-0318.md'), gateOf(q))).toBe(false);
    expect(answers(passage('Total due: £3,108.00.', 'invoice-inv-2025-0412.md'), gateOf(q))).toBe(true);
  });

  it('answer type: a when-question needs a date in the passage, a how-much question a figure, who a person or body, where a place', () => {
    expect(answerTypeOf('When was the agreement signed?')).toBe('date');
    expect(answerTypeOf('Combien coûte le transport ?')).toBe('amount');
    expect(answerTypeOf('How long is the warranty?')).toBe('duration');
    expect(answerTypeOf('Who chairs the board?')).toBe('person');
    expect(answerTypeOf('Où se trouve le siège ?')).toBe('place');
    expect(holdsAnswerType('date', 'The agreement was signed by both parties.')).toBe(false);
    expect(holdsAnswerType('date', 'The agreement was signed on 14 February 2025.')).toBe(true);
    expect(holdsAnswerType('duration', 'The warranty lasts 2 years.')).toBe(true);
    expect(holdsAnswerType('person', 'The board is chaired by the finance director.')).toBe(true);
    expect(holdsAnswerType('place', 'Data is stored in Frankfurt.')).toBe(true);
  });

  it('deadline: a when-must question is answered by a time limit too', () => {
    expect(answerTypeOf('When must invoices be paid?')).toBe('deadline');
    expect(holdsAnswerType('deadline', 'Invoices are payable within 30 days.')).toBe(true);
    expect(holdsAnswerType('date', 'Invoices are payable within 30 days.')).toBe(false);
  });

  it('synonym: a synonym of the question word covers it, below the word itself', () => {
    const groups = termGroups('What is the price of the filter?');
    const freq = { total: 10, df: groups.map(() => 1) };
    const exact = coverageOf(groups, freq, [{ section: '', text: 'The price of the filter is 40 EUR.' }]);
    const synonym = coverageOf(groups, freq, [{ section: '', text: 'The cost of the filter is 40 EUR.' }]);
    expect(synonym.coverage).toBeGreaterThan(0.5);
    expect(synonym.coverage).toBeLessThan(exact.coverage);
  });

  it('cross-lingual: an English question covers a French passage through the glossary', () => {
    const groups = termGroups('What is the total of the invoice?');
    const freq = { total: 10, df: groups.map(() => 1) };
    expect(coverageOf(groups, freq, [{ section: '', text: 'Le total de la facture est de 640 €.' }]).coverage).toBeGreaterThan(0.7);
  });

  it('near miss: the heaviest word the best passage lacks is reported (the gate refuses above SVC_LIGHT_MAX_MISSING)', () => {
    const groups = termGroups('What penalty is charged when late?');
    const freq = { total: 100, df: groups.map((g) => (g.prefix.startsWith('penal') ? 0 : 3)) };
    const found = coverageOf(groups, freq, [{ section: '', text: 'A fee is charged when the payment is late.' }]);
    expect(found.coverage).toBeGreaterThan(0.5);
    expect(found.missing).toBeGreaterThan(0.4);
  });

  it("a real model's refusal in its own words is a refusal (English and French)", () => {
    expect(declined('NOT_IN_DOCUMENTS')).toBe(true);
    expect(declined('The passages do not mention any penalty for late acknowledgement.')).toBe(true);
    expect(declined('Les documents ne précisent pas le tarif horaire.')).toBe(true);
    expect(declined('The fee is 40 EUR [1].')).toBe(false);
    expect(declined("I don't know which courier handles returns.")).toBe(true);
    expect(declined('The courier is not mentioned in the passages.')).toBe(true);
    expect(declined("Le transporteur n'est pas indiqué dans les documents.")).toBe(true);
    expect(declined('The courier is DHL; returns are not mentioned [1].')).toBe(false);
  });
});

describe("light's gate, fifth round: precision (issue 26)", () => {
  it('a name of several words is found as one run, not as words scattered over other names (Thermo Centre)', () => {
    const q = "Quel lot l'entreprise Thermo Centre réalise-t-elle sur le chantier ?";
    const scattered = passage("Entreprise | Lot\nÉlec'Centre | Lot 09 — électricité\nThermo Loire | Lot 07 — plomberie", 'compte-rendu.md');
    expect(answers(scattered, gateOf(q))).toBe(false);
    const run = passage('Entreprise | Lot\nThermo Centre | Lot 07 — plomberie', 'compte-rendu.md');
    expect(answers(run, gateOf(q))).toBe(true);
  });

  it('an interest rate or a VAT rate asks a percentage: a sentence naming the rate without its figure does not answer', () => {
    const fr = "Quel est le taux d'intérêt légal applicable aux retards de paiement de Corvin ?";
    expect(gateOf(fr).asked.value).toBe('percentage');
    expect(answers(passage('Tout retard de paiement entraîne des pénalités au taux de trois fois le taux d\'intérêt légal et une indemnité de 40 €.', 'cgv-corvin.md'), gateOf(fr))).toBe(false);
    const en = 'What VAT rate is added to the Corvin invoices?';
    expect(answers(passage('VAT is added to the Corvin invoices at the standard rate.', 'corvin.md'), gateOf(en))).toBe(false);
    expect(answers(passage('VAT is added to the Corvin invoices at 20%.', 'corvin.md'), gateOf(en))).toBe(true);
  });
});

describe("light's gate, one sentence at a time (asked.ts)", () => {
  const p = (text: string, sourceName = 'notes.md', section = '') => passage(text, sourceName, section);

  it('near miss, head noun: the sentence holding the figure must say what is asked (a surcharge is not a refund)', () => {
    const q = 'What refund does the carrier give when a parcel arrives damaged?';
    expect(askedOf(q).head).toBe('refund');
    expect(answers(p('Damaged parcels are reported within 2 days. A surcharge of 12 EUR applies to oversized parcels.'), gateOf(q))).toBe(false);
    expect(answers(p('When a parcel arrives damaged, the carrier refunds 80% of its declared value.'), gateOf(q))).toBe(true);
  });

  it('near miss, head verb: "when must X be replaced" is not answered by when it is inspected', () => {
    const q = 'Within what time must Harwell Estates replace a broken boiler?';
    expect(askedOf(q).head).toBe('replace');
    expect(answers(p('Harwell Estates inspects the boiler every 12 months.'), gateOf(q))).toBe(false);
    expect(answers(p('A broken boiler is replaced by Harwell Estates within 48 hours.'), gateOf(q))).toBe(true);
  });

  it('French head noun: "la date de clôture" asks for the closing date, not another date of the same file', () => {
    const q = "Quelle est la date de clôture de l'exercice ?";
    expect(askedOf(q).head).toBe('cloture');
    expect(answers(p("L'assemblée s'est tenue le 12 mars 2026.", 'comptes.md'), gateOf(q))).toBe(false);
    expect(answers(p("L'exercice est clôturé le 31 décembre 2025.", 'comptes.md'), gateOf(q))).toBe(true);
  });

  it('which-questions: the noun after "which" is the kind of answer, not a word the sentence must repeat', () => {
    const q = 'Which vendor supplied the projectors in 2024?';
    expect(askedOf(q).head).toBeNull();
    expect(answers(p('In 2024 the projectors were supplied by Lumatek.'), gateOf(q))).toBe(true);
  });

  it('value kind: a money question needs a currency, not any figure (seats, hours)', () => {
    const q = 'How much does each attendee pay for the first-aid course?';
    expect(askedOf(q).value).toBe('money');
    expect(answers(p('First-aid course | 14 May 2026 | 12 seats'), gateOf(q))).toBe(false);
    expect(answers(p('The first-aid course costs 95 EUR per attendee.'), gateOf(q))).toBe(true);
  });

  it('value kind: how heavy needs a weight, how loud a sound level', () => {
    expect(askedOf('How heavy is the trolley?').value).toBe('weight');
    expect(answers(p('The trolley is 90 cm tall and weighs 14 kg.', 'trolley.md'), gateOf('How heavy is the trolley?'))).toBe(true);
    expect(answers(p('The trolley is 90 cm tall.', 'trolley.md'), gateOf('How heavy is the trolley?'))).toBe(false);
    expect(answerTypeOf('How loud is the fan at full speed?')).toBe('amount');
    expect(askedOf('How loud is the fan at full speed?').value).toBe('sound');
  });

  it('specific terms beside the answer: a figure of the question must be in the answering sentence, not elsewhere in the passage', () => {
    const q = 'How long is the guarantee on the Vela 30 lamp?';
    const text = 'The Vela 20 lamp has a 2-year guarantee. The Vela 30 lamp is sold out until June.';
    expect(answers(p(text), gateOf(q))).toBe(false);
    expect(answers(p('The Vela 30 lamp has a 3-year guarantee.'), gateOf(q))).toBe(true);
  });

  it('codes written without their hyphen in a file name still count (`bx40` for BX-40)', () => {
    const q = 'What is the maximum load of the BX-40?';
    expect(answers(p('Maximum load: 120 kg.', 'manual-bx40-shelf.md'), gateOf(q))).toBe(true);
  });

  it('compound: a passage naming the part without the whole (aunt, not great-aunt) is about another thing', () => {
    const q = 'How many days off are given for the wedding of a great-aunt?';
    expect(askedOf(q).compounds).toEqual([['great', 'aunt']]);
    expect(answers(p('Wedding of an aunt | 1 day\nWedding of a child | 2 days', 'leave.md'), gateOf(q))).toBe(false);
    expect(answers(p('Wedding of a great-aunt | 1 day\nWedding of a child | 2 days', 'leave.md'), gateOf(q))).toBe(true);
  });

  it('qualifiers: a proper adjective or an acronym of the question must be stated (Spanish staff, OECD)', () => {
    const q = 'How much is the meal allowance for Spanish staff?';
    expect(answers(p('The meal allowance is 12 EUR a day (14 EUR for Italian staff).'), gateOf(q))).toBe(false);
    expect(answers(p('The meal allowance is 12 EUR a day, 11 EUR for Spanish staff.'), gateOf(q))).toBe(true);
    expect(answers(p('Rents are indexed on the index published every quarter, 3% at most.'), gateOf('What does the OECD index measure?'))).toBe(false);
  });

  it('answer type read at the first asking word: "what … when" asks no date; "may" the modal is no month', () => {
    expect(answerTypeOf('What does the display show when the tank is empty?')).toBeNull();
    expect(holdsAnswerType('date', 'A discount may be granted for early payment.')).toBe(false);
    expect(holdsAnswerType('date', 'Signed on 4 May 2025.')).toBe(true);
    expect(holdsAnswerType('amount', 'See the KT-300 model.')).toBe(false);
  });
});

describe("light's graded head (issue 26, fourth round)", () => {
  const p = (text: string, sourceName = 'notes.md', section = '') => passage(text, sourceName, section);

  it('synonym beyond WordNet: a paraphrase of the business lexicon says the head (hosted / stored, footage / recordings)', () => {
    expect(answers(p('Customer data is stored in a data centre in Dublin.', 'dpa.md'), gateOf('Where is the customer data hosted?'))).toBe(true);
    expect(answers(p('Camera recordings are deleted after 30 days.', 'cctv.md'), gateOf('How long is the CCTV footage kept?'))).toBe(true);
    expect(answers(p('Each visit is billed a charge of 60 EUR.', 'rates.md'), gateOf('What is the fee for a visit?'))).toBe(true);
  });

  it('paraphrase across languages: the lexicon holds French words too (an English head on a French sentence)', () => {
    expect(paraphrasesOf('outing')).toContain('sortie');
    expect(paraphrasesOf('frais')).toContain('fee');
    expect(answers(p('La sortie annuelle aura lieu à Chamonix.', 'note-interne.md'), gateOf('Where will the annual outing take place?'))).toBe(true);
  });

  it('derived form: a noun derived from the verb asked says it (stored → storage, recruit → recruitment)', () => {
    expect(relatedOf('recruit').derived).toContain('recruitment');
    expect(relatedWords('stored')).toContain('storage');
  });

  it('near miss kept: a distinctive word with no related word beside the value is still refused (a refund is no penalty)', () => {
    const q = 'What penalty does the carrier pay for a late parcel?';
    expect(answers(p('The carrier refunds 40 EUR for each late parcel.', 'carrier.md'), gateOf(q))).toBe(false);
    expect(answers(p('The carrier pays a penalty of 40 EUR for each late parcel.', 'carrier.md'), gateOf(q))).toBe(true);
  });

  it('near miss kept: the lexicon does not join things a question tells apart (penalty, warranty, deposit)', () => {
    expect(paraphrasesOf('penalty')).toEqual([]);
    expect(paraphrasesOf('warranty')).not.toContain('return');
    // A deposit is said as a bond or a caution (lanswer3 round), never as a balance or what is left to pay.
    expect(paraphrasesOf('deposit').sort()).toEqual(['bond', 'bonds', 'caution', 'deposits', 'depot']);
    expect(relatedWords('rate')).not.toContain('fee');
  });

  it("retrieval evidence: the first passage by a clear margin may state the head outside the answering sentence", () => {
    const q = 'How many seats does the minibus have?';
    const text = 'Seats and luggage of the minibus.\nThe minibus carries 9 passengers and 6 suitcases.';
    expect(answers(p(text, 'fleet.md'), gateOf(q))).toBe(false);
    expect(answers(p(text, 'fleet.md'), gateOf(q), true)).toBe(true);
    // Without the head anywhere in the passage, evidence is not enough.
    expect(answers(p('The minibus carries 9 passengers and 6 suitcases.', 'fleet.md'), gateOf(q), true)).toBe(false);
  });

  it('retrieval evidence: a WordNet hypernym or hyponym of the head counts only with it (sedan and car)', () => {
    expect(relatedOf('sedan').kin).toContain('car');
    const q = 'How many sedans does the Norden depot keep?';
    expect(askedOf(q).head).toBe('sedans');
    const text = 'The Norden depot keeps 14 cars for the sales team.';
    expect(answers(p(text, 'fleet.md'), gateOf(q))).toBe(false);
    expect(answers(p(text, 'fleet.md'), gateOf(q), true)).toBe(true);
  });

  it('day asked: "on what date" needs a day, not a bare year (a statute of 1998)', () => {
    const q = 'On what date was the lease renewed?';
    expect(askedOf(q).value).toBe('day');
    expect(answers(p('The lease was renewed under the Landlord and Tenant Act 1954.', 'lease.md'), gateOf(q))).toBe(false);
    expect(answers(p('The lease was renewed on 3 March 2025.', 'lease.md'), gateOf(q))).toBe(true);
    expect(askedOf('In what year was the lease renewed?').value).toBeNull();
  });

  it('another period: a sentence naming months, none of them the question\'s, answers for another period (September for August)', () => {
    const q = 'What was the helpdesk first-response rate in August 2026?';
    expect(askedOf(q).months).toEqual([8]);
    expect(answers(p('The first-response rate of the helpdesk for September 2026 was 94%.', 'report.md'), gateOf(q))).toBe(false);
    expect(answers(p('The first-response rate of the helpdesk for August 2026 was 91%.', 'report.md'), gateOf(q))).toBe(true);
    expect(askedOf('How much may the tenant deduct?').months).toEqual([]);
  });

  it('value words: the words that only name the kind of value asked (loud, quietest) are answered by the value', () => {
    const words = typeWords(askedOf('How loud is the fan on its quietest setting?'));
    expect(words.has('loud')).toBe(true);
    expect(words.has('quietest')).toBe(true);
    expect(words.has('fan')).toBe(false);
  });

  it('codes in the sentence before: a sentence naming no code goes on with the codes of the one before, not one naming another', () => {
    const q = 'How many technicians will be hired for the KX-10 rollout?';
    const goesOn = 'The KX-10 rollout needs more field staff.\nDecision: three technicians will be hired on 6-month contracts.';
    const other = 'The KX-10 rollout needs more field staff.\nFor the KX-20, three technicians will be hired.';
    expect(answers(p(goesOn, 'minutes.md'), gateOf(q))).toBe(true);
    expect(answers(p(other, 'minutes.md'), gateOf(q))).toBe(false);
  });
});

describe('French head (fourth round)', () => {
  it('French amount qualifier: "toutes taxes comprises" is never what is asked', () => {
    expect(askedOf('Combien coûte par an, toutes taxes comprises, la location des deux photocopieurs ?').head).toBe('location');
  });

  it('French participle: after an auxiliary the verb is passed, the noun after it is asked ("se sont élevés les frais")', () => {
    expect(askedOf("À combien se sont élevés les honoraires de l'exercice 2025 ?").head).toBe('honoraires');
  });

  it('French who-question: the noun after quel names the kind of answer, like "which" ("quel assureur couvre…")', () => {
    const asked = askedOf('Quel assureur couvre la flotte de véhicules ?');
    expect(asked.type).toBe('person');
    expect(asked.head).not.toBe('assureur');
  });
});

describe('sixth round: answers', () => {
  const p = (text: string, sourceName = 'rates.md') => ({ text, section: '', sourceName, sourceId: 'src_1' });

  it('rate period: an hourly, monthly or yearly amount is answered by a sentence stating that period, not by another figure', () => {
    const q = 'What hourly rate does the agency charge for temporary drivers?';
    expect(askedOf(q).periods.length).toBe(1);
    expect(answers(p('Temporary drivers are charged at £24.50 per hour.'), gateOf(q))).toBe(true);
    expect(answers(p('Temporary drivers: placement fee of 15% of the first-year salary.'), gateOf(q))).toBe(false);
    const fr = 'Quel est le montant mensuel de la gratification du stagiaire ?';
    expect(askedOf(fr).head).toBe('gratification');
    expect(answers(p('Le stagiaire perçoit une gratification de 4,50 € par heure, soit environ 693 € par mois.', 'convention.md'), gateOf(fr))).toBe(true);
    expect(answers(p('Le stagiaire perçoit une gratification de 4,50 € par heure de présence.', 'convention.md'), gateOf(fr))).toBe(false);
  });

  it('qualifier after the head: a participle used as a preposition (including, excluding) ends the phrase asked about', () => {
    expect(askedOf('What is the total annual premium including tax on the policy?').head).toBe('premium');
    expect(askedOf('What is the monthly fee excluding VAT?').head).not.toBe('vat');
  });

  it('French reflexive verb: the word after se / s\' is a verb, the noun after it is asked ("à combien s\'élève la pénalité")', () => {
    expect(askedOf("À combien s'élève la pénalité de retard appliquée au couvreur ?").head).toBe('penalite');
  });

  it('French generic noun: its complement after de is asked ("le montant mensuel de la gratification"), not past an article', () => {
    expect(askedOf('Quel est le montant total de la commission ?').head).toBe('commission');
    expect(askedOf('Combien coûte le transport de la commande ?').head).toBe('transport');
  });

  it('date asked: "quelle est la date limite", "what is the date of" ask a date (a limit: a deadline)', () => {
    expect(answerTypeOf('Quelle est la date limite de paiement du solde ?')).toBe('deadline');
    expect(answerTypeOf('What is the date of the next board meeting?')).toBe('date');
  });
});

describe('knowledge search expansion', () => {
  it('adds word forms, synonyms and translations below the exact words', () => {
    const terms = queryTerms('When is the invoice due for the lease termination?');
    const wide = expansionTerms(terms);
    expect(wide).toContain("'facture'");
    expect(wide).toContain("'resiliation'");
    expect(wide.some((t) => t.endsWith(':*'))).toBe(true);
    for (const t of terms) expect(wide).not.toContain(`'${t}'`);
  });
});

describe("light's refusal, sixth round (issue 26)", () => {
  const p = (text: string, sourceName = 'notes.md', section = '') => passage(text, sourceName, section);

  it("possessive: the head is read after the owner's name (the ZX-9's rated load), so a sentence without it does not answer", () => {
    const q = "What is the ZX-9's rated load at 4 metres?";
    expect(askedOf(q).head).toBe('load');
    expect(askedOf("What was the Billing API's monthly uptime in May 2026?").head).toBe('uptime');
    expect(answers(p('Keep the ZX-9 at least 4 metres away from open flames.', 'zx9-manual.md'), gateOf(q))).toBe(false);
    expect(answers(p('At 4 metres the ZX-9 has a rated load of 1,800 kg.', 'zx9-manual.md'), gateOf(q))).toBe(true);
  });

  it('a word saying when (today, now) is never the head: "share price today" asks the price', () => {
    expect(askedOf("What is Orvane Group's share price today?").head).not.toBe('today');
  });

  it('role asked by who: the function beside a name says the role, whatever the title (safety officer / safety lead)', () => {
    const q = "Who is Dalmore Building's safety officer on the school site?";
    expect(answers(p('| Role | Name |\n| --- | --- |\n| Safety lead | Ines Kowalczyk |', 'site-roles.md', 'Dalmore Building: school site'), gateOf(q))).toBe(true);
    expect(answers(p('| Role | Name |\n| --- | --- |\n| Site manager | Ines Kowalczyk |', 'site-roles.md', 'Dalmore Building: school site'), gateOf(q))).toBe(false);
  });
});

describe("light's refusal, sixth round: the value now (issue 26)", () => {
  const p = (text: string, sourceName = 'notes.md', section = '') => passage(text, sourceName, section);

  it('outside knowledge, current value: a question about the value now is answered only by a sentence saying it holds now', () => {
    const q = 'What is the current Northmoor Bank base rate?';
    expect(askedOf(q).when).toBe('now');
    expect(askedOf(q).head).toBe('rate');
    // A document states what held when it was written; another value of the same thing is not today's.
    expect(answers(p('Interest accrues at 2% above the Northmoor Bank base rate, fixed at 4.5% on signature.', 'loan.md'), gateOf(q))).toBe(false);
    expect(answers(p('Instalments are paid from the current account of the Northmoor Bank customer.', 'loan.md'), gateOf(q))).toBe(false);
    expect(answers(p('The Northmoor Bank base rate is currently 4.5%.', 'rates.md'), gateOf(q))).toBe(true);
  });

  it('outside knowledge, current value in French: "valeur actuelle", "en vigueur", but "entre en vigueur" asks a date', () => {
    const q = "Quelle est la valeur actuelle de l'indice Brenac ?";
    expect(askedOf(q).when).toBe('now');
    expect(answers(p("Les prix sont révisés chaque 1er janvier selon l'indice Brenac, dans la limite de 3 % par an.", 'contrat.md'), gateOf(q))).toBe(false);
    expect(askedOf("Quel est le taux de l'intérêt légal en vigueur en 2026 ?").when).toBe('now');
    expect(askedOf("Quel est le taux de l'intérêt légal en vigueur en 2026 ?").value).toBe('percentage');
    expect(askedOf("À quelle date le règlement entre-t-il en vigueur ?").when).toBeNull();
  });
});

describe("light's refusal, sixth round: near misses (issue 26)", () => {
  const p = (text: string, sourceName = 'notes.md', section = '') => passage(text, sourceName, section);

  it('near miss, noun modifier: the noun narrowing the head is said beside the value (the contents sum insured is not the buildings one)', () => {
    const q = 'What is the contents sum insured under the Harlow Mutual policy?';
    expect(askedOf(q).modifiers).toEqual(['contents']);
    expect(answers(p('Under the Harlow Mutual policy the buildings sum insured is £900,000.', 'policy.md'), gateOf(q))).toBe(false);
    expect(answers(p('Under the Harlow Mutual policy the contents sum insured is £120,000.', 'policy.md'), gateOf(q))).toBe(true);
  });

  it('near miss, a former value: a question about the previous one is answered only by a sentence speaking of a former one', () => {
    const q = 'What was the callout fee under the previous Brasswick maintenance contract?';
    expect(askedOf(q).when).toBe('before');
    expect(answers(p('Brasswick maintenance contract: the callout fee is £85.', 'contract.md'), gateOf(q))).toBe(false);
    expect(answers(p('Under the previous Brasswick maintenance contract, the callout fee was £70.', 'contract.md'), gateOf(q))).toBe(true);
    // `prior to` is a time limit, not a former value.
    expect(askedOf('How many days prior to the visit must Brasswick confirm it?').when).toBeNull();
  });

  it('near miss, a thing named by a letter: "bâtiment B" is a code of the question, as a number would be', () => {
    const q = 'À quelle date les travaux du bâtiment B commenceront-ils ?';
    expect(answers(p('Les travaux débuteront le 1er mars 2027.', 'pv-ag.md', 'Résolution 6 — Travaux du bâtiment A'), gateOf(q))).toBe(false);
    expect(answers(p('Les travaux débuteront le 1er mars 2027.', 'pv-ag.md', 'Résolution 7 — Travaux du bâtiment B'), gateOf(q))).toBe(true);
    expect(askedOf('Is A the cheapest plan?').terms).toEqual([]);
  });
});

describe("light's refusal, q-nearmiss round: the question's distinctive words (issue 26)", () => {
  const p = (text: string, sourceName = 'notes.md', section = '') => passage(text, sourceName, section);

  it('near miss, a verb asked about: "how much gas did the boilers consume" is not answered by the gas inlet pressure', () => {
    const q = 'How much gas did the Harlow boilers consume?';
    expect(askedOf(q).distinctive).toEqual(['consume']);
    expect(answers(p('Harlow boilers: the gas inlet pressure is 20 mbar.', 'boilers.md'), gateOf(q))).toBe(false);
    // The verb said by its derived noun.
    expect(answers(p('Harlow boilers: the gas consumption was 41,200 kWh.', 'boilers.md'), gateOf(q))).toBe(true);
  });

  it('near miss, a French verb asked about: "quelle entreprise a remporté le marché" is not answered by the tender notice', () => {
    const q = 'Quelle entreprise a remporté le marché de déneigement de la commune ?';
    expect(askedOf(q).distinctive).toEqual(['remporte']);
    expect(answers(p('Marché de déneigement : trois entreprises ont déposé une offre, dont Alpes Services SARL.', 'marche.md'), gateOf(q))).toBe(false);
    expect(answers(p('Marché de déneigement : Alpes Services SARL a remporté le marché.', 'marche.md'), gateOf(q))).toBe(true);
    // The verb said by a word of its family (`signé` / *signataire*).
    expect(answers(p("Pour l'Éditeur : Karim Benali, signataire du contrat.", 'contrat.md'), gateOf('Qui a signé le contrat ?'))).toBe(true);
    // A passive (`a été versé`) or a relative clause (`Un client qui a commandé…`) asks no verb.
    expect(askedOf('Quel montant a été versé au salarié ?').distinctive).toEqual([]);
    expect(askedOf('Un client qui a commandé un meuble peut-il se rétracter ?').distinctive).toEqual([]);
  });

  it('reworded, not a near miss: a passive, a copula or a verb of another clause is not the verb asked about', () => {
    expect(askedOf('How long are backups retained under the Brightline agreement?').distinctive).toEqual([]);
    expect(askedOf('Within how many days must reservations noted on delivery be confirmed by registered letter?').distinctive).toEqual([]);
    expect(askedOf('What monthly broadband allowance do UK staff who work from home receive?').distinctive).toEqual([]);
    // A word the answer type stands for (`charge` asks money) is said by the value.
    expect(askedOf('How much does Willowbrook charge for neutering a female dog?').distinctive).toEqual([]);
  });
});

describe("light's refusal, q-refuse round: opposed and sister words, a time of day (issue 26)", () => {
  const p = (text: string, sourceName = 'notes.md', section = '') => passage(text, sourceName, section);

  it('near miss, an antonym of the narrowing adjective: the male row does not answer the price for a female dog', () => {
    const q = 'How much does Willowbrook charge for neutering a female dog?';
    expect(contrastsOf('female')).toContain('male');
    expect(answers(p('Service | Price\nDog neutering (male, under 20 kg) | £285.00', 'willowbrook-prices.md'), gateOf(q))).toBe(false);
    expect(answers(p('Service | Price\nDog neutering (female) | £320.00', 'willowbrook-prices.md'), gateOf(q))).toBe(true);
    // A row naming both is not about the other one only.
    expect(answers(p('Service | Price\nDog neutering (male or female) | £300.00', 'willowbrook-prices.md'), gateOf(q))).toBe(true);
  });

  it('near miss, the opposite bound: a minimum does not answer a question about the maximum', () => {
    const q = 'What is the maximum deposit for the hall?';
    expect(answers(p('A minimum deposit of £200 is payable on booking the hall.', 'hall.md'), gateOf(q))).toBe(false);
    expect(answers(p('The maximum deposit for the hall is £500.', 'hall.md'), gateOf(q))).toBe(true);
  });

  it('near miss, a sister noun before the same noun: the day rate does not answer the evening rate', () => {
    const q = 'What is the evening rate for the main hall?';
    expect(answers(p('The main hall is let at a day rate of £40 per hour.', 'hall.md'), gateOf(q))).toBe(false);
    expect(answers(p('The main hall is let at an evening rate of £55 per hour.', 'hall.md'), gateOf(q))).toBe(true);
  });

  it('reworded, not a near miss: a synonym of the narrowing word is no opposite, nor a word of another class', () => {
    // `yearly` is said by `annual` (a WordNet synonym).
    expect(answers(p('The annual fee for the service is £120.', 'fees.md'), gateOf('What is the yearly fee for the service?'))).toBe(true);
    // `storage` and `rental` are not sisters of a kind: the sentence about storage fees answers.
    expect(answers(p('Storage fees: the monthly storage charge is £45.', 'fees.md'), gateOf('What is the monthly storage fee?'))).toBe(true);
  });

  it('answer type, a time of day: a date does not answer "at what time does the ceremony begin"', () => {
    const q = 'At what time does the wedding ceremony begin?';
    expect(askedOf(q).value).toBe('clock');
    expect(answers(p('The wedding ceremony will be held on 12 June 2026 in the chapel.', 'wedding.md'), gateOf(q))).toBe(false);
    expect(answers(p('The wedding ceremony begins at 2.30 pm in the chapel.', 'wedding.md'), gateOf(q))).toBe(true);
    expect(answers(p('La cérémonie commence à 14h30.', 'mariage.md'), gateOf('À quelle heure commence la cérémonie ?'))).toBe(true);
  });
});

describe("light's answers, lanswer round (issue 26)", () => {
  it('a name written with a function word inside (Fournil de Margaux, Soleil d\'Armor) is found as the run the document writes', () => {
    const q = "Quel est le montant du droit d'entrée du contrat de franchise Le Fournil de Margaux ?";
    const doc = passage("Droit d'entrée : 28 000 € HT, payable à la signature du contrat.", 'contrat-franchise.md', 'Contrat de franchise — Réseau « Le Fournil de Margaux » > Article 3');
    expect(answers(doc, gateOf(q))).toBe(true);
    // Another run of the same words is still another name.
    const other = passage("Droit d'entrée : 28 000 € HT, payable à la signature du contrat.", 'contrat-franchise.md', 'Contrat de franchise — Fournil Pierre, Margaux et fils > Article 3');
    expect(answers(other, gateOf(q))).toBe(false);
    const elided = "What is the annual fee of the Soleil d'Armor maintenance contract?";
    expect(answers(passage('The annual fee is €240.', 'contract.md', "Maintenance contract — Soleil d'Armor Énergies > Fees"), gateOf(elided))).toBe(true);
  });

  it('a figure joined to its unit as a modifier (a 15-minute consultation) is said by the figure and its unit in the plural', () => {
    const q = 'How much does a standard 15-minute consultation cost at the clinic?';
    const rows = (minutes: number) => passage(`Code | Service | Price\nCON-01 | Standard consultation (${minutes} minutes) | £48.00`, 'clinic-prices.md', 'Price list');
    expect(answers(rows(15), gateOf(q))).toBe(true);
    expect(answers(rows(30), gateOf(q))).toBe(false);
  });

  it('a code the passage states alone of its shape is what each of its sentences is about (project code, year of the accounts)', () => {
    const letter = 'Award of a research grant (project code PEAT-MP-26).\n\nPrincipal investigator: Dr. Helena Moore Co-investigator: Prof. Olumide Adeyemi (School of Chemistry) Cost centre: RC-44815';
    expect(answers(passage(letter, 'award-letter.md', 'Research Grant Award Letter'), gateOf('Who is the co-investigator on project PEAT-MP-26?'))).toBe(true);
    // Two project codes in the passage: each sentence keeps its own.
    const two = 'Award of two research grants (project codes PEAT-MP-26 and PEAT-MP-27).\n\nBoth start in September.\n\nCo-investigator: Prof. Olumide Adeyemi';
    expect(answers(passage(two, 'award-letter.md', 'Research Grant Award Letter'), gateOf('Who is the co-investigator on project PEAT-MP-26?'))).toBe(false);
    // A year is no passage's subject: one said in passing is no period of the passage's other sentences.
    const accounts = passage("Le prix d'acompte est de 92 € l'hectolitre.\n\nLe degré moyen des apports s'établit à 13,4 % vol., contre 12,9 % vol. en 2024.", 'ca.md', 'Bilan');
    expect(answers(accounts, gateOf("Quel était le prix d'acompte par hectolitre en 2024 ?"))).toBe(false);
    // A figure of the question is no code of the passage: the ErgoMesh 240 is not the item code NG-CHR-240 of another sentence.
    const warranty = 'The ErgoMesh 220 chairs carry a 5-year warranty on the frame.\n\nBack-order: two ErgoMesh 240 chairs (item code NG-CHR-240) will be delivered later.';
    expect(answers(passage(warranty, 'invoice.md', 'Notes'), gateOf('How long is the warranty on the ErgoMesh 240 chairs?'))).toBe(false);
  });

  it('a hyphenated head (co-investigator) is said by its parts as the text splits them', () => {
    const q = 'Who is the co-investigator of the grant?';
    expect(answers(passage('Co-investigator: Prof. Olumide Adeyemi (School of Chemistry)', 'award-letter.md'), gateOf(q))).toBe(true);
    expect(answers(passage('Investigator: Prof. Olumide Adeyemi (School of Chemistry)', 'award-letter.md'), gateOf(q))).toBe(false);
  });

  it("a document's head written as a two-column table (Invoice number | INV-…) states its number for each of its passages", () => {
    const head = headFields('Item | Details\n| --- | --- |\nInvoice number | INV-2026-083315\nInvoice date | 5 March 2026');
    expect(head).toBe('Invoice number: INV-2026-083315\nInvoice date: 5 March 2026');
    // A wider table is a table of rows, no fields of the document.
    expect(headFields('Model | Size | Price\nAQ-1 | 20 m2 | £100')).toBe('');
    const summary = { ...passage('Item | Amount\nBalance brought forward | £0.00\nThis invoice | £3,296.70', 'energy-invoice.md', 'Account summary'), document: head };
    expect(answers(summary, gateOf('What is the total amount due on invoice INV-2026-083315?'))).toBe(true);
    expect(answers(summary, gateOf('What is the total amount due on invoice INV-2026-083316?'))).toBe(false);
  });
});


describe("light's refusal, lrefuse2 round: what the value is for (issue 26)", () => {
  const p = (text: string, sourceName = 'notes.md', section = '') => passage(text, sourceName, section);

  it('near miss, a fee for another thing: "what fee … for a new patient examination" is not answered by records access being free', () => {
    const q = 'What fee does Brightmoor Dental charge for a new patient examination?';
    expect(askedOf(q).purpose).toEqual(['patient', 'examination']);
    expect(answers(p('Requests to access your records at Brightmoor Dental are free of charge.', 'brightmoor-privacy.md'), gateOf(q))).toBe(false);
    expect(answers(p('A new patient examination at Brightmoor Dental costs £65.', 'brightmoor-fees.md'), gateOf(q))).toBe(true);
  });

  it('near miss, a fare for another passenger: the child row does not answer the fare for a dog; a row saying the thing does', () => {
    const q = 'What fare is charged for a dog on the ferry?';
    expect(answers(p('Passenger | Fare\nChild (4–15 years) | £9.25', 'ferry-fares.md'), gateOf(q))).toBe(false);
    expect(answers(p('Passenger | Fare\nDog | £6.00', 'ferry-fares.md'), gateOf(q))).toBe(true);
  });

  it('what the value is for is read past a gerund, and said by a synonym or in the table header', () => {
    expect(askedOf('What is the notice period for ending a business tenancy?').purpose).toEqual(['business', 'tenancy']);
    // One noun of the phrase is enough: `charity work` is said by volunteering with a charity.
    expect(answers(p('Volunteering leave: 2 days paid per leave year for volunteering with a registered charity.', 'leave.md'), gateOf('How many days of paid time off does an employee get for charity work?'))).toBe(true);
    // `tenant` is a form WordNet derives from `tenancy`.
    expect(answers(p('The notice period for the tenant is three months.', 'lease.md'), gateOf('What is the notice period for ending the tenancy?'))).toBe(true);
    expect(answers(p('Membership | Notice\nMonthly plan | one calendar month', 'gym.md'), gateOf('What is the notice period for ending the tenancy?'))).toBe(false);
    // A code or a name after `for` is checked on its own, never as what the value is for.
    expect(askedOf('What is the price for the AQ-350?').purpose).toBeUndefined();
    expect(askedOf('How many technicians will be hired for the KX-10 rollout?').purpose).toBeUndefined();
    expect(askedOf('How much is a no-show charged per person for a table of 6 or more?').purpose).toBeUndefined();
    // The end of a closed compound says the noun: a microchip is a chip.
    expect(answers(p('Code | Service | Price\nMIC-01 | Microchip implantation | £24.00', 'vet-prices.md'), gateOf('What is the charge for inserting an identification chip in a pet?'))).toBe(true);
  });
});

describe("light, lanswer3 round: nominalised heads and synonyms of money (issue 26)", () => {
  const p = (text: string, sourceName = 'notes.md', section = '') => passage(text, sourceName, section);

  it('a head the tagger reads as an adjective after a determiner, before a preposition, is the head ("What is the deductible for …")', () => {
    expect(askedOf('What is the deductible for flood damage?').head).toBe('deductible');
    expect(askedOf('What is the deductible for flood damage?').type).toBe('amount');
    expect(askedOf('What is the minimum for a group booking?').head).toBe('minimum');
    // An adjective with no noun reading stays no head; an adjective before its noun is no head either.
    expect(askedOf('Which is the cheapest for families?').head).toBeNull();
    expect(askedOf('What is the minimum charge per consignment?').head).not.toBe('minimum');
  });

  it('synonym, an insurance excess asked as a deductible: the excess row answers, another cover row does not', () => {
    const q = 'What is the deductible for flood damage?';
    expect(answers(p('Flood: £2,500 for sections A and B.', 'policy-schedule.md', 'Special excesses'), gateOf(q))).toBe(true);
    expect(answers(p('The excess for flood damage is £2,500.', 'policy-schedule.md'), gateOf(q))).toBe(true);
    expect(answers(p('Flood cover: sum insured £250,000 for sections A and B.', 'policy-schedule.md'), gateOf(q))).toBe(false);
  });

  it('synonym, a bond asked for a deposit stated, and honoraires asked as rémunération', () => {
    expect(paraphrasesOf('bond')).toContain('deposit');
    expect(paraphrasesOf('remuneration')).toContain('honoraires');
    // A deposit is still no balance (near misses depend on what the lexicon does not join).
    expect(paraphrasesOf('deposit')).not.toContain('balance');
    const q = 'How much refundable bond must the member pay before moving in?';
    expect(answers(p('A security deposit equal to one month\'s fee (£1,560.00) is payable before the start date.', 'membership.md'), gateOf(q))).toBe(true);
  });
});
