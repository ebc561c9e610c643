import { errors } from '../errors/index.js';
import { PG_INT_MAX } from '../lib/pg-int.js';
import { ApiKey } from '../modules/keys/index.js';
import { keyAuditDetails, toApiKeyDto } from '../modules/keys/index.js';
import { recordAudit, SYSTEM_ACTOR } from '../modules/audit/index.js';
import type { AdminContext } from '../core/context.js';
import { issueKey, revokeKeyById } from '../modules/keys/index.js';
import { User } from '../modules/workspaces/index.js';
import { addPack, setPlan } from '../modules/usage/index.js';
import { MonthSchema } from '../modules/usage/index.js';
import { buildUsageReport, findKeyNotifications, toNotificationDto } from '../modules/usage/index.js';
import { createUser, findWorkspaceOrFail } from '../modules/workspaces/index.js';
import { setSuspended } from '../modules/provisioning/index.js';
import { createWorkspace } from '../modules/provisioning/index.js';
import { createPerson, invite, setPassword, toPersonDto } from '../modules/people/index.js';
import { installPosteAsOperator } from '../modules/postes/index.js';
import type { Mailer } from '../modules/people/index.js';
import type { Logger } from '../lib/logger.js';
import { programJson, setPartner } from '../modules/partner/index.js';

export type Flags = Record<string, string | boolean | undefined>;

const str = (flags: Flags, name: string): string | undefined => {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
};

const required = (flags: Flags, name: string): string => {
  const v = str(flags, name);
  if (!v) throw errors.validation(`--${name}`, `--${name} is required`);
  return v;
};

/** Parses a whole-number flag that fits a PostgreSQL integer; anything else is a readable error naming the flag. */
export const intFlag = (flags: Flags, name: string): number | undefined => {
  const v = str(flags, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw errors.validation(`--${name}`, `--${name} must be a positive whole number`);
  const n = Number(v);
  if (n > PG_INT_MAX) throw errors.validation(`--${name}`, `--${name} must be at most ${PG_INT_MAX}`);
  return n;
};

/** The key as the API shows it, plus whose it is (the operator's view). */
const keyJson = (key: ApiKey, secret?: string) => ({ ...toApiKeyDto(key, secret), workspaceId: key.workspaceId, userId: key.userId });

/** What `user invite` needs besides the database: the mailer, a log and where links point (src/cli/main.ts). */
export interface MailContext {
  mailer: Mailer;
  log: Logger;
  linkBase: string;
}

export type CliContext = AdminContext & Partial<MailContext>;

function withMail(actx: CliContext): AdminContext & MailContext {
  const { mailer, log, linkBase } = actx;
  if (!mailer || !log || !linkBase) throw errors.internal('This command needs a mailer');
  return { ...actx, mailer, log, linkBase };
}

type Handler = (actx: CliContext, args: string[], flags: Flags) => Promise<unknown>;

/** Each command is `<noun> <verb>`; handlers call the same services as the API. */
export const commands: Record<string, Handler> = {
  /** Installs a template of the poste catalogue in a workspace (docs/postes.md). */
  'poste install': async (actx, [workspaceId], flags) => ({
    poste: await installPosteAsOperator(actx, need(workspaceId, 'workspace id'), { key: required(flags, 'key') }),
  }),
  'workspace create': async (actx, _args, flags) => {
    const { workspace, user, issued } = await createWorkspace(actx, {
      name: required(flags, 'name'),
      plan: str(flags, 'plan'),
      seats: intFlag(flags, 'seats'),
    });
    return {
      workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan, seats: workspace.seats },
      user: { id: user.id },
      key: keyJson(issued.key, issued.secret),
    };
  },
  'workspace suspend': async (actx, [id]) => ({ workspace: suspendJson(await setSuspended(actx, need(id, 'workspace id'), true)) }),
  'workspace unsuspend': async (actx, [id]) => ({ workspace: suspendJson(await setSuspended(actx, need(id, 'workspace id'), false)) }),
  /** Without --email, a user only API keys act for (today's form and output); with it, a person who signs in. */
  'user create': async (actx, _args, flags) => {
    const workspaceId = required(flags, 'workspace');
    const email = str(flags, 'email');
    if (email === undefined) {
      const user = await createUser(actx, workspaceId);
      return { user: { id: user.id, workspaceId: user.workspaceId } };
    }
    const user = await createPerson(actx, workspaceId, { email, role: str(flags, 'role'), name: str(flags, 'name'), password: str(flags, 'password') });
    return { user: toPersonDto(user) };
  },
  'user set-password': async (actx, [id], flags) => ({
    user: toPersonDto(await setPassword(actx, need(id, 'user id'), required(flags, 'password'))),
  }),
  'user invite': async (actx, _args, flags) => {
    const workspaceId = required(flags, 'workspace');
    await findWorkspaceOrFail(actx, workspaceId);
    const inv = await invite(withMail(actx), workspaceId, { email: required(flags, 'email'), role: str(flags, 'role'), name: str(flags, 'name') });
    return { user: toPersonDto(inv.user), invitation: { expiresAt: inv.expiresAt.toISOString(), mailed: inv.mailed } };
  },
  'key create': async (actx, _args, flags) => {
    const workspace = await findWorkspaceOrFail(actx, required(flags, 'workspace'));
    const userId = str(flags, 'user');
    const user = userId
      ? await actx.em.findOne(User, { id: userId, workspaceId: workspace.id })
      : await actx.em.findOne(User, { workspaceId: workspace.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    if (!user) throw errors.notFound('user', userId, userId ? `User not found in workspace: ${userId}` : 'The workspace has no user');
    const scopes = str(flags, 'scopes');
    const attributes = {
      scopes: scopes ? scopes.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
      readonly: flags.readonly === true,
      ratePerMinute: intFlag(flags, 'rate-per-minute'),
      monthlyQuestionLimit: intFlag(flags, 'monthly-question-limit'),
      expiresAt: str(flags, 'expires-at'),
    };
    const { key, secret } = await actx.em.transactional(async (em) => {
      const issued = await issueKey({ em, clock: actx.clock }, { workspaceId: workspace.id, userId: user.id }, attributes);
      recordAudit(em, actx.clock, { actor: SYSTEM_ACTOR }, {
        workspaceId: workspace.id,
        action: 'key.created',
        target: { type: 'apiKey', id: issued.key.id },
        details: keyAuditDetails(issued.key),
      });
      return issued;
    });
    return { key: keyJson(key, secret) };
  },
  'key revoke': async (actx, [id]) => {
    const { key, revokedDescendants } = await revokeKeyById(actx, need(id, 'key id'));
    return { key: keyJson(key), revokedDescendants };
  },
  'workspace set-plan': async (actx, [id], flags) => {
    const ws = await setPlan(actx, need(id, 'workspace id'), {
      plan: required(flags, 'plan'),
      seats: intFlag(flags, 'seats'),
      startedAt: str(flags, 'started-at'),
    });
    return { workspace: { id: ws.id, plan: ws.plan, seats: ws.seats, subscriptionStartedAt: ws.subscriptionStartedAt.toISOString(), subscriptionActive: ws.subscriptionActive } };
  },
  'workspace add-pack': async (actx, [id], flags) => {
    const pack = await addPack(actx, need(id, 'workspace id'), { questions: intFlag(flags, 'questions') });
    return { pack: { id: pack.id, workspaceId: pack.workspaceId, questions: pack.questions, createdAt: pack.createdAt.toISOString() } };
  },
  /** `usage W [--month YYYY-MM]`: the usage report and the key notifications of the window. */
  usage: async (actx, [id], flags) => {
    const ws = await findWorkspaceOrFail(actx, need(id, 'workspace id'));
    const month = str(flags, 'month');
    const usage = await buildUsageReport(actx.em, ws, actx.clock.now(), month === undefined ? undefined : MonthSchema.parse(month));
    const notifications = await findKeyNotifications(actx.em, ws.id);
    const inWindow = notifications.filter((n) => n.createdAt >= new Date(usage.periodStart) && n.createdAt < new Date(usage.periodEnd));
    return { usage, notifications: inWindow.map(toNotificationDto) };
  },
  /** `workspace set-partner W [--sandbox] [--grace-days N]`: the workspace becomes an integrator (docs/partner.md). */
  'workspace set-partner': async (actx, [id], flags) => ({
    partner: programJson(
      await setPartner(actx, need(id, 'workspace id'), { sandbox: flags.sandbox === true, graceDays: intFlag(flags, 'grace-days') ?? 7 }),
    ),
  }),
  /** `notifications W [--month YYYY-MM]`: key budget notifications, newest first. */
  notifications: async (actx, [id], flags) => {
    const ws = await findWorkspaceOrFail(actx, need(id, 'workspace id'));
    const month = str(flags, 'month');
    const list = await findKeyNotifications(actx.em, ws.id, month === undefined ? undefined : MonthSchema.parse(month));
    return { notifications: list.map(toNotificationDto) };
  },
};

const need = (v: string | undefined, what: string): string => {
  if (!v) throw errors.validation(null, `missing ${what}`);
  return v;
};

const suspendJson = (w: { id: string; suspended: boolean }) => ({ id: w.id, suspended: w.suspended });

export async function runCommand(actx: CliContext, positionals: string[], flags: Flags): Promise<unknown> {
  const [noun, verb, ...rest] = positionals;
  const handler = commands[`${noun} ${verb}`];
  // One-word commands (`usage W`) take the second word as their first argument.
  if (!handler && commands[noun ?? '']) return commands[noun ?? ''](actx, [verb ?? '', ...rest].filter(Boolean), flags);
  if (!handler) throw errors.validation(null, `unknown command: ${positionals.join(' ')} (run with --help)`);
  return handler(actx, rest, flags);
}
