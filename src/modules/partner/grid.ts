/**
 * The statement arithmetic (docs/partner.md, "Statement computation rule"): integer cents only, each
 * amount rounded up to the whole cent once, at its end. Pure functions, checked by hand-computed cases.
 */

/** The wholesale grid: price of 100 questions, by tier of a client's questions in a calendar month. */
export const WHOLESALE_GRID: readonly { upToQuestions: number | null; centsPer100: number }[] = [
  { upToQuestions: 1_000, centsPer100: 200 },
  { upToQuestions: 10_000, centsPer100: 150 },
  { upToQuestions: null, centsPer100: 100 },
];

/** `a × b / 100` rounded up, for whole numbers (no floating point on the way). */
const ceilDiv100 = (hundredths: number): number => Math.ceil(hundredths / 100);

/**
 * What the integrator owes for one client's month: each question priced at its tier's rate (the first
 * 1 000 at 2.00 EUR per 100, up to 10 000 at 1.50, beyond at 1.00), summed, rounded up to the cent.
 * Controls are never priced.
 */
export function wholesaleCents(questions: number): number {
  let hundredths = 0;
  let from = 0;
  for (const tier of WHOLESALE_GRID) {
    const to = tier.upToQuestions ?? Number.POSITIVE_INFINITY;
    const inTier = Math.max(0, Math.min(questions, to) - from);
    hundredths += inTier * tier.centsPer100;
    if (questions <= to) break;
    from = to;
  }
  return ceilDiv100(hundredths);
}

export interface ResaleRates {
  ratePer100Cents: number | null;
  seatRateCents: number | null;
  includedQuestionsPerSeat: number | null;
  seats: number;
}

export interface Resale {
  seatCents: number;
  includedQuestions: number;
  billableQuestions: number;
  questionCents: number;
  totalCents: number;
}

/**
 * What the client owes the integrator, from the client's rates (a cleared rate counts as 0): seats ×
 * seatRateCents, plus the questions beyond seats × includedQuestionsPerSeat at ratePer100Cents per 100,
 * rounded up to the cent.
 */
export function resale(questions: number, rates: ResaleRates): Resale {
  const seatCents = rates.seats * (rates.seatRateCents ?? 0);
  const includedQuestions = rates.seats * (rates.includedQuestionsPerSeat ?? 0);
  const billableQuestions = Math.max(0, questions - includedQuestions);
  const questionCents = ceilDiv100(billableQuestions * (rates.ratePer100Cents ?? 0));
  return { seatCents, includedQuestions, billableQuestions, questionCents, totalCents: seatCents + questionCents };
}
