import type { ServiceContext } from '../../core/context.js';
import { errors } from '../../errors/index.js';
import { AuditQuerySchema, type AuditAction, type AuditEntryDto, type ActorType } from './audit.schemas.js';

/** Admins read the log: an admin person or an unrestricted key (docs/people.md, role matrix). */
interface AuditRow {
  id: string;
  seq: string | number;
  at: Date | string;
  action: string;
  actor_type: string;
  actor_key_id: string | null;
  actor_user_id: string | null;
  actor_email: string | null;
  target_type: string;
  target_id: string | null;
  details: Record<string, unknown> | string;
  address: string | null;
  request_id: string | null;
}

const toDto = (r: AuditRow): AuditEntryDto => ({
  id: r.id,
  at: new Date(r.at).toISOString(),
  action: r.action as AuditAction,
  actor: { type: r.actor_type as ActorType, keyId: r.actor_key_id, userId: r.actor_user_id, email: r.actor_email },
  target: { type: r.target_type, id: r.target_id },
  details: typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : r.details,
  address: r.address,
  requestId: r.request_id,
});

const encodeCursor = (seq: number) => Buffer.from(JSON.stringify({ s: seq }), 'utf8').toString('base64url');

function decodeCursor(cursor: string): number {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown };
    if (typeof v.s === 'number' && Number.isSafeInteger(v.s) && v.s > 0) return v.s;
  } catch {
    // falls through
  }
  throw errors.validation('cursor', 'cursor is not valid');
}

/**
 * `GET /v1/audit`: the workspace's entries, newest first, filtered by action and period; the cursor
 * (the project's opaque `{ s: seq }`) keeps pages stable while entries arrive.
 */
export async function listAudit(ctx: ServiceContext, query: unknown = {}): Promise<{ entries: AuditEntryDto[]; nextCursor: string | null }> {
  const q = AuditQuerySchema.parse(query ?? {});
  const where: string[] = ['workspace_id = ?'];
  const params: unknown[] = [ctx.caller.workspace.id];
  if (q.action) where.push(`action in (${q.action.map(() => '?').join(', ')})`), params.push(...q.action);
  if (q.from) where.push('at >= ?'), params.push(q.from);
  if (q.to) where.push('at < ?'), params.push(q.to);
  if (q.cursor) where.push('seq < ?'), params.push(decodeCursor(q.cursor));
  const rows = await ctx.em.execute<AuditRow[]>(
    `select id, seq, at, action, actor_type, actor_key_id, actor_user_id, actor_email, target_type, target_id, details, address, request_id
       from audit_entry where ${where.join(' and ')} order by seq desc limit ?`,
    [...params, q.limit + 1],
  );
  const page = rows.slice(0, q.limit);
  return { entries: page.map(toDto), nextCursor: rows.length > q.limit ? encodeCursor(Number(page[page.length - 1]!.seq)) : null };
}
