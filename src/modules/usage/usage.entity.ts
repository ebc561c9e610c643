import { defineEntity, p } from '@mikro-orm/core';
import type { ModelClass } from '../models/index.js';

export type UsageKind = 'question' | 'control';

/**
 * The questions ledger: one row per consumption (a metered model answer) or per control (a verifier
 * report). The single source of allowances, per-key budgets and usage reports.
 */
const UsageEntrySchema = defineEntity({
  name: 'UsageEntry',
  tableName: 'usage_ledger',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    keyId: p.string().nullable(),
    userId: p.string().nullable(),
    kind: p.string().$type<UsageKind>(),
    route: p.string(),
    modelClass: p.string().$type<ModelClass>().nullable(),
    model: p.string().nullable(),
    promptTokens: p.integer(),
    completionTokens: p.integer(),
    totalTokens: p.integer(),
    questions: p.integer(),
    /** Part of `questions` taken from the monthly allowance (the rest from packs). */
    fromAllowance: p.integer(),
    fromPacks: p.integer(),
    createdAt: p.datetime(),
  },
});
export class UsageEntry extends UsageEntrySchema.class {}
UsageEntrySchema.setClass(UsageEntry);

/** A question pack bought by a workspace on a paid plan. */
const QuestionPackSchema = defineEntity({
  name: 'QuestionPack',
  tableName: 'question_pack',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    questions: p.integer(),
    createdAt: p.datetime(),
  },
});
export class QuestionPack extends QuestionPackSchema.class {}
QuestionPackSchema.setClass(QuestionPack);

export type KeyNotificationKind = 'budget_80';

/** Stored once per key and calendar month when the key passes 80% of its monthly ceiling. */
const KeyNotificationSchema = defineEntity({
  name: 'KeyNotification',
  tableName: 'key_notification',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    keyId: p.string(),
    /** `YYYY-MM` (UTC). */
    month: p.string(),
    kind: p.string().$type<KeyNotificationKind>(),
    used: p.integer(),
    ceiling: p.integer(),
    message: p.text(),
    createdAt: p.datetime(),
  },
});
export class KeyNotification extends KeyNotificationSchema.class {}
KeyNotificationSchema.setClass(KeyNotification);

/**
 * Questions set aside for a request between its admission and its record (`svc_admit` / `svc_record`,
 * metering.service.ts); an expired hold no longer counts.
 */
const QuestionHoldSchema = defineEntity({
  name: 'QuestionHold',
  tableName: 'question_hold',
  properties: {
    id: p.string().primary(),
    workspaceId: p.string(),
    questions: p.integer(),
    expiresAt: p.datetime(),
  },
});
export class QuestionHold extends QuestionHoldSchema.class {}
QuestionHoldSchema.setClass(QuestionHold);

/** Requests counted per bucket (key, route, address) and calendar minute (rate-limit.service.ts, SQL only). */
const RateCounterSchema = defineEntity({
  name: 'RateCounter',
  tableName: 'rate_counter',
  properties: {
    bucket: p.string().primary(),
    minute: p.bigint('number').primary(),
    count: p.integer(),
    granted: p.integer().default(0),
  },
});
export class RateCounter extends RateCounterSchema.class {}
RateCounterSchema.setClass(RateCounter);

/**
 * Running totals of the ledger, kept by its trigger in the transaction of each row (Migration20261126231203)
 * so that admission reads one row instead of summing the ledger: read through `svc_balance` and the usage
 * repository, never written by the application.
 */
const UsageWindowTotalSchema = defineEntity({
  name: 'UsageWindowTotal',
  tableName: 'usage_window_total',
  properties: {
    workspaceId: p.string().primary(),
    /** The allowance window (periods.ts `allowanceWindow`). */
    periodStart: p.datetime().primary(),
    periodEnd: p.datetime().primary(),
    /** `from_allowance` of the window's question rows. */
    allowanceUsed: p.bigint('number'),
  },
});
export class UsageWindowTotal extends UsageWindowTotalSchema.class {}
UsageWindowTotalSchema.setClass(UsageWindowTotal);

/** Questions taken from packs by a workspace, all time (running total of the ledger's `from_packs`). */
const UsagePackTotalSchema = defineEntity({
  name: 'UsagePackTotal',
  tableName: 'usage_pack_total',
  properties: {
    workspaceId: p.string().primary(),
    packsUsed: p.bigint('number'),
  },
});
export class UsagePackTotal extends UsagePackTotalSchema.class {}
UsagePackTotalSchema.setClass(UsagePackTotal);

/** Questions per meter (`usage_ledger.key_id`) and calendar month (UTC): the per-key ceilings' running total. */
const UsageKeyMonthSchema = defineEntity({
  name: 'UsageKeyMonth',
  tableName: 'usage_key_month',
  properties: {
    keyId: p.string().primary(),
    /** Midnight UTC on the 1st of the month. */
    monthStart: p.datetime().primary(),
    workspaceId: p.string().primary(),
    questions: p.bigint('number'),
  },
});
export class UsageKeyMonth extends UsageKeyMonthSchema.class {}
UsageKeyMonthSchema.setClass(UsageKeyMonth);
