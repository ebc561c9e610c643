import { defineEntity, p } from '@mikro-orm/core';

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
    createdAt: p.datetime(),
  },
});
export class Workspace extends WorkspaceSchema.class {}
WorkspaceSchema.setClass(Workspace);

const UserSchema = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    name: p.text().nullable(),
    createdAt: p.datetime(),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);
