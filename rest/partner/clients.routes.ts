import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { ownOrigin } from '../../src/modules/people/index.js';
import {
  createClientKeyOp,
  createClientOp,
  getStatusOp,
  listClientKeysOp,
  listClientsOp,
  revokeClientKeyOp,
  updateClientOp,
} from '../../src/modules/partner/index.js';
import {
  ClientDtoSchema,
  ClientKeyDtoSchema,
  CreateClientKeySchema,
  CreateClientSchema,
  PartnerStatusSchema,
  UpdateClientSchema,
} from '../../src/modules/partner/index.js';
import { mountOperation, param } from '../route.js';

/** Where links in mails point: SVC_PUBLIC_URL, else the request's own origin. */
export const linkBaseOf = (app: Deps, req: Request): string => ownOrigin(app, `${req.protocol}://${req.get('host') ?? 'localhost'}`);

export const PARTNER_403 = { description: 'partner_required: the workspace is not an integrator; or an auth-stage refusal' };

/** `/partner/status`, `/partner/clients` and their keys (SPEC Route inventory; scope `partner`). */
export function partnerClientsRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'partner' } as const;
  const ClientReply = z.object({ client: ClientDtoSchema });

  mountOperation(r, app, getStatusOp, {
    ...base,
    summary: 'Checks that the caller is an integrator; the program state: sandbox or live, grace period, overdue invoice',
    responses: { 200: { description: 'The program', schema: z.object({ partner: PartnerStatusSchema }) }, 403: PARTNER_403 },
    input: () => ({}),
    reply: (partner) => ({ status: 200, body: { partner } }),
  });
  mountOperation(r, app, listClientsOp, {
    ...base,
    summary: "Client workspaces, oldest first, with this month's usage, the resale rates and the acknowledgement state",
    responses: { 200: { description: 'Clients', schema: z.object({ clients: z.array(ClientDtoSchema) }) }, 403: PARTNER_403 },
    input: () => ({}),
    reply: (clients) => ({ status: 200, body: { clients } }),
  });
  mountOperation(r, app, createClientOp, {
    ...base,
    summary: 'Creates a client workspace; with adminEmail its manager is invited as administrator (people invitations)',
    body: CreateClientSchema,
    responses: {
      201: { description: 'Created; id is the client workspace id', schema: ClientReply },
      400: { description: 'name missing or not a string, adminEmail not an e-mail or already an account, seats not a positive whole number' },
      403: PARTNER_403,
    },
    input: (req) => ({ body: req.body, linkBase: linkBaseOf(app, req) }),
    reply: (client) => ({ status: 201, body: { client } }),
  });
  mountOperation(r, app, updateClientOp, {
    ...base,
    summary: 'Name, seats, resale rates (non-negative whole numbers, null clears) and suspension (true: every key of the client gets 403 client_suspended)',
    body: UpdateClientSchema,
    responses: {
      200: { description: 'Updated', schema: ClientReply },
      400: { description: 'A field of the wrong type or a negative or fractional number (named)' },
      403: PARTNER_403,
      404: { description: 'Not a client of this integrator' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (client) => ({ status: 200, body: { client } }),
  });
  mountOperation(r, app, createClientKeyOp, {
    ...base,
    summary: 'A restricted key of the client (at least one capability scope, never partner); the secret is shown once',
    body: CreateClientKeySchema,
    responses: {
      201: { description: 'Created', schema: z.object({ key: ClientKeyDtoSchema.extend({ secret: z.string() }) }) },
      400: { description: 'scopes missing, unknown, without a capability or with partner; a limit not a positive whole number' },
      403: PARTNER_403,
      404: { description: 'Not a client of this integrator' },
    },
    input: (req) => ({ id: param(req, 'id'), body: req.body }),
    reply: (key) => ({ status: 201, body: { key } }),
  });
  mountOperation(r, app, listClientKeysOp, {
    ...base,
    summary: "The client's keys, oldest first, never their secrets (revoked ones with revokedAt)",
    responses: {
      200: { description: 'Keys', schema: z.object({ keys: z.array(ClientKeyDtoSchema) }) },
      403: PARTNER_403,
      404: { description: 'Not a client of this integrator' },
    },
    input: (req) => ({ id: param(req, 'id') }),
    reply: (keys) => ({ status: 200, body: { keys } }),
  });
  mountOperation(r, app, revokeClientKeyOp, {
    ...base,
    summary: 'Revokes a client key: refused (401) at its next call',
    responses: { 204: { description: 'Revoked' }, 403: PARTNER_403, 404: { description: 'Unknown client, or unknown or revoked key' } },
    input: (req) => ({ id: param(req, 'id'), keyId: param(req, 'keyId') }),
    reply: () => ({ status: 204 }),
  });
  return r;
}
