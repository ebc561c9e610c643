import type { ServiceContext } from '../../core/context.js';
import type { Em } from '../../db/types.js';
import { errors } from '../../errors/index.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { audit, sourceOf } from '../audit/index.js';
import { ApiKey } from '../keys/index.js';
import { keyAuditDetails, revokedAuditDetails, toApiKeyDto } from '../keys/index.js';
import type { ApiKeyDto } from '../keys/index.js';
import { issueKey, revokeKeyAndDescendants } from '../keys/index.js';
import { invite, peopleContext } from '../people/index.js';
import { calendarMonth, monthOf } from '../usage/index.js';
import { isPaidPlan } from '../usage/index.js';
import { User, Workspace } from '../workspaces/index.js';
import { findWorkspaceOrFail } from '../workspaces/index.js';
import { PartnerClient, PartnerInvoice, PartnerProgram } from './partner.entity.js';
import { totalsByWorkspace } from './partner.repository.js';
import {
  CreateClientKeySchema,
  CreateClientSchema,
  UpdateClientSchema,
  type ClientDto,
  type PartnerStatus,
} from './partner.schemas.js';

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The caller's partner program, or 403 partner_required: the workspace is not an integrator. The
 * caller's access (scope partner, an admin person) is the operation's need (operations.ts), checked by
 * the pipeline before.
 */
export async function requireProgram(ctx: ServiceContext): Promise<PartnerProgram> {
  const program = await ctx.em.findOne(PartnerProgram, { workspaceId: ctx.caller.workspace.id });
  if (!program) throw errors.partnerRequired();
  return program;
}

/** A client of the caller's program; another integrator's client, or any other workspace, looks missing. */
export async function findClient(ctx: ServiceContext, program: PartnerProgram, id: string): Promise<{ client: PartnerClient; workspace: Workspace }> {
  const client = await ctx.em.findOne(PartnerClient, { workspaceId: id, partnerId: program.workspaceId });
  const workspace = client ? await ctx.em.findOne(Workspace, { id }) : null;
  if (!client || !workspace) throw errors.notFound('client', id);
  return { client, workspace };
}

// ---- the program (operators) ----

export interface AdminCtx {
  em: Em;
  clock: Clock;
}

/**
 * CLI `workspace set-partner W [--sandbox]`: makes a workspace an integrator (again: sets the mode). A
 * client workspace cannot become one.
 */
export async function setPartner(actx: AdminCtx, workspaceId: string, opts: { sandbox: boolean; graceDays: number }): Promise<PartnerProgram> {
  const ws = await findWorkspaceOrFail(actx, workspaceId);
  if (ws.integratorId) throw errors.validation(null, 'A client workspace of an integrator cannot become an integrator');
  let program = await actx.em.findOne(PartnerProgram, { workspaceId });
  if (program) program.sandbox = opts.sandbox;
  else {
    program = actx.em.create(PartnerProgram, {
      workspaceId,
      sandbox: opts.sandbox,
      graceDays: opts.graceDays,
      stripeCustomerId: null,
      autoDebitSessionId: null,
      autoDebitPaymentMethod: null,
      autoDebitSince: null,
      createdAt: actx.clock.now(),
    });
  }
  await actx.em.flush();
  return program;
}

export const programJson = (p: PartnerProgram) => ({
  workspaceId: p.workspaceId,
  mode: p.sandbox ? 'sandbox' : 'live',
  sandbox: p.sandbox,
  graceDays: p.graceDays,
  createdAt: p.createdAt.toISOString(),
});

/** When an open invoice's grace period ends: its due date plus the program's grace days. */
export const graceEndOf = (invoice: PartnerInvoice, program: PartnerProgram): Date | null =>
  invoice.dueAt ? new Date(invoice.dueAt.getTime() + program.graceDays * DAY_MS) : null;

/** `GET /partner/status`: the program's state (mode, grace period, overdue invoice, automatic debit). */
export async function getStatus(ctx: ServiceContext): Promise<PartnerStatus> {
  const program = await requireProgram(ctx);
  const now = ctx.clock.now();
  const [clients, open] = await Promise.all([
    ctx.em.count(PartnerClient, { partnerId: program.workspaceId }),
    ctx.em.find(PartnerInvoice, { partnerId: program.workspaceId, status: 'open', sandbox: false }, { orderBy: { dueAt: 'asc', id: 'asc' } }),
  ]);
  const first = open.find((i) => i.dueAt);
  const unpaidAfter = first ? graceEndOf(first, program) : null;
  const overdue = unpaidAfter !== null && unpaidAfter.getTime() <= now.getTime();
  return {
    workspaceId: program.workspaceId,
    mode: program.sandbox ? 'sandbox' : 'live',
    graceDays: program.graceDays,
    clients,
    overdue,
    overdueInvoiceId: overdue && first ? first.id : null,
    unpaidAfter: unpaidAfter?.toISOString() ?? null,
    autoDebit: program.autoDebitPaymentMethod !== null && program.autoDebitPaymentMethod !== undefined,
    paymentsConfigured: ctx.app.partner.payments !== null || program.sandbox,
  };
}

// ---- clients ----

async function acknowledgementOf(em: Em, clients: PartnerClient[]): Promise<Map<string, User>> {
  const ids = clients.map((c) => c.adminUserId).filter((id): id is string => Boolean(id));
  if (ids.length === 0) return new Map();
  const users = await em.find(User, { id: { $in: ids } });
  return new Map(users.map((u) => [u.id, u]));
}

function toClientDto(
  client: PartnerClient,
  ws: Workspace,
  admin: User | undefined,
  usage: { month: string; questions: number; controls: number },
): ClientDto {
  return {
    id: ws.id,
    name: ws.name,
    seats: ws.seats,
    suspended: ws.suspended,
    sandbox: client.sandbox,
    adminEmail: admin?.email ?? null,
    acknowledgement: !client.adminUserId ? 'no_admin' : admin?.state === 'active' ? 'accepted' : 'invited',
    rates: {
      ratePer100Cents: client.ratePer100Cents ?? null,
      seatRateCents: client.seatRateCents ?? null,
      includedQuestionsPerSeat: client.includedQuestionsPerSeat ?? null,
    },
    usage,
    createdAt: client.createdAt.toISOString(),
  };
}

async function clientDtos(ctx: ServiceContext, clients: PartnerClient[]): Promise<ClientDto[]> {
  const now = ctx.clock.now();
  const ids = clients.map((c) => c.workspaceId);
  const [workspaces, totals, admins] = await Promise.all([
    ids.length ? ctx.em.find(Workspace, { id: { $in: ids } }) : Promise.resolve([]),
    totalsByWorkspace(ctx.em, ids, calendarMonth(now)),
    acknowledgementOf(ctx.em, clients),
  ]);
  const byId = new Map(workspaces.map((w) => [w.id, w]));
  const month = monthOf(now);
  return clients.flatMap((c) => {
    const ws = byId.get(c.workspaceId);
    if (!ws) return [];
    const t = totals.get(c.workspaceId);
    return [toClientDto(c, ws, c.adminUserId ? admins.get(c.adminUserId) : undefined, { month, questions: t?.questions ?? 0, controls: t?.controls ?? 0 })];
  });
}

/** `GET /partner/clients`: oldest first, with this month's usage, the rates and the acknowledgement. */
export async function listClients(ctx: ServiceContext): Promise<ClientDto[]> {
  const program = await requireProgram(ctx);
  const clients = await ctx.em.find(PartnerClient, { partnerId: program.workspaceId }, { orderBy: { createdAt: 'asc', workspaceId: 'asc' } });
  return clientDtos(ctx, clients);
}

export async function getClient(ctx: ServiceContext, id: string): Promise<ClientDto> {
  const program = await requireProgram(ctx);
  const { client } = await findClient(ctx, program, id);
  const [dto] = await clientDtos(ctx, [client]);
  return dto;
}

/**
 * `POST /partner/clients`: a client workspace managed by the caller (the integrator's plan when paid,
 * else Pro), with a user its client keys act for: the invited manager (administrator, through the
 * people invitations) with `adminEmail`, else a user without e-mail. A sandbox integrator's clients
 * are test clients. `linkBase` is where the invitation link points.
 */
export async function createClient(ctx: ServiceContext, input: unknown, linkBase: string): Promise<ClientDto> {
  const program = await requireProgram(ctx);
  const data = CreateClientSchema.parse(input ?? {});
  const integrator = ctx.caller.workspace;
  const created = await ctx.em.transactional(async (em) => {
    const now = ctx.clock.now();
    const unpaid = await em.findOne(Workspace, { integratorId: program.workspaceId, providerUnpaidAfter: { $ne: null } });
    const ws = em.create(Workspace, {
      id: newId('ws'),
      name: data.name,
      plan: isPaidPlan(integrator.plan) ? integrator.plan : 'pro',
      seats: data.seats ?? 1,
      subscriptionStartedAt: now,
      subscriptionActive: true,
      suspended: false,
      integratorId: program.workspaceId,
      providerUnpaidAfter: unpaid?.providerUnpaidAfter ?? null,
      createdAt: now,
    });
    await em.flush();
    let userId: string;
    let adminUserId: string | null = null;
    if (data.adminEmail) {
      const invitation = await invite({ ...peopleContext(ctx, linkBase), em }, ws.id, { email: data.adminEmail, role: 'admin' }, sourceOf(ctx));
      userId = adminUserId = invitation.user.id;
    } else {
      const user = em.create(User, {
        id: newId('usr'),
        workspaceId: ws.id,
        name: null,
        email: null,
        passwordHash: null,
        role: 'admin',
        state: 'active',
        createdAt: now,
      });
      userId = user.id;
    }
    const client = em.create(PartnerClient, {
      workspaceId: ws.id,
      partnerId: program.workspaceId,
      serviceUserId: userId,
      adminUserId,
      ratePer100Cents: data.ratePer100Cents ?? null,
      seatRateCents: data.seatRateCents ?? null,
      includedQuestionsPerSeat: data.includedQuestionsPerSeat ?? null,
      sandbox: program.sandbox,
      createdAt: now,
    });
    await em.flush();
    return client;
  });
  const [dto] = await clientDtos(ctx, [created]);
  return dto;
}

/**
 * `PATCH /partner/clients/:id`: name, seats, rates (null clears) and suspension. `suspended: true`
 * makes every key of the client fail with 403 client_suspended at its next call (the key lookup reads
 * the flag from the workspace row); `false` restores them.
 */
export async function updateClient(ctx: ServiceContext, id: string, input: unknown): Promise<ClientDto> {
  const program = await requireProgram(ctx);
  const data = UpdateClientSchema.parse(input ?? {});
  const { client, workspace } = await findClient(ctx, program, id);
  if (data.name !== undefined) workspace.name = data.name;
  if (data.seats !== undefined) workspace.seats = data.seats;
  if (data.suspended !== undefined && data.suspended !== workspace.suspended) {
    // Written by the flush below with the change: in the client's log and in the integrator's.
    const fact = { action: data.suspended ? 'workspace.suspended' : 'workspace.reinstated', target: { type: 'workspace', id: workspace.id } } as const;
    const details = { by: 'integrator', integratorWorkspaceId: program.workspaceId, clientName: workspace.name };
    audit(ctx, { ...fact, workspaceId: workspace.id, details });
    audit(ctx, { ...fact, details });
    workspace.suspended = data.suspended;
  }
  if (data.ratePer100Cents !== undefined) client.ratePer100Cents = data.ratePer100Cents;
  if (data.seatRateCents !== undefined) client.seatRateCents = data.seatRateCents;
  if (data.includedQuestionsPerSeat !== undefined) client.includedQuestionsPerSeat = data.includedQuestionsPerSeat;
  await ctx.em.flush();
  const [dto] = await clientDtos(ctx, [client]);
  return dto;
}

// ---- client keys ----

/**
 * `POST /partner/clients/:id/keys`: a restricted key of the client workspace (at least one capability
 * scope, never `partner`), acting for the client's user; the secret is returned this once. It has no
 * parent key: revoking the integrator's own key leaves its clients' keys working.
 */
export async function createClientKey(ctx: ServiceContext, id: string, input: unknown): Promise<ApiKeyDto & { secret: string }> {
  const program = await requireProgram(ctx);
  const data = CreateClientKeySchema.parse(input ?? {});
  const { client } = await findClient(ctx, program, id);
  const { key, secret } = await ctx.em.transactional(async (em) => {
    const issued = await issueKey({ em, clock: ctx.clock }, { workspaceId: client.workspaceId, userId: client.serviceUserId }, data, null);
    audit(ctx, { workspaceId: client.workspaceId, action: 'key.created', target: { type: 'apiKey', id: issued.key.id }, details: { ...keyAuditDetails(issued.key), by: 'integrator' } }, em);
    return issued;
  });
  return { ...toApiKeyDto(key, secret), secret };
}

/** `GET /partner/clients/:id/keys`: every key of the client workspace, oldest first, revoked ones with `revokedAt`. */
export async function listClientKeys(ctx: ServiceContext, id: string): Promise<ApiKeyDto[]> {
  const program = await requireProgram(ctx);
  const { client } = await findClient(ctx, program, id);
  const keys = await ctx.em.find(ApiKey, { workspaceId: client.workspaceId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return keys.map((k) => toApiKeyDto(k));
}

/** `DELETE /partner/clients/:id/keys/:keyId`: revoked (with the keys it created) at its next call. */
export async function revokeClientKey(ctx: ServiceContext, id: string, keyId: string): Promise<void> {
  const program = await requireProgram(ctx);
  const { client } = await findClient(ctx, program, id);
  await ctx.em.transactional(async (em) => {
    const key = await em.findOne(ApiKey, { id: keyId, workspaceId: client.workspaceId, revokedAt: null });
    if (!key) throw errors.notFound('apiKey', keyId);
    const revoked = await revokeKeyAndDescendants(em, key, ctx.clock.now());
    audit(ctx, { workspaceId: client.workspaceId, action: 'key.revoked', target: { type: 'apiKey', id: key.id }, details: { ...revokedAuditDetails(revoked), by: 'integrator' } }, em);
  });
}
