import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { ownOrigin } from '../../src/modules/people/index.js';
import {
  createClient,
  createClientKey,
  getStatus,
  listClientKeys,
  listClients,
  revokeClientKey,
  updateClient,
} from '../../src/modules/partner/index.js';
import {
  ClientDtoSchema,
  ClientKeyDtoSchema,
  CreateClientKeySchema,
  CreateClientSchema,
  PartnerStatusSchema,
  UpdateClientSchema,
} from '../../src/modules/partner/index.js';
import { mount, param } from '../route.js';

/** Where links in mails point: SVC_PUBLIC_URL, else the request's own origin. */
export const linkBaseOf = (app: Deps, req: Request): string => ownOrigin(app, `${req.protocol}://${req.get('host') ?? 'localhost'}`);

export const PARTNER_403 = { description: 'partner_required: the workspace is not an integrator; or an auth-stage refusal' };

/** `/partner/status`, `/partner/clients` and their keys (SPEC Route inventory; scope `partner`). */
export function partnerClientsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'partner', scope: 'partner' } as const;
  const ClientReply = z.object({ client: ClientDtoSchema });

  mount(r, app, {
    ...base,
    method: 'get',
    path: '/partner/status',
    summary: 'Checks that the caller is an integrator; the program state: sandbox or live, grace period, overdue invoice',
    responses: { 200: { description: 'The program', schema: z.object({ partner: PartnerStatusSchema }) }, 403: PARTNER_403 },
    handler: async (ctx) => ({ status: 200, body: { partner: await getStatus(ctx) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/partner/clients',
    summary: "Client workspaces, oldest first, with this month's usage, the resale rates and the acknowledgement state",
    responses: { 200: { description: 'Clients', schema: z.object({ clients: z.array(ClientDtoSchema) }) }, 403: PARTNER_403 },
    handler: async (ctx) => ({ status: 200, body: { clients: await listClients(ctx) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/partner/clients',
    summary: 'Creates a client workspace; with adminEmail its manager is invited as administrator (people invitations)',
    body: CreateClientSchema,
    responses: {
      201: { description: 'Created; id is the client workspace id', schema: ClientReply },
      400: { description: 'name missing or not a string, adminEmail not an e-mail or already an account, seats not a positive whole number' },
      403: PARTNER_403,
    },
    handler: async (ctx, req) => ({ status: 201, body: { client: await createClient(ctx, req.body, linkBaseOf(app, req)) } }),
  });
  mount(r, app, {
    ...base,
    method: 'patch',
    path: '/partner/clients/:id',
    summary: 'Name, seats, resale rates (non-negative whole numbers, null clears) and suspension (true: every key of the client gets 403 client_suspended)',
    body: UpdateClientSchema,
    responses: {
      200: { description: 'Updated', schema: ClientReply },
      400: { description: 'A field of the wrong type or a negative or fractional number (named)' },
      403: PARTNER_403,
      404: { description: 'Not a client of this integrator' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { client: await updateClient(ctx, param(req, 'id'), req.body) } }),
  });
  mount(r, app, {
    ...base,
    method: 'post',
    path: '/partner/clients/:id/keys',
    summary: 'A restricted key of the client (at least one capability scope, never partner); the secret is shown once',
    body: CreateClientKeySchema,
    responses: {
      201: { description: 'Created', schema: z.object({ key: ClientKeyDtoSchema.extend({ secret: z.string() }) }) },
      400: { description: 'scopes missing, unknown, without a capability or with partner; a limit not a positive whole number' },
      403: PARTNER_403,
      404: { description: 'Not a client of this integrator' },
    },
    handler: async (ctx, req) => ({ status: 201, body: { key: await createClientKey(ctx, param(req, 'id'), req.body) } }),
  });
  mount(r, app, {
    ...base,
    method: 'get',
    path: '/partner/clients/:id/keys',
    summary: "The client's keys, oldest first, never their secrets (revoked ones with revokedAt)",
    responses: {
      200: { description: 'Keys', schema: z.object({ keys: z.array(ClientKeyDtoSchema) }) },
      403: PARTNER_403,
      404: { description: 'Not a client of this integrator' },
    },
    handler: async (ctx, req) => ({ status: 200, body: { keys: await listClientKeys(ctx, param(req, 'id')) } }),
  });
  mount(r, app, {
    ...base,
    method: 'delete',
    path: '/partner/clients/:id/keys/:keyId',
    summary: 'Revokes a client key: refused (401) at its next call',
    responses: { 204: { description: 'Revoked' }, 403: PARTNER_403, 404: { description: 'Unknown client, or unknown or revoked key' } },
    handler: async (ctx, req) => {
      await revokeClientKey(ctx, param(req, 'id'), param(req, 'keyId'));
      return { status: 204 };
    },
  });
  return r;
}
