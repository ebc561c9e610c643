import { z } from 'zod';
import { pgInt } from '../../lib/pg-int.js';
import { PLANS } from '../workspaces/index.js';
import { MONTH_FORMAT, MONTH_PATTERN } from './periods.js';
import { PACK_SIZES } from './plans.js';

export const MonthSchema = z
  .string({ error: 'month must be a string in the form YYYY-MM' })
  .regex(MONTH_PATTERN, MONTH_FORMAT);

export const UsageQuerySchema = z.object({ month: MonthSchema.nullish() });
export type UsageQuery = z.input<typeof UsageQuerySchema>;

export const SetPlanSchema = z.object({
  plan: z.enum(PLANS, { error: `plan must be one of ${PLANS.join(', ')}` }),
  seats: pgInt('seats').optional(),
  startedAt: z.iso.datetime({ offset: true, error: 'startedAt must be an ISO 8601 date-time' }).optional(),
});
export type SetPlanInput = z.input<typeof SetPlanSchema>;

export const AddPackSchema = z.object({
  questions: z.union(
    PACK_SIZES.map((n) => z.literal(n)),
    { error: `questions must be one of ${PACK_SIZES.join(', ')}` },
  ),
});
export type AddPackInput = z.input<typeof AddPackSchema>;
