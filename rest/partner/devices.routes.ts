import { Router } from 'express';
import { z } from 'zod';
import type { Deps } from '../../src/core/deps.js';
import { ClientKeyDtoSchema, DeviceCodeRequestSchema, DeviceConfirmSchema, DeviceDtoSchema, DeviceTokenSchema } from '../../src/modules/partner/index.js';
import { confirmDeviceOp, deviceToken, listDevicesOp, requestDeviceCode, unpairDeviceOp } from '../../src/modules/partner/index.js';
import { mountOperation, mountPublic, param } from '../route.js';
import { PARTNER_403 } from './clients.routes.js';

/** Device pairing (docs/partner.md, Devices): a device code the integrator confirms. */
export function partnerDevicesRouter(app: Deps): Router {
  const r = Router();
  const base = { tag: 'partner' } as const;

  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'partner',
    method: 'post',
    path: '/partner/devices/code',
    rateLimit: 'devicePairing',
    summary:
      'An install asks for a pairing code (no key): deviceCode stays with it, userCode is shown to a person. Limited per client address (SVC_RATE_DEVICE_PAIRING per minute); codes not confirmed in 10 minutes are swept',
    body: DeviceCodeRequestSchema,
    responses: {
      200: {
        description: 'The codes',
        schema: z.object({ deviceCode: z.string(), userCode: z.string(), verificationPath: z.string(), expiresIn: z.number().int(), interval: z.number().int() }),
      },
      400: { description: 'name not a string' },
    },
    handler: async (_ctx, req) => ({ status: 200, body: await requestDeviceCode(app, req.body) }),
  });
  mountPublic(r, app, {
    public: true,
    scope: null,
    tag: 'partner',
    method: 'post',
    path: '/partner/devices/token',
    rateLimit: 'devicePairing',
    summary:
      "The install polls with its device code (no key): the integrator's read-only partner key once confirmed, once. Limited per client address (SVC_RATE_DEVICE_PAIRING per minute; polling every `interval` seconds stays well under it)",
    body: DeviceTokenSchema,
    responses: {
      200: { description: 'Paired: the key, its secret shown this once', schema: z.object({ key: ClientKeyDtoSchema.extend({ secret: z.string() }) }) },
      400: { description: 'authorization_pending (poll again), device_code_invalid, or deviceCode missing' },
    },
    handler: async (_ctx, req) => ({ status: 200, body: { key: await deviceToken(app, req.body) } }),
  });
  mountOperation(r, app, confirmDeviceOp, {
    ...base,
    summary: 'Pairs the install showing this userCode with the integrator',
    body: DeviceConfirmSchema,
    responses: {
      200: { description: 'Paired', schema: z.object({ device: DeviceDtoSchema }) },
      400: { description: 'userCode missing, or device_code_invalid (unknown, used or expired)' },
      403: PARTNER_403,
    },
    input: (req) => ({ body: req.body }),
    reply: (device) => ({ status: 200, body: { device } }),
  });
  mountOperation(r, app, listDevicesOp, {
    ...base,
    summary: "The integrator's paired installs",
    responses: { 200: { description: 'Devices', schema: z.object({ devices: z.array(DeviceDtoSchema) }) }, 403: PARTNER_403 },
    input: () => ({}),
    reply: (devices) => ({ status: 200, body: { devices } }),
  });
  mountOperation(r, app, unpairDeviceOp, {
    ...base,
    summary: 'Unpairs an install: its key is revoked at its next call',
    responses: { 204: { description: 'Unpaired' }, 403: PARTNER_403, 404: { description: 'Not a device of this integrator' } },
    input: (req) => ({ id: param(req, 'id') }),
    reply: () => ({ status: 204 }),
  });
  return r;
}
