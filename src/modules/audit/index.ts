/** The audit module's surface: recording an entry with a change, and reading the log (docs/operations.md, "Audit log"). */
export { audit, actorOf, personActor, recordAudit, recordSignInFailure, sourceOf, SYSTEM_ACTOR, type AuditFact, type AuditSource } from './record.js';
export { listAuditOp } from './operations.js';
export { AUDIT_ACTIONS, AuditEntrySchema, AuditPageSchema, AuditQuerySchema, type AuditAction, type AuditActor, type AuditEntryDto } from './audit.schemas.js';
export { AuditEntry } from './audit.entity.js';
