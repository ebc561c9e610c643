import { randomInt } from 'node:crypto';
import type { ServiceContext } from '../../core/context.js';
import type { Deps } from '../../core/deps.js';
import { errors } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { newSecret, sha256Hex } from '../../lib/secrets.js';
import { toApiKeyDto } from '../keys/index.js';
import { ApiKey } from '../keys/index.js';
import type { ApiKeyDto } from '../keys/index.js';
import { issueKey, revokeKeyAndDescendants } from '../keys/index.js';
import { User } from '../workspaces/index.js';
import { PartnerDevice, type DeviceStatus } from './partner.entity.js';
import { DeviceCodeRequestSchema, DeviceConfirmSchema, DeviceTokenSchema, type DeviceDto } from './partner.schemas.js';
import { requireProgram } from './partner.service.js';

/** How long a pairing code can be confirmed (docs/partner.md, Devices). */
export const DEVICE_CODE_TTL_MS = 10 * 60 * 1000;
/** Seconds an install waits between two polls. */
export const DEVICE_POLL_INTERVAL_S = 5;
/** No 0/O, 1/I/L: read aloud or typed from a screen without doubt. */
const USER_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

const userCode = (): string => {
  const pick = () => Array.from({ length: 4 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');
  return `${pick()}-${pick()}`;
};

export const toDeviceDto = (d: PartnerDevice): DeviceDto => ({
  id: d.id,
  name: d.name ?? null,
  status: d.status as DeviceStatus,
  createdAt: d.createdAt.toISOString(),
  pairedAt: d.pairedAt?.toISOString() ?? null,
  lastSeenAt: d.lastSeenAt?.toISOString() ?? null,
});

export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationPath: string;
  expiresIn: number;
  interval: number;
}

/** `POST /partner/devices/code` (no key): an install asks for a pairing code; the device code is its secret. */
export async function requestDeviceCode(app: Deps, input: unknown): Promise<DeviceCode> {
  const data = DeviceCodeRequestSchema.parse(input ?? {});
  const em = app.orm.em.fork();
  const now = app.clock.now();
  const deviceCode = newSecret('dev_');
  const device = em.create(PartnerDevice, {
    id: newId('dvc'),
    partnerId: null,
    name: data.name ?? null,
    deviceCodeHash: sha256Hex(deviceCode),
    userCode: userCode(),
    status: 'pending',
    keyId: null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + DEVICE_CODE_TTL_MS),
    pairedAt: null,
    lastSeenAt: null,
  });
  await em.flush();
  return { deviceCode, userCode: device.userCode, verificationPath: '/partner/devices/confirm', expiresIn: DEVICE_CODE_TTL_MS / 1000, interval: DEVICE_POLL_INTERVAL_S };
}

/** `POST /partner/devices/confirm` `{ userCode }`: the integrator pairs the install showing that code. */
export async function confirmDevice(ctx: ServiceContext, input: unknown): Promise<DeviceDto> {
  const program = await requireProgram(ctx);
  const { userCode: code } = DeviceConfirmSchema.parse(input ?? {});
  const now = ctx.clock.now();
  const device = await ctx.em.findOne(PartnerDevice, { userCode: code.toUpperCase(), status: 'pending', partnerId: null, expiresAt: { $gt: now } });
  if (!device) throw errors.deviceCodeInvalid();
  device.partnerId = program.workspaceId;
  device.pairedAt = now;
  await ctx.em.flush();
  return toDeviceDto(device);
}

/**
 * `POST /partner/devices/token` `{ deviceCode }` (no key): 400 authorization_pending until the code is
 * confirmed, then once the install's key: the integrator's, restricted to `partner` and read-only. Any
 * later poll, an unknown or expired code: 400 device_code_invalid.
 */
export async function deviceToken(app: Deps, input: unknown): Promise<ApiKeyDto & { secret: string }> {
  const { deviceCode } = DeviceTokenSchema.parse(input ?? {});
  const em = app.orm.em.fork();
  const now = app.clock.now();
  const device = await em.findOne(PartnerDevice, { deviceCodeHash: sha256Hex(deviceCode), status: 'pending' });
  if (!device) throw errors.deviceCodeInvalid();
  if (!device.partnerId) {
    if (device.expiresAt.getTime() <= now.getTime()) throw errors.deviceCodeInvalid();
    throw errors.authorizationPending();
  }
  // One poll gets the key: the row moves from pending to paired in the same statement that checks it.
  const claimed = await em.nativeUpdate(PartnerDevice, { id: device.id, status: 'pending' }, { status: 'paired', lastSeenAt: now });
  if (claimed === 0) throw errors.deviceCodeInvalid();
  const owner = await em.findOneOrFail(User, { workspaceId: device.partnerId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const { key, secret } = await issueKey(
    { em, clock: app.clock },
    { workspaceId: device.partnerId, userId: owner.id },
    { name: `device ${device.name ?? device.id}`, scopes: ['partner'], readonly: true },
  );
  await em.nativeUpdate(PartnerDevice, { id: device.id }, { keyId: key.id });
  return { ...toApiKeyDto(key, secret), secret };
}

/** `GET /partner/devices`: the integrator's installs, oldest pairing first (`pending`: confirmed, its key not fetched yet). */
export async function listDevices(ctx: ServiceContext): Promise<DeviceDto[]> {
  const program = await requireProgram(ctx);
  const devices = await ctx.em.find(PartnerDevice, { partnerId: program.workspaceId, status: { $in: ['pending', 'paired'] } }, { orderBy: { pairedAt: 'asc', id: 'asc' } });
  return devices.map(toDeviceDto);
}

/** `DELETE /partner/devices/:id`: unpairs an install; its key is revoked (401 at its next call). */
export async function unpairDevice(ctx: ServiceContext, id: string): Promise<void> {
  const program = await requireProgram(ctx);
  const device = await ctx.em.findOne(PartnerDevice, { id, partnerId: program.workspaceId, status: { $in: ['paired', 'pending'] } });
  if (!device) throw errors.notFound('device', id);
  device.status = 'unpaired';
  await ctx.em.flush();
  const key = device.keyId ? await ctx.em.findOne(ApiKey, { id: device.keyId }) : null;
  if (key) await revokeKeyAndDescendants(ctx.em, key, ctx.clock.now());
}

/**
 * Deletes the pairing codes nobody confirmed before they expired (each `POST /partner/devices/code`
 * stores one): a code confirmed but not yet fetched stays, as do paired and unpaired devices.
 */
export async function sweepDeviceCodes(app: Deps): Promise<number> {
  return app.orm.em.fork().nativeDelete(PartnerDevice, { status: 'pending', partnerId: null, expiresAt: { $lte: app.clock.now() } });
}
