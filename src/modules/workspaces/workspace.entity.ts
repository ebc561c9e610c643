import { defineEntity, p } from '@mikro-orm/core';
import type { UserRole } from '../../core/access.js';

export const PLANS = ['trial', 'essentiel', 'pro', 'cabinet'] as const;
export type PlanName = (typeof PLANS)[number];

const WorkspaceSchema = defineEntity({
  name: 'Workspace',
  tableName: 'workspace',
  properties: {
    id: p.string().primary(),
    name: p.text(),
    plan: p.string().$type<PlanName>(),
    seats: p.integer(),
    subscriptionStartedAt: p.datetime(),
    subscriptionActive: p.boolean(),
    suspended: p.boolean(),
    /** The integrator managing this client workspace (docs/partner.md); null for any other workspace. */
    integratorId: p.string().nullable(),
    /**
     * On a client workspace: when its integrator's oldest open invoice passes its grace period, from which
     * time its keys get 403 provider_unpaid (kept by the partner module; read with the key lookup).
     */
    providerUnpaidAfter: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export class Workspace extends WorkspaceSchema.class {}
WorkspaceSchema.setClass(Workspace);

/** invited: no password yet (waits for the invitation link); active: may sign in; disabled: may not. */
export const USER_STATES = ['invited', 'active', 'disabled'] as const;
export type UserState = (typeof USER_STATES)[number];

const UserSchema = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    /** Display name. */
    name: p.text().nullable(),
    /** Sign-in e-mail, unique across the service whatever its case; null for a user only API keys act for. */
    email: p.text().nullable(),
    /** scrypt hash of the password (src/modules/people/password.ts); never the password itself. */
    passwordHash: p.text().nullable(),
    role: p.string().$type<UserRole>(),
    state: p.string().$type<UserState>(),
    createdAt: p.datetime(),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);
