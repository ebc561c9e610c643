/** The flows module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { ACTIVE_RUN_STATES, flowBacklog } from './backlog.js';
export { startEventRuns } from './event-trigger.js';
export { FLOW_DOCUMENT_JSON_SCHEMA } from './flow-document.schema.js';
export { ApprovalDtoSchema, CreateFlowSchema, DecideSchema, FlowDocumentDtoSchema, FlowDocumentSchema, FlowDtoSchema, PutGraphSchema, RunDetailDtoSchema, RunDtoSchema, RunListQuerySchema, StartRunSchema, UpdateFlowSchema, ValidateFlowSchema, ValidationResultSchema } from './flows.schemas.js';
export { cancelRun, claimApproval, createFlow, decideApproval, deleteFlow, etagOf, exportFlow, getFlow, getRun, importFlow, listApprovals, listFlows, listRuns, putGraph, resumeRun, startManualRun, updateFlow, validateFlow } from './flows.service.js';
export { acceptHook, HOOK_HEADERS, verifyHook } from './inbound.js';
export { openRunStream } from './run-stream.js';
export { createFlowsRuntime, startFlows } from './runtime.js';
