import { builder } from '../../graphql/builder.js';
import { objectFromZod } from '../../graphql/from-zod.js';
import { operationField } from '../../graphql/root-fields.js';
import { AuditEntrySchema, type AuditEntryDto } from './audit.schemas.js';
import { listAuditOp } from './operations.js';

/** The audit log for the console's Audit screen: the same service function as GET /v1/audit. */
const AuditEntryRef = objectFromZod('AuditEntry', AuditEntrySchema, {
  description: 'A change of who can do what in the workspace: who, what, when, from which address, under which request.',
  // Action names carry dots (key.created), which a GraphQL enum cannot: a string, one of GET /v1/audit's.
  types: { action: 'String' },
  names: { actor: 'AuditActor', target: 'AuditTarget' },
});

const AuditPageRef = builder.objectRef<{ entries: AuditEntryDto[]; nextCursor: string | null }>('AuditPage').implement({
  description: 'A page of audit entries, newest first; pass nextCursor as cursor for the next one.',
  fields: (t) => ({
    entries: t.field({ type: [AuditEntryRef], resolve: (p) => p.entries }),
    nextCursor: t.string({ nullable: true, resolve: (p) => p.nextCursor }),
  }),
});

builder.queryFields((t) => ({
  auditLog: t.field({
    type: AuditPageRef,
    description: "The workspace's audit log, newest first (GET /v1/audit); admins and unrestricted keys only.",
    extensions: operationField(listAuditOp),
    args: {
      action: t.arg.string({ required: false, description: 'Only these actions, comma-separated (key.created,key.revoked)' }),
      from: t.arg.string({ required: false, description: 'At or after (YYYY-MM-DD or ISO instant, UTC)' }),
      to: t.arg.string({ required: false, description: 'Before (YYYY-MM-DD or ISO instant, UTC)' }),
      limit: t.arg.int({ required: false }),
      cursor: t.arg.string({ required: false }),
    },
    resolve: async (_r, args, ctx) =>
      listAuditOp.run(await ctx.service(), {
        query: {
          action: args.action ?? undefined,
          from: args.from ?? undefined,
          to: args.to ?? undefined,
          limit: args.limit ?? undefined,
          cursor: args.cursor ?? undefined,
        },
      }),
  }),
}));
