import { z } from 'zod';
import { EDGE_WHEN, FLOW_FORMAT, MAX_EDGES, MAX_NODES, NODE_CONFIGS, NODE_TYPES, NodePositionSchema, PORTABLE_CONFIGS, type NodeType } from './flows.schemas.js';

/**
 * The JSON Schema of the portable flow document (`service.flow/v1`), derived from the zod schemas the
 * service validates with: served at `GET /engine/flows/schema.json` and committed as
 * `docs/flow.schema.json` (a test keeps the two equal).
 */
const nodeOf = (type: NodeType) =>
  z.object({
    key: z.string().min(1).max(64).describe('Unique in the flow'),
    type: z.literal(type),
    config: (PORTABLE_CONFIGS[type] ?? NODE_CONFIGS[type]) as z.ZodType,
    position: NodePositionSchema.optional(),
  });

const PortableDocument = z
  .object({
    format: z.literal(FLOW_FORMAT),
    name: z.string().min(1).max(200),
    graph: z.object({
      nodes: z.array(z.union(NODE_TYPES.map(nodeOf))).max(MAX_NODES),
      edges: z
        .array(
          z.object({
            from: z.string().describe('Key of the source node'),
            to: z.string().describe('Key of the target node'),
            when: z.enum(EDGE_WHEN).optional().describe('After a condition: "true" or "false"; after an approval: "approved" or "rejected"'),
          }),
        )
        .max(MAX_EDGES),
    }),
  })
  .describe('A flow as code: no workspace id, no secret, no unattended-outbound flag; agents and collections named, not by id');

export const FLOW_DOCUMENT_JSON_SCHEMA: Record<string, unknown> = {
  $id: 'https://svc.local/schemas/service.flow/v1.json',
  title: 'service.flow/v1',
  ...(z.toJSONSchema(PortableDocument, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>),
};
