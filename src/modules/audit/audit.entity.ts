import { defineEntity, p } from '@mikro-orm/core';

/**
 * One entry of a workspace's audit log (Migration20261126203700): who changed who can do what, when, from
 * which address, under which request. Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE. `seq`
 * (an identity the database fills) orders the list and names a page's end in its cursor.
 */
const AuditEntrySchema = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entry',
  properties: {
    id: p.string().primary(),
    seq: p.bigint('number').autoincrement(),
    workspaceId: p.string(),
    at: p.datetime(),
    action: p.string(),
    /** `key`, `person` or `system` (the CLI, an operator). */
    actorType: p.string(),
    actorKeyId: p.string().nullable(),
    actorUserId: p.string().nullable(),
    actorEmail: p.string().nullable(),
    targetType: p.string(),
    targetId: p.string().nullable(),
    details: p.json<Record<string, unknown>>(),
    address: p.string().nullable(),
    requestId: p.string().nullable(),
  },
});
export class AuditEntry extends AuditEntrySchema.class {}
AuditEntrySchema.setClass(AuditEntry);
