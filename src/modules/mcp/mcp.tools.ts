import { z } from 'zod';
import { errors } from '../../errors/index.js';
import type { ServiceContext } from '../../core/context.js';
import type { Operation } from '../../core/operation.js';
import { getRunOp, listApprovalsOp, listFlowsOp, startRunOp } from '../flows/index.js';
import { queryKnowledgeOp } from '../knowledge/index.js';
import { askOp } from '../light/index.js';
import { runPosteOp } from '../postes/index.js';
import { verifyTextOp } from '../verify/index.js';

/** What the client sees of a tool: its name, description and input shape. */
interface ToolDescription {
  name: string;
  title: string;
  description: string;
  /** Types and descriptions for the client; the service parses the real rules (and names the field). */
  input: z.ZodRawShape;
}

/**
 * An MCP tool: it exposes a declared operation (src/core/operation.ts), the same object as its REST
 * twin's. The pipeline admits the call with the operation's needs, and its ceiling counts in the
 * operation's REST route's bucket (one bucket whichever API is used); nothing of what it needs is
 * restated here.
 */
export interface McpTool extends ToolDescription {
  operation: Operation;
  /** The operation's input from the tool's arguments. */
  args: (args: Record<string, unknown>) => unknown;
  /** The tool's structured result from the operation's. */
  result: (out: unknown) => Record<string, unknown>;
}

/** A tool over a declared operation, typed by it. */
function operationTool<I, O>(
  def: ToolDescription & { operation: Operation<I, O>; args: (args: Record<string, unknown>) => I; result: (out: O) => Record<string, unknown> },
): McpTool {
  return def as unknown as McpTool;
}

/** Runs a tool for an admitted caller: its operation, with the input made of the tool's arguments. */
export async function runTool(tool: McpTool, ctx: ServiceContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return tool.result(await tool.operation.run(ctx, tool.args(args)));
}

/**
 * An argument standing for a REST path parameter (`/engine/runs/:runId`), which a REST call cannot leave
 * out: a non-empty string, else a refusal naming it (the arguments reach the tool as sent).
 */
function pathArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (value === undefined || value === null || value === '') throw errors.validation(name, `${name} is required`);
  if (typeof value !== 'string') throw errors.validation(name, `${name} must be a string`);
  return value;
}

const idList = (what: string) => z.array(z.string()).optional().describe(what);

/**
 * The tools of `POST /mcp`. Every key sees all of them; each is admitted with its operation's needs when called. None
 * decides an approval: `approvals_list` only lists them (approvals stay with signed-in people).
 */
export const MCP_TOOLS: readonly McpTool[] = [
  operationTool({
    name: 'service_ask',
    title: 'Ask the workspace documents',
    description:
      'Answers a question only from the documents of the workspace (or of one dossier), with [n] citations and the passages; refuses when the documents do not cover it. Metered in questions. Needs scope light.',
    input: {
      question: z.string().describe('The question'),
      history: z
        .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() }))
        .optional()
        .describe('Earlier turns of the conversation, oldest first (at most 20)'),
      dossierId: z.string().optional().describe('Restrict the answer to this dossier'),
      provider: z.string().optional().describe('auto, local, or a provider id allowed in the workspace'),
    },
    operation: askOp,
    args: (args) => ({ body: args }),
    result: (answer) => answer,
  }),
  operationTool({
    name: 'knowledge_search',
    title: 'Search the workspace documents',
    description:
      'Ranked passages of the workspace documents for a query (full text, fused with vectors when embeddings are configured), with source, section, page and similarity. Consumes no questions. Needs scope knowledge.',
    input: {
      query: z.string().describe('What to look for'),
      topK: z.number().int().optional().describe('How many passages, 1 to 20 (default 5; 8 for list questions)'),
      agentId: z.string().optional().describe("Search only what this agent reads (its linked sources and collections)"),
      sourceIds: idList('Search only these sources'),
      collectionIds: idList('Search only these collections (dossiers)'),
    },
    operation: queryKnowledgeOp,
    args: (args) => ({ body: args }),
    result: (results) => ({ results }),
  }),
  operationTool({
    name: 'service_verify',
    title: 'Verify a text against passages or collections',
    description:
      'Checks each claim of a text against the given passages or knowledge collections (no model called) and returns the report with its certificate id. One control. Needs scope proof.',
    input: {
      text: z.string().describe('The text whose claims are checked'),
      passages: z
        .array(z.object({ source: z.string(), content: z.string() }))
        .optional()
        .describe('Passages to check against; or collectionIds, never both'),
      collectionIds: idList('Knowledge collections to check against'),
    },
    operation: verifyTextOp,
    args: (args) => ({ body: args }),
    result: (report) => ({ report }),
  }),
  operationTool({
    name: 'poste_run',
    title: 'Run a poste on a dossier',
    description:
      'Runs an installed poste (task agent) over a dossier: each checklist item answered with citations and checked by the verifier. Metered in questions. Needs scope agents.',
    input: {
      key: z.string().describe('The poste key (GET /v1/postes)'),
      dossierId: z.string().describe('The dossier to work on'),
      instructions: z.string().optional().describe('Extra instructions for this run'),
    },
    operation: runPosteOp,
    args: (args) => ({ key: pathArg(args, 'key'), body: { dossierId: args.dossierId, instructions: args.instructions } }),
    result: (run) => ({ run }),
  }),
  operationTool({
    name: 'flow_list',
    title: 'List the automation flows',
    description: 'The automation flows of the workspace, oldest first (as GET /engine/flows). Needs scope engine.',
    input: {},
    operation: listFlowsOp,
    args: () => ({}),
    result: (flows) => ({ flows }),
  }),
  operationTool({
    name: 'flow_run',
    title: 'Start a flow run',
    description:
      'Starts a manual run of a flow and returns the run to follow with run_status. Outbound steps still wait for a human approval. Needs scope engine.',
    input: { flowId: z.string().describe('The flow to run'), input: z.record(z.string(), z.unknown()).optional().describe('The run input') },
    operation: startRunOp,
    args: (args) => ({ id: pathArg(args, 'flowId'), body: { input: args.input } }),
    result: (run) => ({ run }),
  }),
  operationTool({
    name: 'run_status',
    title: 'Status of a flow run',
    description: "A flow run with each step's status, timing, output summary and error (as GET /engine/runs/:runId). Needs scope engine.",
    input: { runId: z.string().describe('The run id') },
    operation: getRunOp,
    args: (args) => ({ runId: pathArg(args, 'runId') }),
    result: (run) => ({ run }),
  }),
  operationTool({
    name: 'approvals_list',
    title: 'List pending approvals',
    description: 'Approvals of the workspace waiting for a person. Listing only: approvals are decided by signed-in people, never through MCP. Needs scope engine.',
    input: { status: z.enum(['open', 'all']).optional().describe('open: open and claimed ones only; all (default): also the recent decided ones') },
    operation: listApprovalsOp,
    args: (args) => {
      if (args.status !== undefined && args.status !== 'open' && args.status !== 'all') throw errors.validation('status', 'status must be open or all');
      return { status: args.status === 'open' ? ('open' as const) : ('all' as const) };
    },
    result: (approvals) => ({ approvals }),
  }),
];
