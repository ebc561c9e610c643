import { errors } from '../errors/index.js';
import { ApiKey } from '../modules/keys/api-key.entity.js';
import { issueKey, revokeKeyById, type AdminContext } from '../modules/keys/keys.service.js';
import { User } from '../modules/workspaces/workspace.entity.js';
import { createUser, createWorkspace, findWorkspaceOrFail, setSuspended } from '../modules/workspaces/workspaces.service.js';

export type Flags = Record<string, string | boolean | undefined>;

const str = (flags: Flags, name: string): string | undefined => {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
};

const required = (flags: Flags, name: string): string => {
  const v = str(flags, name);
  if (!v) throw errors.badRequest(`--${name} is required`);
  return v;
};

/** Parses a whole-number flag; anything else is a readable error naming the flag. */
export const intFlag = (flags: Flags, name: string): number | undefined => {
  const v = str(flags, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw errors.badRequest(`--${name} must be a positive whole number`);
  return Number(v);
};

const keyJson = (key: ApiKey, secret?: string) => ({
  id: key.id,
  ...(secret ? { secret } : {}),
  workspaceId: key.workspaceId,
  userId: key.userId,
  scopes: key.scopes,
  readonly: key.readonly,
  ratePerMinute: key.ratePerMinute,
  monthlyQuestionLimit: key.monthlyQuestionLimit,
  expiresAt: key.expiresAt?.toISOString() ?? null,
  revokedAt: key.revokedAt?.toISOString() ?? null,
});

type Handler = (actx: AdminContext, args: string[], flags: Flags) => Promise<unknown>;

/** Each command is `<noun> <verb>`; handlers call the same services as the API. */
export const commands: Record<string, Handler> = {
  'workspace create': async (actx, _args, flags) => {
    const { workspace, user, issued } = await createWorkspace(actx, {
      name: required(flags, 'name'),
      plan: str(flags, 'plan') as never,
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
  'user create': async (actx, _args, flags) => {
    const user = await createUser(actx, required(flags, 'workspace'));
    return { user: { id: user.id, workspaceId: user.workspaceId } };
  },
  'key create': async (actx, _args, flags) => {
    const workspace = await findWorkspaceOrFail(actx, required(flags, 'workspace'));
    const userId = str(flags, 'user');
    const user = userId
      ? await actx.em.findOne(User, { id: userId, workspaceId: workspace.id })
      : await actx.em.findOne(User, { workspaceId: workspace.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    if (!user) throw errors.notFound(userId ? `User not found in workspace: ${userId}` : 'The workspace has no user');
    const scopes = str(flags, 'scopes');
    const { key, secret } = await issueKey(
      actx,
      { workspaceId: workspace.id, userId: user.id },
      {
        scopes: scopes ? scopes.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
        readonly: flags.readonly === true,
        ratePerMinute: intFlag(flags, 'rate-per-minute'),
        monthlyQuestionLimit: intFlag(flags, 'monthly-question-limit'),
        expiresAt: str(flags, 'expires-at'),
      },
    );
    return { key: keyJson(key, secret) };
  },
  'key revoke': async (actx, [id]) => ({ key: keyJson(await revokeKeyById(actx, need(id, 'key id'))) }),
};

const need = (v: string | undefined, what: string): string => {
  if (!v) throw errors.badRequest(`missing ${what}`);
  return v;
};

const suspendJson = (w: { id: string; suspended: boolean }) => ({ id: w.id, suspended: w.suspended });

export async function runCommand(actx: AdminContext, positionals: string[], flags: Flags): Promise<unknown> {
  const [noun, verb, ...rest] = positionals;
  const handler = commands[`${noun} ${verb}`];
  if (!handler) throw errors.badRequest(`unknown command: ${positionals.join(' ')} (run with --help)`);
  return handler(actx, rest, flags);
}
