import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import type { AdminContext } from '../../core/context.js';
import { User, type Workspace } from '../workspaces/index.js';
import { assertSeatRoom } from '../workspaces/index.js';
import { findWorkspaceOrFail } from '../workspaces/index.js';
import { isPaidPlan, subscriptionState } from './plans.js';
import { QuestionPack } from './usage.entity.js';
import { AddPackSchema, SetPlanSchema } from './usage.schemas.js';

/**
 * Operator use cases (CLI): plans and packs are sold outside the API. Setting a plan activates the
 * subscription; the start (anchor of the monthly window, start of a trial) is `startedAt`, else now
 * when the plan changes, else kept. Seats are kept unless given, and never fewer than the workspace's
 * users (402 SEAT_LIMIT).
 */
export async function setPlan(actx: AdminContext, workspaceId: string, input: unknown): Promise<Workspace> {
  const data = SetPlanSchema.parse(input);
  const ws = await findWorkspaceOrFail(actx, workspaceId);
  if (data.seats !== undefined) assertSeatRoom({ seats: data.seats }, await actx.em.count(User, { workspaceId: ws.id }));
  const changed = ws.plan !== data.plan;
  ws.plan = data.plan;
  if (data.seats !== undefined) ws.seats = data.seats;
  if (data.startedAt) ws.subscriptionStartedAt = new Date(data.startedAt);
  else if (changed) ws.subscriptionStartedAt = actx.clock.now();
  ws.subscriptionActive = true;
  await actx.em.flush();
  return ws;
}

/** A question pack (100, 500 or 2 000) on an active paid plan. */
export async function addPack(actx: AdminContext, workspaceId: string, input: unknown): Promise<QuestionPack> {
  const data = AddPackSchema.parse(input);
  const ws = await findWorkspaceOrFail(actx, workspaceId);
  if (!isPaidPlan(ws.plan)) throw errors.paidPlanRequired('Question packs need a paid plan (essentiel, pro or cabinet)');
  if (!subscriptionState(ws, actx.clock.now()).active) throw errors.subscriptionInactive();
  const pack = actx.em.create(QuestionPack, { id: newId('pack'), workspaceId: ws.id, questions: data.questions, createdAt: actx.clock.now() });
  await actx.em.flush();
  return pack;
}
