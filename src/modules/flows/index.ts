/** The flows module's public surface: what other modules and the adapters may import (docs/architecture.md, "Module surfaces"). */
export { ACTIVE_RUN_STATES, flowBacklog } from './backlog.js';
export { startEventRuns } from './event-trigger.js';
export { FLOW_DOCUMENT_JSON_SCHEMA } from './flow-document.schema.js';
export { ApprovalDtoSchema, CreateFlowSchema, DecideSchema, FlowDocumentDtoSchema, FlowDocumentSchema, FlowDtoSchema, PutGraphSchema, RunDetailDtoSchema, RunDtoSchema, RunListQuerySchema, StartRunSchema, UpdateFlowSchema, ValidateFlowSchema, ValidationResultSchema } from './flows.schemas.js';
export { etagOf } from './flows.service.js';
export {
  cancelRunOp,
  claimApprovalOp,
  createFlowOp,
  decideApprovalOp,
  deleteFlowOp,
  exportFlowOp,
  getFlowOp,
  getRunOp,
  importFlowOp,
  listApprovalsOp,
  listFlowsOp,
  listRunsOp,
  putGraphOp,
  resumeRunOp,
  runEventsOp,
  startRunOp,
  updateFlowOp,
  validateFlowOp,
} from './operations.js';
export { acceptHook, HOOK_HEADERS, verifyHook } from './inbound.js';
export { createFlowsRuntime, startFlows } from './runtime.js';
