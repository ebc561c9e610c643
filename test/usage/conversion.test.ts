import { describe, expect, it } from 'vitest';
import { CLASS_MULTIPLIER } from '../../src/modules/models/registry.js';
import { MODEL_CLASSES } from '../../src/modules/models/provider.js';
import { questionsFor } from '../../src/modules/usage/metering.service.js';
import { allowanceWindow, allowanceWindowOfMonth, calendarMinute, calendarMonth, monthOf } from '../../src/modules/usage/periods.js';
import { planTerms, requiredPlanFor, subscriptionState } from '../../src/modules/usage/plans.js';

const usage = (totalTokens: number) => ({ promptTokens: totalTokens, completionTokens: 0, totalTokens });

describe('questionsFor: ceil(totalTokens × class multiplier / 8000), at least 1', () => {
  it('uses the SPEC multipliers', () => {
    expect(CLASS_MULTIPLIER).toEqual({ light: 1, standard: 3, advanced: 6, premium: 12, frontier: 30 });
  });

  const table: [number, Record<string, number>][] = [
    [0, { light: 1, standard: 1, advanced: 1, premium: 1, frontier: 1 }],
    [1, { light: 1, standard: 1, advanced: 1, premium: 1, frontier: 1 }],
    [7999, { light: 1, standard: 3, advanced: 6, premium: 12, frontier: 30 }],
    [8000, { light: 1, standard: 3, advanced: 6, premium: 12, frontier: 30 }],
    [8001, { light: 2, standard: 4, advanced: 7, premium: 13, frontier: 31 }],
    [16000, { light: 2, standard: 6, advanced: 12, premium: 24, frontier: 60 }],
    [2666, { light: 1, standard: 1, advanced: 2, premium: 4, frontier: 10 }],
    [2667, { light: 1, standard: 2, advanced: 3, premium: 5, frontier: 11 }],
  ];
  for (const [tokens, expected] of table) {
    it(`${tokens} tokens`, () => {
      for (const c of MODEL_CLASSES) expect([c, questionsFor(usage(tokens), c)]).toEqual([c, expected[c]]);
    });
  }

  it('reads totalTokens (the whole turn), not the split', () => {
    expect(questionsFor({ promptTokens: 8000, completionTokens: 8000, totalTokens: 16000 }, 'light')).toBe(2);
    expect(questionsFor({ promptTokens: 1, completionTokens: 1, totalTokens: 8001 }, 'light')).toBe(2);
  });

  it('exact boundaries of the weighted tokens: 8000/3 standard tokens is one question, one more is two', () => {
    expect(questionsFor(usage(2666), 'standard')).toBe(1); // 7998 weighted
    expect(questionsFor(usage(2667), 'standard')).toBe(2); // 8001 weighted
    expect(questionsFor(usage(800), 'premium')).toBe(2); // 9600 weighted
    expect(questionsFor(usage(266), 'frontier')).toBe(1); // 7980 weighted
    expect(questionsFor(usage(267), 'frontier')).toBe(2); // 8010 weighted
  });
});

describe('calendar minute', () => {
  it('retry-after is the whole seconds left, 1 to 60', () => {
    expect(calendarMinute(new Date('2026-11-02T10:00:00.000Z')).secondsLeft).toBe(60);
    expect(calendarMinute(new Date('2026-11-02T10:00:00.001Z')).secondsLeft).toBe(60);
    expect(calendarMinute(new Date('2026-11-02T10:00:01.000Z')).secondsLeft).toBe(59);
    expect(calendarMinute(new Date('2026-11-02T10:00:59.000Z')).secondsLeft).toBe(1);
    expect(calendarMinute(new Date('2026-11-02T10:00:59.999Z')).secondsLeft).toBe(1);
    const a = calendarMinute(new Date('2026-11-02T10:00:59.999Z')).minute;
    expect(calendarMinute(new Date('2026-11-02T10:01:00.000Z')).minute).toBe(a + 1);
  });
});

describe('months and allowance windows', () => {
  it('calendar month (UTC)', () => {
    expect(calendarMonth(new Date('2026-12-31T23:59:59.999Z'))).toEqual({
      start: new Date('2026-12-01T00:00:00Z'),
      end: new Date('2027-01-01T00:00:00Z'),
    });
    expect(monthOf(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(monthOf(new Date('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
  });

  it('monthly window anchored on the subscription start day, clamped to short months', () => {
    const ws = { plan: 'pro' as const, subscriptionStartedAt: new Date('2026-01-31T15:00:00Z') };
    expect(allowanceWindow(ws, new Date('2026-02-27T23:59:59Z'))).toEqual({
      start: new Date('2026-01-31T00:00:00Z'),
      end: new Date('2026-02-28T00:00:00Z'),
    });
    expect(allowanceWindow(ws, new Date('2026-02-28T00:00:00Z'))).toEqual({
      start: new Date('2026-02-28T00:00:00Z'),
      end: new Date('2026-03-31T00:00:00Z'),
    });
    expect(allowanceWindow(ws, new Date('2026-04-30T12:00:00Z')).start).toEqual(new Date('2026-04-30T00:00:00Z'));
    expect(allowanceWindow(ws, new Date('2026-12-31T00:00:00Z'))).toEqual({
      start: new Date('2026-12-31T00:00:00Z'),
      end: new Date('2027-01-31T00:00:00Z'),
    });
    expect(allowanceWindow(ws, new Date('2027-01-15T00:00:00Z'))).toEqual({
      start: new Date('2026-12-31T00:00:00Z'),
      end: new Date('2027-01-31T00:00:00Z'),
    });
    expect(allowanceWindowOfMonth(ws, '2026-02')).toEqual({ start: new Date('2026-02-28T00:00:00Z'), end: new Date('2026-03-31T00:00:00Z') });
  });

  it('the trial is one 14-day window', () => {
    const ws = { plan: 'trial' as const, subscriptionStartedAt: new Date('2026-11-02T10:00:00Z'), subscriptionActive: true };
    const w = allowanceWindow(ws, new Date('2026-11-10T00:00:00Z'));
    expect(w).toEqual({ start: new Date('2026-11-02T10:00:00Z'), end: new Date('2026-11-16T10:00:00Z') });
    expect(subscriptionState(ws, new Date('2026-11-16T09:59:59.999Z')).active).toBe(true);
    expect(subscriptionState(ws, new Date('2026-11-16T10:00:00.000Z')).active).toBe(false);
  });
});

describe('plans', () => {
  it('questions and documents per seat, trial totals, features and the plan that unlocks them', () => {
    expect(planTerms({ plan: 'essentiel', seats: 2 })).toMatchObject({ questions: 300, documents: 600, features: ['light'] });
    expect(planTerms({ plan: 'pro', seats: 3 })).toMatchObject({ questions: 1200, documents: 6000 });
    expect(planTerms({ plan: 'cabinet', seats: 1 })).toMatchObject({ questions: 1000, documents: 10000 });
    expect(planTerms({ plan: 'trial', seats: 4 })).toMatchObject({ questions: 30, documents: 50, features: ['light', 'chat', 'connectors'] });
    expect(planTerms({ plan: 'cabinet', seats: 1 }).features).toContain('proofJournal');
    expect(requiredPlanFor('chat')).toBe('pro');
    expect(requiredPlanFor('proofJournal')).toBe('cabinet');
    expect(requiredPlanFor('light')).toBe('essentiel');
  });
});
