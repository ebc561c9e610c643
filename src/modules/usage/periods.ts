import type { PlanName } from '../workspaces/index.js';
import { DAY_MS, TRIAL } from './plans.js';

/** A half-open time range [start, end). */
export interface Period {
  start: Date;
  end: Date;
}

/** `YYYY-MM` of an instant, in UTC. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/**
 * `YYYY-MM`, years 1900 to 2999: `Date.UTC` reads years 0 to 99 as 1900 to 1999 (0000-01 would name
 * 1900-01) and a month of year 9999 ends in year 10000, which an ISO string and PostgreSQL refuse (a 500).
 */
export const MONTH_PATTERN = /^((?:19|2\d)\d{2})-(0[1-9]|1[0-2])$/;
/** The refusal of a month out of MONTH_PATTERN (400 naming `month`). */
export const MONTH_FORMAT = 'month must be in the form YYYY-MM (years 1900 to 2999)';

/** Year and zero-based month of `YYYY-MM`; the caller validates the format first. */
function parseMonth(month: string): { year: number; index: number } {
  const m = MONTH_PATTERN.exec(month);
  if (!m) throw new Error(`not a YYYY-MM month: ${month}`);
  return { year: Number(m[1]), index: Number(m[2]) - 1 };
}

/** The calendar month (UTC) holding an instant: the window of per-key ceilings and of controls. */
export function calendarMonth(at: Date): Period {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  return { start, end: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)) };
}

const daysIn = (year: number, index: number): number => new Date(Date.UTC(year, index + 1, 0)).getUTCDate();

/** Midnight UTC of the anchor day in a month, clamped to the month's last day (anchor 31 in April is the 30th). */
function anchorIn(year: number, index: number, anchorDay: number): Date {
  const y = year + Math.floor(index / 12);
  const i = ((index % 12) + 12) % 12;
  return new Date(Date.UTC(y, i, Math.min(anchorDay, daysIn(y, i))));
}

interface Subscription {
  plan: PlanName;
  subscriptionStartedAt: Date;
}

/** The trial runs for 14 days from its start: that is its single allowance window. */
const trialPeriod = (ws: Subscription): Period => ({
  start: ws.subscriptionStartedAt,
  end: new Date(ws.subscriptionStartedAt.getTime() + TRIAL.days * DAY_MS),
});

/**
 * The allowance window holding an instant. Paid plans: monthly, anchored on the UTC day of the
 * subscription start (from midnight UTC of that day to the same day next month, clamped to short
 * months). Trial: the 14 trial days.
 */
export function allowanceWindow(ws: Subscription, at: Date): Period {
  if (ws.plan === 'trial') return trialPeriod(ws);
  const anchorDay = ws.subscriptionStartedAt.getUTCDate();
  const y = at.getUTCFullYear();
  const i = at.getUTCMonth();
  const thisMonth = anchorIn(y, i, anchorDay);
  return at.getTime() >= thisMonth.getTime()
    ? { start: thisMonth, end: anchorIn(y, i + 1, anchorDay) }
    : { start: anchorIn(y, i - 1, anchorDay), end: thisMonth };
}

/** The allowance window that starts in a given month (`YYYY-MM`); the trial period for a trial. */
export function allowanceWindowOfMonth(ws: Subscription, month: string): Period {
  if (ws.plan === 'trial') return trialPeriod(ws);
  const { year, index } = parseMonth(month);
  const anchorDay = ws.subscriptionStartedAt.getUTCDate();
  return { start: anchorIn(year, index, anchorDay), end: anchorIn(year, index + 1, anchorDay) };
}

/** Calendar minute number (minutes since the epoch) and whole seconds left in it (1 to 60). */
export function calendarMinute(at: Date): { minute: number; secondsLeft: number } {
  const ms = at.getTime();
  const minute = Math.floor(ms / 60_000);
  const left = (minute + 1) * 60_000 - ms;
  return { minute, secondsLeft: Math.min(60, Math.max(1, Math.ceil(left / 1000))) };
}
