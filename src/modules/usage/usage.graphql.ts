import { builder } from '../../graphql/builder.js';
import { apiKeysByIds } from '../keys/index.js';
import { ApiKeyRef } from '../keys/keys.graphql.js';
import { PersonRef } from '../people/people.graphql.js';
import { peopleByIds } from '../people/index.js';
import type { DayUsageRow, KeyUsageRow } from './usage.repository.js';
import { operationField } from '../../graphql/root-fields.js';
import { listKeyNotificationsOp, usageReportOp } from './operations.js';
import {
  keyNotificationsOf,
  questionsThisMonthByKey,
  lastUsedByKey,
  toNotificationDto,
  type KeyNotificationDto,
  type UsageReport,
} from './usage.service.js';

const PackRef = builder.objectRef<UsageReport['packs']['items'][number]>('QuestionPack').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    questions: t.exposeInt('questions'),
    createdAt: t.exposeString('createdAt'),
  }),
});

const PacksRef = builder.objectRef<UsageReport['packs']>('UsagePacks').implement({
  fields: (t) => ({
    bought: t.exposeInt('bought'),
    used: t.exposeInt('used'),
    left: t.exposeInt('left'),
    items: t.field({ type: [PackRef], resolve: (p) => p.items }),
  }),
});

/** Questions asked by a signed-in person are counted under `person:<userId>` instead of a key id. */
const PERSON_PREFIX = 'person:';

const UsageByKeyRef = builder.objectRef<KeyUsageRow>('UsageByKey').implement({
  fields: (t) => ({
    keyId: t.string({ nullable: true, resolve: (r) => r.keyId }),
    key: t.loadable({
      type: ApiKeyRef,
      nullable: true,
      description: 'The key, loaded in one batch for every row.',
      load: async (ids: string[], ctx) => {
        const byId = await apiKeysByIds(await ctx.service(), ids);
        return ids.map((id) => byId.get(id) ?? null);
      },
      resolve: (r) => r.keyId,
    }),
    person: t.loadable({
      type: PersonRef,
      nullable: true,
      description: 'The signed-in person of a `person:<id>` row (their e-mail names the row), loaded in one batch.',
      load: async (ids: string[], ctx) => peopleByIds(await ctx.service(), ids),
      resolve: (r) => (r.keyId?.startsWith(PERSON_PREFIX) ? r.keyId.slice(PERSON_PREFIX.length) : null),
    }),
    questions: t.exposeInt('questions'),
    answers: t.exposeInt('answers'),
    controls: t.exposeInt('controls'),
  }),
});

const UsageByDayRef = builder.objectRef<DayUsageRow>('UsageByDay').implement({
  fields: (t) => ({
    date: t.exposeString('date', { description: 'YYYY-MM-DD (UTC)' }),
    questions: t.exposeInt('questions'),
    answers: t.exposeInt('answers'),
    controls: t.exposeInt('controls'),
  }),
});

const UsageReportRef = builder.objectRef<UsageReport>('UsageReport').implement({
  description: 'Question usage of the workspace over one allowance window (monthly, anchored on the subscription start day).',
  fields: (t) => ({
    workspaceId: t.exposeString('workspaceId'),
    plan: t.exposeString('plan'),
    seats: t.exposeInt('seats'),
    subscriptionActive: t.exposeBoolean('subscriptionActive'),
    subscriptionStartedAt: t.exposeString('subscriptionStartedAt'),
    trialEndsAt: t.exposeString('trialEndsAt', { nullable: true }),
    month: t.exposeString('month', { description: 'YYYY-MM in which the window starts' }),
    periodStart: t.exposeString('periodStart'),
    periodEnd: t.exposeString('periodEnd'),
    allowance: t.exposeInt('allowance'),
    used: t.exposeInt('used'),
    usedFromAllowance: t.exposeInt('usedFromAllowance'),
    usedFromPacks: t.exposeInt('usedFromPacks'),
    left: t.exposeInt('left', { description: 'Allowance left in the window plus packs left now' }),
    allowanceLeft: t.exposeInt('allowanceLeft'),
    packs: t.field({ type: PacksRef, resolve: (r) => r.packs }),
    answers: t.exposeInt('answers'),
    controls: t.exposeInt('controls'),
    byKey: t.field({ type: [UsageByKeyRef], resolve: (r) => r.byKey }),
    byDay: t.field({ type: [UsageByDayRef], resolve: (r) => r.byDay }),
  }),
});

builder.queryField('usage', (t) =>
  t.field({
    type: UsageReportRef,
    description: 'Usage of the allowance window starting in `month` (YYYY-MM; default: the current window).',
    args: { month: t.arg.string({ required: false }) },
    extensions: operationField(usageReportOp),
    resolve: async (_r, args, ctx) => usageReportOp.run(await ctx.service(), { month: args.month }),
  }),
);

const KeyNotificationRef = builder.objectRef<KeyNotificationDto>('KeyNotification').implement({
  description: 'Recorded once per key and calendar month when the key passes 80% of its monthlyQuestionLimit.',
  fields: (t) => ({
    id: t.exposeID('id'),
    keyId: t.exposeString('keyId'),
    month: t.exposeString('month'),
    kind: t.exposeString('kind'),
    used: t.exposeInt('used'),
    limit: t.exposeInt('limit'),
    message: t.exposeString('message'),
    createdAt: t.exposeString('createdAt'),
  }),
});

/** What an API key has consumed, on the keys module's type (usage reads the ledger, keys never does). */
builder.objectFields(ApiKeyRef, (t) => ({
    questionsThisMonth: t.loadable({
      type: 'Int',
      description: 'Questions consumed through this key in the current calendar month (UTC), batched across keys.',
      load: async (ids: string[], ctx) => {
        const totals = await questionsThisMonthByKey(await ctx.service(), ids);
        return ids.map((id) => totals.get(id) ?? 0);
      },
      resolve: (k) => k.id,
    }),
    lastUsedAt: t.loadable({
      type: 'String',
      nullable: true,
      description: 'When the key last had a call metered (its newest usage entry); null if never.',
      load: async (ids: string[], ctx) => {
        const last = await lastUsedByKey(await ctx.service(), ids);
        return ids.map((id) => last.get(id)?.toISOString() ?? null);
      },
      resolve: (k) => k.id,
    }),
    notifications: t.loadableGroup({
      type: KeyNotificationRef,
      description: 'Budget notifications of this key, newest first.',
      load: async (ids: string[], ctx) => (await keyNotificationsOf(await ctx.service(), ids)).map(toNotificationDto),
      group: (n) => n.keyId,
      resolve: (k) => k.id,
    }),
}));

builder.queryFields((t) => ({
  keyNotifications: t.field({
    type: [KeyNotificationRef],
    description: 'Key budget notifications of the workspace, newest first, optionally for one month (YYYY-MM).',
    args: { month: t.arg.string({ required: false }) },
    extensions: operationField(listKeyNotificationsOp),
    resolve: async (_r, args, ctx) => (await listKeyNotificationsOp.run(await ctx.service(), { month: args.month })).map(toNotificationDto),
  }),
}));
