import { describe, expect, it } from 'vitest';
import { resale, wholesaleCents } from '../../src/modules/partner/grid.js';

// Every expected amount below is computed by hand in the comment beside it (docs/partner.md, the rule).
describe('statement arithmetic', () => {
  it('prices wholesale by tier, rounding up to the cent once', () => {
    expect(wholesaleCents(0)).toBe(0);
    expect(wholesaleCents(1)).toBe(2); // 1 × 200 / 100 = 2
    expect(wholesaleCents(999)).toBe(1998); // 999 × 2 = 1998
    expect(wholesaleCents(1000)).toBe(2000); // 1000 × 2
    expect(wholesaleCents(1001)).toBe(2002); // 2000 + ceil(1 × 150 / 100) = 2000 + 1.5 → 2001.5 → 2002
    expect(wholesaleCents(2345)).toBe(4018); // (1000 × 200 + 1345 × 150) / 100 = 4017.5 → 4018
    expect(wholesaleCents(10_000)).toBe(15_500); // 2000 + 9000 × 1.5 = 15 500
    expect(wholesaleCents(12_001)).toBe(17_501); // 15 500 + 2001 × 1 = 17 501
  });

  it('resells seats plus the questions beyond the included ones, a cleared rate counting 0', () => {
    // 3 seats × 1500 = 4500; included 3 × 500 = 1500; billable 845; 845 × 250 / 100 = 2112.5 → 2113; total 6613.
    expect(resale(2345, { seats: 3, seatRateCents: 1500, includedQuestionsPerSeat: 500, ratePer100Cents: 250 })).toEqual({
      seatCents: 4500,
      includedQuestions: 1500,
      billableQuestions: 845,
      questionCents: 2113,
      totalCents: 6613,
    });
    // Usage under the included questions: only the seats.
    expect(resale(1200, { seats: 3, seatRateCents: 1500, includedQuestionsPerSeat: 500, ratePer100Cents: 250 }).totalCents).toBe(4500);
    // Nothing set: nothing resold.
    expect(resale(12_001, { seats: 1, seatRateCents: null, includedQuestionsPerSeat: null, ratePer100Cents: null }).totalCents).toBe(0);
    // 1 question at 1 cent per 100: 0.01 → 1 cent.
    expect(resale(1, { seats: 1, seatRateCents: null, includedQuestionsPerSeat: null, ratePer100Cents: 1 }).questionCents).toBe(1);
    // No included questions: all 1000 billable at 1 cent per 100 = 10.
    expect(resale(1000, { seats: 1, seatRateCents: 0, includedQuestionsPerSeat: 0, ratePer100Cents: 1 }).totalCents).toBe(10);
  });
});
