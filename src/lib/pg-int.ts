import { z } from 'zod';

/** Bounds of a PostgreSQL `integer` column: a larger whole number is a 400 at the schema, never `integer out of range`. */
export const PG_INT_MAX = 2_147_483_647;
export const PG_INT_MIN = -2_147_483_648;

/**
 * A whole number from a request that is stored in (or compared with) an `integer` column. `min`
 * defaults to 1 (a positive count); `max` defaults to, and is clamped to, PostgreSQL's largest
 * integer. Every message names the field, so the renderers answer 400 naming it.
 */
export function pgInt(field: string, range: { min?: number; max?: number } = {}) {
  const min = Math.max(range.min ?? 1, PG_INT_MIN);
  const max = Math.min(range.max ?? PG_INT_MAX, PG_INT_MAX);
  const whole = min === 1 ? `${field} must be a positive whole number` : `${field} must be a whole number`;
  return z
    .number({ error: whole })
    .int(whole)
    .min(min, min === 1 ? whole : `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);
}
