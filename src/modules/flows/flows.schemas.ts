import type { GraphProblem } from '../../errors/index.js';
import { z } from 'zod';
import { pgInt } from '../../lib/pg-int.js';

/** The flow export document's format identifier (SPEC Versioning 4). */
export const FLOW_FORMAT = 'service.flow/v1';

export const MAX_NODES = 200;
export const MAX_EDGES = 400;
const MAX_NAME = 200;
const MAX_KEY = 64;
const MAX_COMMENT = 2_000;
const MAX_COORDINATE = 1_000_000;

/** PostgreSQL text cannot hold NUL: such input is a 400 naming its field, never a database error. */
const NO_NUL = (s: string) => !s.includes('\u0000');

const presence = (field: string, kind: string) => (iss: { input: unknown }) =>
  iss.input === undefined || iss.input === null ? `${field} is required` : `${field} must be ${kind}`;

const text = (field: string, max: number) =>
  z
    .string({ error: presence(field, 'a string') })
    .max(max, `${field} must be at most ${max} characters`)
    .refine(NO_NUL, `${field} must not contain NUL characters`);

const requiredText = (field: string, max: number) => text(field, max).refine((s) => s.trim().length > 0, `${field} is required`);

export const FlowNameSchema = requiredText('name', MAX_NAME);

/**
 * The node kinds. Triggers start a run; steps do the work; outbound nodes reach outside the service and
 * need an approval before them on every path (unless a signed-in person allowed unattended outbound).
 */
export const TRIGGER_TYPES = ['trigger.manual', 'trigger.schedule', 'trigger.webhook', 'trigger.event'] as const;
export const STEP_TYPES = ['agent.ask', 'knowledge.query', 'verify.text', 'condition', 'transform', 'wait', 'approval'] as const;
export const OUTBOUND_TYPES = ['http.request', 'mail.send'] as const;
export const NODE_TYPES = [...TRIGGER_TYPES, ...STEP_TYPES, ...OUTBOUND_TYPES] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export const isTrigger = (type: string): boolean => type.startsWith('trigger.');
export const isOutbound = (type: string): boolean => (OUTBOUND_TYPES as readonly string[]).includes(type);

/** Service events a `trigger.event` node can listen to. */
export const FLOW_TRIGGER_EVENTS = ['source.ingested', 'source.failed', 'knowledge.contradiction_detected'] as const;

/** Edge conditions: a condition's result, or an approval's decision. */
export const EDGE_WHEN = ['true', 'false', 'approved', 'rejected'] as const;

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const idRef = (field: string) => requiredText(field, 64);
const nameList = (field: string) => z.array(requiredText(`${field}[]`, MAX_NAME), { error: presence(field, 'a list of names') }).max(20);
const idList = (field: string) => z.array(idRef(`${field}[]`), { error: presence(field, 'a list of ids') }).max(20);

/** Passages a verify step checks the text against, instead of collections. */
const passages = z
  .array(z.strictObject({ source: requiredText('passages[].source', 500), content: requiredText('passages[].content', 20_000) }), {
    error: presence('passages', 'a list of { source, content }'),
  })
  .min(1, 'passages needs at least one passage')
  .max(50);

/** Per node type, the config a node must carry (strict: an unknown field is a problem too). */
export const NODE_CONFIGS = {
  'trigger.manual': z.strictObject({}),
  'trigger.schedule': z.strictObject({ cron: requiredText('cron', 200), timezone: text('timezone', 100).optional() }),
  'trigger.webhook': z.strictObject({}),
  'trigger.event': z.strictObject({ event: z.enum(FLOW_TRIGGER_EVENTS, { error: `event must be one of ${FLOW_TRIGGER_EVENTS.join(', ')}` }) }),
  'agent.ask': z.strictObject({ agentId: idRef('agentId'), prompt: requiredText('prompt', 8_000) }),
  'knowledge.query': z.strictObject({
    query: requiredText('query', 2_000),
    collectionIds: idList('collectionIds').optional(),
    topK: pgInt('topK', { max: 20 }).optional(),
  }),
  'verify.text': z
    .strictObject({ text: requiredText('text', 20_000), collectionIds: idList('collectionIds').optional(), passages: passages.optional() })
    .refine((c) => (c.collectionIds === undefined) !== (c.passages === undefined), 'give either collectionIds or passages'),
  condition: z.strictObject({
    left: text('left', 2_000),
    op: z.enum(['equals', 'notEquals', 'contains', 'exists', 'greaterThan', 'lessThan'], {
      error: 'op must be one of equals, notEquals, contains, exists, greaterThan, lessThan',
    }),
    right: text('right', 2_000).optional(),
  }),
  transform: z.strictObject({ template: text('template', 20_000) }),
  wait: z.strictObject({ seconds: pgInt('seconds', { max: 30 * 24 * 3600 }) }),
  approval: z.strictObject({
    question: requiredText('question', 2_000),
    data: text('data', 20_000).optional(),
    timeoutSeconds: pgInt('timeoutSeconds', { max: 30 * 24 * 3600 }).optional(),
  }),
  'http.request': z.strictObject({
    method: z.enum(HTTP_METHODS, { error: `method must be one of ${HTTP_METHODS.join(', ')}` }),
    url: requiredText('url', 2_048),
    headers: z.record(z.string(), text('headers value', 4_000), { error: 'headers must be an object of strings' }).optional(),
    body: text('body', 100_000).optional(),
  }),
  'mail.send': z.strictObject({ to: requiredText('to', 320), subject: requiredText('subject', 500), body: requiredText('body', 100_000) }),
} satisfies Record<NodeType, z.ZodType>;

/**
 * The connections an exported document names instead of ids (SPEC: "connections by name"): an agent
 * step names its agent, a knowledge or verify step its collections.
 */
export const PORTABLE_CONFIGS: Partial<Record<NodeType, z.ZodType>> = {
  'agent.ask': z.strictObject({ agent: requiredText('agent', MAX_NAME), prompt: requiredText('prompt', 8_000) }),
  'knowledge.query': z.strictObject({
    query: requiredText('query', 2_000),
    collections: nameList('collections').optional(),
    topK: pgInt('topK', { max: 20 }).optional(),
  }),
  'verify.text': z
    .strictObject({ text: requiredText('text', 20_000), collections: nameList('collections').optional(), passages: passages.optional() })
    .refine((c) => (c.collections === undefined) !== (c.passages === undefined), 'give either collections or passages'),
};

/** A coordinate of a node on the editor's canvas: a finite number, within a million either way. */
const coordinate = (field: string) =>
  z
    .number({ error: presence(field, 'a number') })
    .min(-MAX_COORDINATE, `${field} must be between -${MAX_COORDINATE} and ${MAX_COORDINATE}`)
    .max(MAX_COORDINATE, `${field} must be between -${MAX_COORDINATE} and ${MAX_COORDINATE}`);

/**
 * Where the node sits on the console's canvas (issue 27): kept with the graph, exported and imported with
 * it; the engine never reads it. Optional: a node without one is laid out from the triggers down.
 */
export const NodePositionSchema = z
  .strictObject({ x: coordinate('position.x'), y: coordinate('position.y') }, { error: presence('position', 'an object { x, y }') })
  .describe('Where the node sits in the editor (canvas units); optional, never read by the engine');

/** A node as sent: its type and config are checked by graph validation (problems, not a 400). */
export const FlowNodeSchema = z.object({
  key: text('key', MAX_KEY).refine((s) => s.trim().length > 0, 'key is required'),
  type: text('type', 64),
  config: z.record(z.string(), z.unknown(), { error: 'config must be an object' }).optional(),
  position: NodePositionSchema.optional(),
});
export type FlowNode = z.infer<typeof FlowNodeSchema>;

export const FlowEdgeSchema = z.object({
  from: text('from', MAX_KEY),
  to: text('to', MAX_KEY),
  when: text('when', 32).optional(),
});
export type FlowEdge = z.infer<typeof FlowEdgeSchema>;

const nodes = z.array(FlowNodeSchema, { error: presence('nodes', 'a list of nodes') }).max(MAX_NODES, `nodes: at most ${MAX_NODES}`);
const edges = z.array(FlowEdgeSchema, { error: presence('edges', 'a list of edges') }).max(MAX_EDGES, `edges: at most ${MAX_EDGES}`);

export const FlowGraphSchema = z.object({ nodes, edges });
export type FlowGraph = z.infer<typeof FlowGraphSchema>;

/** `POST /engine/flows`. */
export const CreateFlowSchema = z.object({
  name: FlowNameSchema,
  graph: FlowGraphSchema.optional(),
});
export type CreateFlowInput = z.input<typeof CreateFlowSchema>;

/** `PATCH /engine/flows/:id`: name, schedule settings, enabled state, unattended outbound (people only). */
export const UpdateFlowSchema = z.object({
  name: FlowNameSchema.optional(),
  enabled: z.boolean({ error: 'enabled must be a boolean' }).optional(),
  schedule: z
    .object({ cron: requiredText('schedule.cron', 200), timezone: text('schedule.timezone', 100).optional() }, { error: 'schedule must be an object' })
    .optional(),
  unattendedOutbound: z.boolean({ error: 'unattendedOutbound must be a boolean' }).optional(),
});
export type UpdateFlowInput = z.input<typeof UpdateFlowSchema>;

/** `PUT /engine/flows/:id/graph`. */
export const PutGraphSchema = z.object({
  nodes,
  edges,
  expectedVersion: pgInt('expectedVersion').optional(),
});
export type PutGraphInput = z.input<typeof PutGraphSchema>;

/** The portable document (`GET /engine/flows/:id/export`, `POST /engine/flows/import`). */
export const FlowDocumentSchema = z.object({
  format: z.literal(FLOW_FORMAT, { error: `format must be "${FLOW_FORMAT}"` }),
  name: FlowNameSchema,
  graph: FlowGraphSchema,
});
export type FlowDocument = z.infer<typeof FlowDocumentSchema>;

/** `POST /engine/flows/validate`: an export document, or `{ graph }`. */
export const ValidateFlowSchema = z.object({
  format: z.string({ error: 'format must be a string' }).optional(),
  name: z.string({ error: 'name must be a string' }).optional(),
  graph: FlowGraphSchema,
});
export type ValidateFlowInput = z.input<typeof ValidateFlowSchema>;

export const StartRunSchema = z.object({
  input: z.record(z.string(), z.unknown(), { error: 'input must be an object' }).optional(),
});
export type StartRunInput = z.input<typeof StartRunSchema>;

export const DecideSchema = z.object({
  decision: z.enum(['approve', 'reject'], { error: 'decision must be "approve" or "reject"' }),
  comment: text('comment', MAX_COMMENT).optional(),
});
export type DecideInput = z.input<typeof DecideSchema>;

export const RunListQuerySchema = z.object({
  limit: z
    .string({ error: 'limit must be a whole number from 1 to 100' })
    .regex(/^\d{1,3}$/, 'limit must be a whole number from 1 to 100')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, 'limit must be a whole number from 1 to 100')
    .optional(),
});

// ------------------------------------------------------------------------------------------ answers

export const ProblemSchema = z.object({ code: z.string(), message: z.string(), nodeKey: z.string().optional() });
/** The schema describes the wire (a string code); the catalogue's `GraphProblem` types what is made. */
export type Problem = GraphProblem;

export const ValidationResultSchema = z.object({ valid: z.boolean(), problems: z.array(ProblemSchema) });

const GraphDtoSchema = z.object({
  nodes: z.array(
    z.object({ key: z.string(), type: z.string(), config: z.record(z.string(), z.unknown()).optional(), position: z.object({ x: z.number(), y: z.number() }).optional() }),
  ),
  edges: z.array(z.object({ from: z.string(), to: z.string(), when: z.string().optional() })),
});

export const FlowDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  version: z.number().int(),
  graph: GraphDtoSchema,
  unattendedOutbound: z.boolean(),
  nextDueAt: z.string().nullable(),
  userId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FlowDto = z.infer<typeof FlowDtoSchema>;

export const FlowDocumentDtoSchema = z.object({ format: z.literal(FLOW_FORMAT), name: z.string(), graph: GraphDtoSchema });

export const RUN_STATUS_VALUES = ['queued', 'running', 'waiting', 'waiting_approval', 'succeeded', 'failed', 'cancelled'] as const;

export const StepDtoSchema = z.object({
  nodeKey: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'running', 'waiting', 'succeeded', 'failed', 'skipped']),
  attempts: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  summary: z.string().nullable(),
  output: z.unknown().optional(),
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
});
export type StepDto = z.infer<typeof StepDtoSchema>;

export const RunDtoSchema = z.object({
  id: z.string(),
  flowId: z.string(),
  flowName: z.string(),
  flowVersion: z.number().int(),
  trigger: z.enum(['manual', 'schedule', 'webhook', 'event']),
  status: z.enum(RUN_STATUS_VALUES).describe(
    'queued (waiting for a worker), running, waiting (a wait step), waiting_approval (paused on an approval), ' +
      'succeeded, failed (resumable), cancelled',
  ),
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
  scheduledFor: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string(),
  requestId: z.string().nullable().describe('The id of the request that started the run (`x-request-id`), directly or through an event; null for schedules'),
});
export type RunDto = z.infer<typeof RunDtoSchema>;

export const RunDetailDtoSchema = RunDtoSchema.extend({ steps: z.array(StepDtoSchema) });
export type RunDetailDto = z.infer<typeof RunDetailDtoSchema>;

export const ApprovalDtoSchema = z.object({
  id: z.string(),
  runId: z.string(),
  flowId: z.string(),
  flowName: z.string(),
  nodeKey: z.string(),
  question: z.string(),
  data: z.unknown().optional(),
  status: z.enum(['open', 'claimed', 'approved', 'rejected', 'timed_out', 'cancelled']),
  claimedBy: z.string().nullable(),
  decidedBy: z.string().nullable(),
  comment: z.string().nullable(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ApprovalDto = z.infer<typeof ApprovalDtoSchema>;
