import type { PlanName } from '../workspaces/index.js';

/** Plan features of SPEC's Limits > Plans table. */
export const PLAN_FEATURES = ['light', 'chat', 'connectors', 'proofJournal', 'businessModules'] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export type PaidPlan = Exclude<PlanName, 'trial'>;

export interface PlanDefinition {
  /** Questions per user (seat) per monthly window. */
  questionsPerSeat: number;
  /** Documents per user (seat). */
  documentsPerSeat: number;
  features: readonly PlanFeature[];
}

const PRO_FEATURES: readonly PlanFeature[] = ['light', 'chat', 'connectors'];

export const PAID_PLANS: Readonly<Record<PaidPlan, PlanDefinition>> = {
  essentiel: { questionsPerSeat: 150, documentsPerSeat: 300, features: ['light'] },
  pro: { questionsPerSeat: 400, documentsPerSeat: 2000, features: PRO_FEATURES },
  cabinet: { questionsPerSeat: 1000, documentsPerSeat: 10000, features: [...PRO_FEATURES, 'proofJournal', 'businessModules'] },
};

/** The trial: 14 days, 30 questions and 50 documents for the whole workspace, features of Pro. */
export const TRIAL = { days: 14, questions: 30, documents: 50, features: PRO_FEATURES } as const;

/** Question packs (one-time, paid plans only; they do not expire while the subscription is active). */
export const PACK_SIZES = [100, 500, 2000] as const;
export type PackSize = (typeof PACK_SIZES)[number];

/** The cheapest paid plan that includes a feature: what PLAN_UPGRADE_REQUIRED names as `requiredPlan`. */
export function requiredPlanFor(feature: PlanFeature): PaidPlan {
  const order: PaidPlan[] = ['essentiel', 'pro', 'cabinet'];
  return order.find((p) => PAID_PLANS[p].features.includes(feature)) ?? 'cabinet';
}

export const isPaidPlan = (plan: PlanName): plan is PaidPlan => plan !== 'trial';

/** What the plan of a workspace gives. */
export interface PlanTerms {
  plan: PlanName;
  seats: number;
  /** Questions of one monthly window (the whole trial for the trial). */
  questions: number;
  documents: number;
  features: readonly PlanFeature[];
}

export function planTerms(ws: { plan: PlanName; seats: number }): PlanTerms {
  if (!isPaidPlan(ws.plan)) {
    return { plan: ws.plan, seats: ws.seats, questions: TRIAL.questions, documents: TRIAL.documents, features: TRIAL.features };
  }
  const def = PAID_PLANS[ws.plan];
  return {
    plan: ws.plan,
    seats: ws.seats,
    questions: def.questionsPerSeat * ws.seats,
    documents: def.documentsPerSeat * ws.seats,
    features: def.features,
  };
}

/** Document volume allowed for a workspace (for DOCUMENT_LIMIT checks by the knowledge module). */
export const documentLimitFor = (ws: { plan: PlanName; seats: number }): number => planTerms(ws).documents;

export const DAY_MS = 86_400_000;

export interface SubscriptionState {
  active: boolean;
  /** End of the trial (trial plan only). */
  trialEndsAt: Date | null;
}

/** A trial is active for 14 days from its start; a paid plan while `subscriptionActive`. */
export function subscriptionState(
  ws: { plan: PlanName; subscriptionActive: boolean; subscriptionStartedAt: Date },
  now: Date,
): SubscriptionState {
  if (ws.plan === 'trial') {
    const trialEndsAt = new Date(ws.subscriptionStartedAt.getTime() + TRIAL.days * DAY_MS);
    return { active: ws.subscriptionActive && now.getTime() < trialEndsAt.getTime(), trialEndsAt };
  }
  return { active: ws.subscriptionActive, trialEndsAt: null };
}
